// Types of platform.js (internal: used by the install script and the loader, and by tests).
export declare const PACKAGE: '@pqid/liboqs-node';
export declare const BINARY_NAME: 'liboqs-node';
/** `linux-x64-gnu`, `linux-arm64-musl`, `darwin-arm64`, `win32-x64-msvc`, … */
export declare function platformTriple(platform?: NodeJS.Platform, arch?: NodeJS.Architecture): string;
/** The optional dependency that carries the prebuilt addon for this machine. */
export declare function prebuiltPackage(triple?: string): { name: string; file: string };
