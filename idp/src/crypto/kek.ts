/**
 * The key-encryption key that protects private JWKs at rest (AES-256-GCM). It comes from
 * `PQID_KEK` (base64, 32 bytes), or from a file: `PQID_KEK_FILE`, else `<dataDir>/kek.key`. On a
 * first start without either, one is generated into a 0600 file in the data directory —
 * convenient for a demo, but it sits next to the data it protects, so we warn. If keys exist and
 * no KEK can be found we refuse to start rather than mint new keys that would orphan the old ones.
 *
 * Changing the KEK (`pqid keys rekey`) needs two KEKs at once: the current one, which seals, and
 * the previous ones, which only open what they sealed until everything is re-sealed. They come
 * from `PQID_KEK_PREVIOUS` (comma-separated) or from the KEK file's later lines. Every sealed
 * blob names the KEK that sealed it by a short non-secret id, so opening never guesses.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../errors/index.ts';

export const KEK_FILE = 'kek.key';

export interface Kek {
  /** The current KEK: seals, and opens what it sealed. */
  readonly key: Buffer;
  readonly source: 'env' | 'file' | 'generated';
  /** Earlier KEKs, accepted for opening only (during a `pqid keys rekey`). */
  readonly previous?: readonly Buffer[];
  /** The file it was read from, re-read by running servers (a KEK change without restart). */
  readonly file?: string;
}

/**
 * A KEK's public name: HMAC-SHA256(kek, label), first 8 bytes. It tells which KEK sealed a blob
 * and is safe to store and log (it reveals nothing about the key).
 */
export const kekId = (key: Buffer): string =>
  createHmac('sha256', key).update('pqid key-encryption key id').digest().subarray(0, 8).toString('hex');

function decode(value: string, source: string): Buffer {
  const trimmed = value.trim();
  const buf = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) || buf.length !== 32) {
    throw new ConfigError(
      `${source} must be 32 bytes encoded as base64 (e.g. \`openssl rand -base64 32\`), got ${buf.length} bytes`,
    );
  }
  return buf;
}

/** Base64 KEKs, one per line or comma-separated; blank lines and `#` comments are ignored. */
function decodeList(text: string, source: string): Buffer[] {
  return text
    .split(/[\n,]/)
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter((l) => l !== '')
    .map((l, i) => decode(l, `${source} (entry ${i + 1})`));
}

/** Where the KEK comes from: `PQID_KEK`, `PQID_KEK_FILE`, `PQID_KEK_PREVIOUS` (config/environment.ts). */
export interface KekSources {
  kek?: string | undefined;
  kekFile?: string | undefined;
  kekPrevious?: string | undefined;
}

export interface LoadKekOptions {
  sources: KekSources;
  dataDir: string;
  /** Whether the store already holds encrypted keys (then generating a KEK would be wrong). */
  haveKeys: boolean;
  warn: (message: string) => void;
}

/** The KEK file in use: `PQID_KEK_FILE`, else `<dataDir>/kek.key`. */
export const kekFilePath = (sources: KekSources, dataDir: string): string =>
  sources.kekFile ? resolve(sources.kekFile) : join(dataDir, KEK_FILE);

const previousKeks = (sources: KekSources): Buffer[] =>
  sources.kekPrevious ? decodeList(sources.kekPrevious, 'PQID_KEK_PREVIOUS') : [];

