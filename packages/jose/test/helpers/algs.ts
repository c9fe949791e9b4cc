/**
 * The algorithms the parametrised suites run. SLH-DSA's small ("s") parameter sets sign in
 * hundreds of milliseconds on node:crypto and seconds on noble, and importing one of their
 * private keys regenerates PK.root (one key generation): running every parametrised test with them
 * would add minutes to CI. slh-dsa.test.ts covers them through every public API instead, and the
 * fast SLH-DSA-SHA2-128f stands for the family here.
 */
import { algorithms } from '@pqid/jose';

export const isSlowAlgorithm = (alg: string): boolean => /^SLH-DSA-.*-\d+s$/.test(alg);

export const suiteAlgorithms = (): string[] => algorithms().filter((a) => !isSlowAlgorithm(a));
