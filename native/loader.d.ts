export interface Binary {
  source: 'prebuilt' | 'source';
  file: string;
  package?: string;
  version?: string;
}
export declare const REBUILD: string;
export declare function readBuildStatus(dir: string): Record<string, unknown> | undefined;
/** `options.load` replaces `require` (tests only). */
export declare function loadNative(
  dir: string,
  options?: { load?: (file: string) => unknown },
): { addon: unknown; binary: Binary };
