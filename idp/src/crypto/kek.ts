/**
 * The key-encryption key that protects private JWKs at rest (AES-256-GCM). It comes from
 * `PQID_KEK` (base64, 32 bytes); on a first start without it, one is generated into a 0600 file
 * in the data directory — convenient for a demo, but it sits next to the data it protects, so
 * we warn. On later starts the file is reused; if keys exist and no KEK can be found we refuse
 * to start rather than mint new keys that would orphan the old ones.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config.ts';

export const KEK_FILE = 'kek.key';

export interface Kek {
  readonly key: Buffer;
  readonly source: 'env' | 'file' | 'generated';
}

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

export interface LoadKekOptions {
  env: Record<string, string | undefined>;
  dataDir: string;
  /** Whether the store already holds encrypted keys (then generating a KEK would be wrong). */
  haveKeys: boolean;
  warn: (message: string) => void;
}

export function loadKek({ env, dataDir, haveKeys, warn }: LoadKekOptions): Kek {
  if (env.PQID_KEK) return { key: decode(env.PQID_KEK, 'PQID_KEK'), source: 'env' };
  const path = join(dataDir, KEK_FILE);
  if (existsSync(path)) {
    const mode = statSync(path).mode & 0o777;
    if (mode & 0o077) warn(`${path} is readable by others (mode ${mode.toString(8)}); chmod 600 it`);
    return { key: decode(readFileSync(path, 'utf8'), path), source: 'file' };
  }
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
  return { key, source: 'generated' };
}

export interface Sealed {
  v: 1;
  alg: 'A256GCM';
  iv: string;
  tag: string;
  ct: string;
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
  };
}

export class KekMismatch extends ConfigError {
  override name = 'KekMismatch';
}

export function open(kek: Kek, sealed: Sealed, aad: string): string {
  try {
    const decipher = createDecipheriv('aes-256-gcm', kek.key, Buffer.from(sealed.iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.ct, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new KekMismatch(
      `cannot decrypt signing key ${aad}: the key-encryption key (PQID_KEK or ${KEK_FILE}) is not the one that encrypted it`,
    );
  }
}
