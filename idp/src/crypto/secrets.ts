/**
 * Secret hashing, random identifiers, and token digests. Passwords and any secret a person chose
 * get scrypt; client secrets we generate (256 random bits) get SHA-256, like access tokens:
 * brute force cannot reach them, and scrypt on every token request would cost ~40 ms of CPU,
 * a hundred times the ML-DSA signature the request exists for.
 */
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 32;

function scryptAsync(secret: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret.normalize('NFKC'), salt, KEYLEN, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`, parameters stored so they can be raised later. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(secret, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

// Verifying against this when the account does not exist keeps timing the same either way.
const DUMMY = `scrypt$${N}$${R}$${P}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEYLEN).toString('base64url')}`;

/** `sha256$digest`, only for secrets from randomToken(32): no salt or work factor needed. */
export const hashGeneratedSecret = (secret: string): string =>
  `sha256$${createHash('sha256').update(secret).digest('base64url')}`;

export async function verifySecret(secret: string, encoded: string | undefined): Promise<boolean> {
  if (encoded?.startsWith('sha256$')) return safeEqual(hashGeneratedSecret(secret), encoded);
  const parts = (encoded ?? DUMMY).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return encoded !== undefined && actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * CSPRNG bytes for handles, drawn from a pool filled 4 KiB at a time (as node:crypto's
 * randomUUID does): a token response needs two or three handles, and each randomBytes call
 * takes OpenSSL's DRBG lock, which the signing threads take too. Bytes handed out are zeroed in
 * the pool, so none is used twice.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;
function poolBytes(n: number): string {
  if (n > 256) return randomBytes(n).toString('base64url');
  if (used + n > pool.length) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  const out = pool.subarray(used, used + n);
  used += n;
  const s = out.toString('base64url');
  out.fill(0);
  return s;
}

/** An unguessable handle (256 bits). */
export const randomToken = (bytes = 32): string => poolBytes(bytes);

/** Tokens are stored under their digest, so a database leak yields no usable token. */
export const tokenId = (token: string): string => createHash('sha256').update(token).digest('base64url');

/** Constant-time string comparison (CSRF tokens). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** RFC 7636 S256: BASE64URL(SHA256(ASCII(code_verifier))). */
export const s256 = (verifier: string): string =>
  createHash('sha256').update(verifier, 'ascii').digest('base64url');