export function loadKek({ sources, dataDir, haveKeys, warn }: LoadKekOptions): Kek {
  const previousEnv = previousKeks(sources);
  if (sources.kek) {
    if (sources.kekFile) throw new ConfigError('set PQID_KEK or PQID_KEK_FILE, not both');
    return withPrevious({ key: decode(sources.kek, 'PQID_KEK'), source: 'env' }, previousEnv);
  }
  const path = kekFilePath(sources, dataDir);
  if (existsSync(path) || sources.kekFile) return readKekFile(path, previousEnv, warn);
  if (haveKeys) {
    throw new ConfigError(
      `signing keys exist but no key-encryption key was found: set PQID_KEK or restore ${path}`,
    );
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  warn(
    `generated a key-encryption key in ${path} (mode 0600). It protects the signing keys but lives beside them: for production set PQID_KEK from a secret store.`,
  );
  return { key, source: 'generated', file: path };
}

/**
 * The KEK file: the first entry is the current KEK, later ones are previous KEKs. Re-read by
 * running servers, so replacing the file (a mounted secret) changes the KEK without a restart.
 */
export function readKekFile(path: string, previousEnv: Buffer[] = [], warn?: (m: string) => void): Kek {
  let text: string;
  try {
    const mode = statSync(path).mode & 0o777;
    if (mode & 0o077) warn?.(`${path} is readable by others (mode ${mode.toString(8)}); chmod 600 it`);
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read the key-encryption key file ${path}: ${(e as Error).message}`);
  }
  const [key, ...previous] = decodeList(text, path);
  if (!key) throw new ConfigError(`${path} holds no key-encryption key`);
  return withPrevious({ key, source: 'file', file: path }, [...previous, ...previousEnv]);
}

/**
 * How a running server re-reads its KEK: the file again (a replaced secret takes effect at the
 * next key reload), nothing for `PQID_KEK` (an environment only changes with a restart).
 */
export function kekReloader(kek: Kek, sources: KekSources): (() => Kek) | undefined {
  const file = kek.file;
  if (!file || kek.source === 'env') return undefined;
  const previousEnv = previousKeks(sources);
  return () => {
    const next = readKekFile(file, previousEnv);
    return next.source === kek.source ? next : { ...next, source: kek.source };
  };
}

function withPrevious(kek: Kek, previous: Buffer[]): Kek {
  const others = previous.filter((p) => !p.equals(kek.key));
  return others.length ? { ...kek, previous: others } : kek;
}

export interface Sealed {
  v: 1;
  alg: 'A256GCM';
  iv: string;
  tag: string;
  ct: string;
  /** kekId of the KEK that sealed it; absent on blobs sealed before KEKs had ids. */
  kek?: string;
}

/** `aad` binds the ciphertext to its record (the kid), so sealed blobs cannot be swapped. */
export function seal(kek: Kek, plaintext: string, aad: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', kek.key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return {
    v: 1,
    alg: 'A256GCM',
    iv: iv.toString('base64url'),
    tag: cipher.getAuthTag().toString('base64url'),
    ct: ct.toString('base64url'),
    kek: kekId(kek.key),
  };
}

export class KekMismatch extends ConfigError {
  constructor(message: string) {
    super(message, {}, 'ERR_KEK_MISMATCH');
  }
}

function decrypt(key: Buffer, sealed: Sealed, aad: string): string | undefined {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.ct, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return undefined;
  }
}

/** The KEKs that may have sealed `sealed`: the one its id names, or (no id) every one we have. */
function candidates(kek: Kek, sealed: Sealed): Buffer[] {
  const all = [kek.key, ...(kek.previous ?? [])];
  return sealed.kek === undefined ? all : all.filter((k) => kekId(k) === sealed.kek);
}

export function open(kek: Kek, sealed: Sealed, aad: string): string {
  for (const key of candidates(kek, sealed)) {
    const plain = decrypt(key, sealed, aad);
    if (plain !== undefined) return plain;
  }
  const which = sealed.kek ? ` (sealed under KEK ${sealed.kek})` : '';
  const have = [kek.key, ...(kek.previous ?? [])].map(kekId).join(', ');
  throw new KekMismatch(
    `cannot decrypt signing key ${aad}${which}: none of the key-encryption keys here (${have}; PQID_KEK or ${KEK_FILE}, and PQID_KEK_PREVIOUS) sealed it`,
  );
}

/** Whether `sealed` is sealed under the current KEK (else `pqid keys rekey` would re-seal it). */
export function sealedUnderCurrent(kek: Kek, sealed: Sealed): boolean {
  return sealed.kek === kekId(kek.key);
}

/** Open under any known KEK and seal again under the current one (`pqid keys rekey`). */
export function reseal(kek: Kek, sealed: Sealed, aad: string): Sealed {
  return seal(kek, open(kek, sealed, aad), aad);
}
