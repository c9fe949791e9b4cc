/**
 * Loaders for the ML-DSA verification vectors (pqid's own and Wycheproof's), shared by the
 * native, jose and cross-package tests. Reads only files in this directory.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export type MlDsaAlg = 'ML-DSA-44' | 'ML-DSA-65' | 'ML-DSA-87';
export const ML_DSA_ALGS: MlDsaAlg[] = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
const bytes = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));

/** One verification case, decoded: `valid` is the only right answer. */
export interface VerifyCase {
  id: string;
  valid: boolean;
  comment: string;
  /** Unpatched-AVX2 bugs this case exposes (pqid vectors only). */
  catches: string[];
  pk: Uint8Array;
  msg: Uint8Array;
  ctx: Uint8Array;
  sig: Uint8Array;
}

interface PqidFile {
  algorithm: MlDsaAlg;
  vectors: { id: string; valid: boolean; comment: string; catches?: string[]; pk: string; msg: string; ctx: string; sig: string }[];
}

/** test/vectors/pqid-mldsa-verify/<alg>.json (see its README). */
export function pqidVectors(alg: MlDsaAlg): VerifyCase[] {
  const f = JSON.parse(readFileSync(here(`pqid-mldsa-verify/${alg}.json`), 'utf8')) as PqidFile;
  if (f.algorithm !== alg) throw new Error(`${alg}.json holds ${f.algorithm}`);
  return f.vectors.map((v) => ({
    id: v.id,
    valid: v.valid,
    comment: v.comment,
    catches: v.catches ?? [],
    pk: bytes(v.pk),
    msg: bytes(v.msg),
    ctx: bytes(v.ctx),
    sig: bytes(v.sig),
  }));
}

interface WycheproofFile {
  algorithm: string;
  testGroups: {
    publicKey: string;
    tests: { tcId: number; comment: string; msg: string; ctx?: string; sig: string; result: string; flags: string[] }[];
  }[];
}

/**
 * Wycheproof's mldsa_<n>_verify_test.json (gzipped; refused unless its SHA-256 matches
 * wycheproof/SHA256SUMS). A case with an over-long context keeps it: callers must refuse it.
 */
export function wycheproofVectors(alg: MlDsaAlg): VerifyCase[] {
  const name = `mldsa_${alg.slice(-2)}_verify_test.json`;
  const raw = gunzipSync(readFileSync(here(`wycheproof/${name}.gz`)));
  const want = readFileSync(here('wycheproof/SHA256SUMS'), 'utf8')
    .split('\n')
    .find((l) => l.endsWith(`  ${name}`))
    ?.split(' ')[0];
  const got = createHash('sha256').update(raw).digest('hex');
  if (got !== want) throw new Error(`${name}: sha256 ${got} does not match ${want}`);
  const f = JSON.parse(raw.toString('utf8')) as WycheproofFile;
  if (f.algorithm !== alg) throw new Error(`${name} holds ${f.algorithm}`);
  return f.testGroups.flatMap((g) =>
    g.tests.map((t) => ({
      id: `tcId ${t.tcId} (${t.flags.join(', ') || 'no flags'}): ${t.comment}`,
      valid: t.result === 'valid',
      comment: t.comment,
      catches: [],
      pk: bytes(g.publicKey),
      msg: bytes(t.msg),
      ctx: bytes(t.ctx ?? ''),
      sig: bytes(t.sig),
    })),
  );
}
