/**
 * HPKE JWE interop with an independent implementation: Go's standard library crypto/hpke
 * (Go ≥ 1.26), driven by test/interop/go-hpke (standard library only, built here without the
 * network). For every HPKE identifier both implement (all but the X448 suites HPKE-5/-6, which
 * crypto/hpke lacks), in both Integrated and Key Encryption:
 * - Go decrypts pqid's compact and flattened JWEs, to keys pqid generated;
 * - pqid decrypts Go's JWEs, to keys Go generated, on both HPKE backends;
 * - Go decrypts the drafts' published vectors, and refuses tampered JWEs.
 * Skips with the reason when Go 1.26 is missing; fails instead under CI.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  contentEncryptionRegistry,
  type DecryptionKey,
  decryptCompact,
  decryptFlattened,
  defaultHpkeBackend,
  encryptCompact,
  encryptFlattened,
  generateEncryptionKeyPair,
  importEncryptionKey,
  type Jwk,
  jweRegistry,
} from '@pqid/jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const SRC = here('./interop/go-hpke');

/** The go binary on PATH or in the usual install places, and why it cannot be used if so. */
function findGo(): { go?: string; why?: string } {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/local/go/bin', '/usr/lib/go/bin'];
  const go = dirs
    .filter((d) => d.startsWith('/'))
    .map((d) => join(d, 'go'))
    .find((p) => existsSync(p));
  if (!go) return { why: 'Go is not installed (crypto/hpke needs Go >= 1.26)' };
  const v = spawnSync(go, ['version'], { encoding: 'utf8', env: { ...process.env, GOTOOLCHAIN: 'local' } });
  const m = /go(\d+)\.(\d+)/.exec(v.stdout ?? '');
  if (!m || Number(m[1]) < 1 || (Number(m[1]) === 1 && Number(m[2]) < 26))
    return { why: `crypto/hpke needs Go >= 1.26, found ${(v.stdout || v.stderr || '?').trim()}` };
  return { go };
}

const { go, why } = findGo();
if (!go && process.env.CI) throw new Error(`CI must run the Go interop test: ${why}`);

const ENCS = contentEncryptionRegistry().map((e) => e.enc);
/** HPKE identifiers Go's crypto/hpke implements: every KEM but X448 (0x0021). */
const SHARED = jweRegistry().filter((e) => e.family === 'hpke' && e.hpke?.kem.id !== 0x0021);
const BACKENDS = defaultHpkeBackend() === 'node' ? (['node', 'noble'] as const) : (['noble'] as const);
const b64u = (s: string) => Buffer.from(s).toString('base64url');
const unb64u = (s: unknown) => Buffer.from(s as string, 'base64url').toString();

type Result = {
  error?: string;
  jwk?: Jwk;
  plaintext?: string;
  compact?: string;
  flattened?: Record<string, string>;
};

