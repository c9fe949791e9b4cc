/** The AArch64 cross compiler (PQID_AARCH64_CC, default aarch64-linux-gnu-gcc). */
export declare const CC: string;
export interface Unit {
  name: string;
  files: string[];
  includes: string[];
  defines: string[];
  flags: string[];
}
/** The units of csrc/units.txt for a target, parsed as build.rs parses them. */
export declare function units(target?: { arch: string; os: string }): Unit[];
/** The NEON routines the driver counts: the function each vendored .S file defines. */
export declare function neonRoutines(): string[];
/** Compiles and links the driver; returns the executable's path. */
export declare function crossBuild(outDir?: string): string;
