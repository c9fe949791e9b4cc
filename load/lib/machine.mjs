/** The machine a run measures on, as every report prints it: CPU model and the flags that pick code paths. */

import os from 'node:os';
import { cpuFlags, cpuModel } from '@pqid/idp/machine';

// One definition of the CPU model and flags for the load reports and `pqid token-fit`.
export { cpuFlags };

/** @returns {import('./types.d.ts').Machine} */
export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: cpuModel(),
    cpuFlags: cpuFlags(),
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    loadavgAtStart: os.loadavg(),
    kernel: os.release(),
    node: process.version,
    openssl: process.versions.openssl,
  };
}