describe.skipIf(!go)(`JWE interop with Go crypto/hpke${why ? ` (skipped: ${why})` : ''}`, () => {
  let dir: string;
  let bin: string;
  const runGo = (jobs: unknown[]): Result[] => {
    const out = execFileSync(bin, [], { input: JSON.stringify({ jobs }), maxBuffer: 64 << 20 });
    const { results } = JSON.parse(out.toString()) as { results: Result[] };
    expect(results).toHaveLength(jobs.length);
    return results;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pqid-go-hpke-'));
    bin = join(dir, 'go-hpke');
    // Standard library only: no toolchain download, no module proxy.
    execFileSync(go as string, ['build', '-o', bin, '.'], {
      cwd: SRC,
      env: {
        ...process.env,
        GOTOOLCHAIN: 'local',
        GOPROXY: 'off',
        GOFLAGS: '-buildvcs=false',
        GOWORK: 'off',
      },
      stdio: 'pipe',
    });
  }, 300_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('covers X-Wing, ML-KEM-768+P-256, ML-KEM-1024+P-384, ML-KEM-768 and the classical DHKEMs, in both modes', () => {
    const algs = SHARED.map((e) => e.alg);
    for (const a of ['HPKE-9', 'HPKE-8', 'HPKE-10', 'HPKE-12', 'HPKE-13', 'HPKE-0', 'HPKE-3', 'HPKE-7'])
      expect(algs).toEqual(expect.arrayContaining([a, `${a}-KE`]));
  });

  it('Go decrypts what pqid encrypts, to pqid-generated keys (compact and flattened with AAD)', async () => {
    const cases = await Promise.all(
      SHARED.map(async (e, i) => {
        const { privateJwk, publicJwk } = await generateEncryptionKeyPair(e.alg);
        const pub = await importEncryptionKey(publicJwk);
        const enc = e.mode === 'integrated' ? undefined : ENCS[i % ENCS.length];
        const msg = `from pqid: ${e.alg}${enc ? ` ${enc}` : ''} ✓`;
        const compact = await encryptCompact(msg, pub, enc ? { enc } : {});
        const flattened = await encryptFlattened(msg, pub, {
          ...(enc ? { enc } : {}),
          aad: 'The Fellowship',
        });
        return { e, privateJwk, msg, compact, flattened };
      }),
    );
    const results = runGo(
      cases.flatMap((c) => [
        { op: 'decrypt', jwk: c.privateJwk, compact: c.compact },
        { op: 'decrypt', jwk: c.privateJwk, flattened: c.flattened },
      ]),
    );
    cases.forEach((c, i) => {
      for (const r of [results[2 * i], results[2 * i + 1]]) {
        expect(r?.error, c.e.alg).toBeUndefined();
        expect(unb64u(r?.plaintext), c.e.alg).toBe(c.msg);
      }
    });
  });

  it('pqid decrypts what Go encrypts, to Go-generated keys, on every HPKE backend', async () => {
    const keys = runGo(SHARED.map((e) => ({ op: 'keygen', alg: e.alg })));
    const privs = await Promise.all(
      keys.map(async (k, i) => {
        expect(k.error, SHARED[i]?.alg).toBeUndefined();
        return (await importEncryptionKey(k.jwk)) as DecryptionKey;
      }),
    );
    const jobs = SHARED.map((e, i) => ({
      op: 'encrypt',
      alg: e.alg,
      ...(e.mode === 'integrated' ? {} : { enc: ENCS[(i + 3) % ENCS.length] }),
      jwk: (privs[i] as DecryptionKey).publicKey.jwk,
      plaintext: b64u(`from Go: ${e.alg}`),
      aad: b64u('The Two Towers'),
    }));
    const jwes = runGo(jobs);
    for (const [i, e] of SHARED.entries()) {
      const r = jwes[i] as Result;
      expect(r.error, e.alg).toBeUndefined();
      for (const backend of BACKENDS) {
        const opts = { keyManagementAlgorithms: [e.alg], contentEncryptionAlgorithms: ENCS, backend };
        const priv = privs[i] as DecryptionKey;
        expect(Buffer.from((await decryptCompact(r.compact, priv, opts)).plaintext).toString()).toBe(
          `from Go: ${e.alg}`,
        );
        const flat = await decryptFlattened(r.flattened, priv, opts);
        expect(Buffer.from(flat.plaintext).toString()).toBe(`from Go: ${e.alg}`);
        expect(Buffer.from(flat.additionalAuthenticatedData as Uint8Array).toString()).toBe('The Two Towers');
      }
    }
  });

  it('Go decrypts the drafts’ published vectors (an independent check of the vectors)', () => {
    const vectors = ['draft-ietf-jose-hpke-encrypt-20.json', 'draft-ietf-jose-hpke-pq-pqt-00.json'].flatMap(
      (f) =>
        JSON.parse(readFileSync(here(`./vectors/jose-hpke/${f}`), 'utf8')) as {
          alg: string;
          jwk: Jwk;
          compact: string;
          flattened: Record<string, string>;
        }[],
    );
    const shared = vectors.filter((v) => SHARED.some((e) => e.alg === v.alg));
    expect(shared.length).toBe(SHARED.length);
    const results = runGo(
      shared.flatMap((v) => [
        { op: 'decrypt', jwk: v.jwk, compact: v.compact },
        { op: 'decrypt', jwk: v.jwk, flattened: v.flattened },
      ]),
    );
    for (const r of results) {
      expect(r.error).toBeUndefined();
      expect(unb64u(r.plaintext)).toMatch(/^You can trust us to stick with you/);
    }
  });

  it('Go refuses pqid JWEs whose ciphertext, encapsulated secret or header was altered', async () => {
    const jobs: unknown[] = [];
    for (const alg of ['HPKE-9', 'HPKE-9-KE', 'HPKE-12-KE', 'HPKE-0']) {
      const { privateJwk, publicJwk } = await generateEncryptionKeyPair(alg);
      const jwe = await encryptCompact(
        'x',
        await importEncryptionKey(publicJwk),
        alg.endsWith('-KE') ? { enc: 'A256GCM' } : {},
      );
      const p = jwe.split('.');
      const h = JSON.parse(unb64u(p[0]));
      const flipped = (s: string) => {
        const b = Buffer.from(s, 'base64url');
        b[b.length >> 1] = (b[b.length >> 1] as number) ^ 1;
        return b.toString('base64url');
      };
      const alter = (i: number, v: string) => p.map((s, j) => (j === i ? v : s)).join('.');
      jobs.push({ op: 'decrypt', jwk: privateJwk, compact: alter(3, flipped(p[3] as string)) });
      jobs.push({
        op: 'decrypt',
        jwk: privateJwk,
        compact: alter(0, b64u(JSON.stringify({ ...h, typ: 'JWT' }))),
      });
      if (h.ek)
        jobs.push({
          op: 'decrypt',
          jwk: privateJwk,
          compact: alter(0, b64u(JSON.stringify({ ...h, ek: flipped(h.ek) }))),
        });
      else jobs.push({ op: 'decrypt', jwk: privateJwk, compact: alter(1, flipped(p[1] as string)) });
    }
    for (const r of runGo(jobs)) {
      expect(r.plaintext).toBeUndefined();
      expect(r.error).toBeTypeOf('string');
    }
  });
});
