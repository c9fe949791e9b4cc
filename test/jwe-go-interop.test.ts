/**
 * HPKE JWE interop with an independent implementation: Go's standard library crypto/hpke
 * (Go ≥ 1.26), driven by test/interop/go-hpke (standard library only, built here without the
 * network). That program writes the JOSE layer itself from the drafts' text (the identifiers'
 * suites, JWKs and their thumbprints, the JWE AAD, the Key Encryption Recipient_structure, the
 * RFC 7518 content encryption), so pqid's framing is checked, not only its HPKE. For every HPKE
 * identifier both implement (all but the X448 suites HPKE-5/-6, which crypto/hpke lacks), in
 * both Integrated and Key Encryption, one test each:
 * - Go decrypts pqid's compact and flattened (with AAD) JWEs, to keys pqid generated, and
 *   checks their kid is the RFC 7638 thumbprint;
 * - pqid imports Go's keys (their kid is the thumbprint pqid computes) and decrypts Go's JWEs,
 *   on every HPKE backend.
 * Also: the registry and Go's table agree on all 26 identifiers' suites, X448 included; Go
 * refuses tampered JWEs. Skips with the reason when Go 1.26 is missing; fails instead under CI.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  calculateThumbprint,
  contentEncryptionRegistry,
  type DecryptionKey,
  decryptCompact,
  decryptFlattened,
  defaultHpkeBackend,
  encryptCompact,
  encryptFlattened,
  generateEncryptionKeyPair,
  importEncryptionKey,
  type JweAlgorithmEntry,
  type Jwk,
  jweRegistry,
} from '@pqid/jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGoHpke, findGo, runGoHpke } from './helpers/go-hpke.ts';

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
  suites?: Record<string, number[]>;
};

/** What pqid encrypted for Go to decrypt, and what Go answered. */
interface ToGo {
  msg: string;
  compact: Result;
  flattened: Result;
}
/** A key Go generated, and Go's JWEs to it. */
interface FromGo {
  jwk: Jwk;
  jwe: Result;
}

const publicPart = ({ d: _d, priv: _p, ...pub }: Jwk) => pub as Jwk;
const encFor = (e: JweAlgorithmEntry, i: number) =>
  e.mode === 'integrated' ? undefined : (ENCS[i % ENCS.length] as string);

/** pqid encrypts to a fresh pqid key per identifier (compact, and flattened with AAD). */
async function pqidJwes(): Promise<
  { e: JweAlgorithmEntry; privateJwk: Jwk; msg: string; jobs: unknown[] }[]
> {
  return Promise.all(
    SHARED.map(async (e, i) => {
      const { privateJwk, publicJwk } = await generateEncryptionKeyPair(e.alg);
      const pub = await importEncryptionKey(publicJwk);
      const enc = encFor(e, i);
      const msg = `from pqid: ${e.alg}${enc ? ` ${enc}` : ''} ✓`;
      const compact = await encryptCompact(msg, pub, enc ? { enc } : {});
      const flattened = await encryptFlattened(msg, pub, { ...(enc ? { enc } : {}), aad: 'The Fellowship' });
      return {
        e,
        privateJwk,
        msg,
        jobs: [
          { op: 'decrypt', jwk: privateJwk, compact },
          { op: 'decrypt', jwk: privateJwk, flattened },
        ],
      };
    }),
  );
}

describe.skipIf(!go)(`JWE interop with Go crypto/hpke${why ? ` (skipped: ${why})` : ''}`, () => {
  let dir: string;
  let bin: string;
  const runGo = (jobs: unknown[]): Result[] => runGoHpke<Result>(bin, jobs);
  let goSuites: Record<string, number[]>;
  const toGo = new Map<string, ToGo>();
  const fromGo = new Map<string, FromGo>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pqid-go-hpke-'));
    bin = join(dir, 'go-hpke');
    buildGoHpke(go as string, bin);
    goSuites = runGo([{ op: 'suites' }])[0]?.suites ?? {};
    // pqid → Go: one Go run for every identifier.
    const cases = await pqidJwes();
    const decrypted = runGo(cases.flatMap((c) => c.jobs));
    cases.forEach((c, i) => {
      toGo.set(c.e.alg, {
        msg: c.msg,
        compact: decrypted[2 * i] as Result,
        flattened: decrypted[2 * i + 1] as Result,
      });
    });
    // Go → pqid: Go's keys, and Go's JWEs to their public halves.
    const keys = runGo(SHARED.map((e) => ({ op: 'keygen', alg: e.alg })));
    const jwes = runGo(
      SHARED.map((e, i) => {
        const enc = encFor(e, i + 3);
        return {
          op: 'encrypt',
          alg: e.alg,
          ...(enc ? { enc } : {}),
          jwk: keys[i]?.jwk ? publicPart(keys[i].jwk) : {},
          plaintext: b64u(`from Go: ${e.alg}`),
          aad: b64u('The Two Towers'),
        };
      }),
    );
    SHARED.forEach((e, i) => {
      fromGo.set(e.alg, { jwk: keys[i]?.jwk as Jwk, jwe: jwes[i] as Result });
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

  it("the registry and Go's table, written from the drafts, give all 26 HPKE identifiers the same suite", () => {
    const ours = Object.fromEntries(
      jweRegistry()
        .filter((e) => e.family === 'hpke')
        .map((e) => [e.alg, [e.hpke?.kem.id, e.hpke?.kdf.id, e.hpke?.aead.id]]),
    );
    expect(Object.keys(ours)).toHaveLength(26);
    expect(ours).toEqual(goSuites);
  });

  for (const e of SHARED) {
    describe(e.alg, () => {
      it('Go decrypts what pqid encrypts to a pqid key (compact, and flattened with AAD)', () => {
        const c = toGo.get(e.alg) as ToGo;
        for (const r of [c.compact, c.flattened]) {
          expect(r.error).toBeUndefined();
          expect(unb64u(r.plaintext)).toBe(c.msg);
        }
      });

      it("pqid imports Go's key, whose kid is the RFC 7638 thumbprint pqid computes", async () => {
        const { jwk } = fromGo.get(e.alg) as FromGo;
        expect(jwk?.kid).toBeTypeOf('string');
        expect(calculateThumbprint(publicPart(jwk))).toBe(jwk.kid);
        expect(((await importEncryptionKey(jwk)) as DecryptionKey).alg).toBe(e.alg);
      });

      for (const backend of BACKENDS) {
        it(`pqid decrypts what Go encrypts to a Go key (compact, and flattened with AAD; ${backend})`, async () => {
          const { jwk, jwe } = fromGo.get(e.alg) as FromGo;
          expect(jwe.error).toBeUndefined();
          const priv = (await importEncryptionKey(jwk)) as DecryptionKey;
          const opts = { keyManagementAlgorithms: [e.alg], contentEncryptionAlgorithms: ENCS, backend };
          const compact = await decryptCompact(jwe.compact as string, priv, opts);
          expect(Buffer.from(compact.plaintext).toString()).toBe(`from Go: ${e.alg}`);
          const flat = await decryptFlattened(jwe.flattened as Record<string, string>, priv, opts);
          expect(Buffer.from(flat.plaintext).toString()).toBe(`from Go: ${e.alg}`);
          expect(Buffer.from(flat.additionalAuthenticatedData as Uint8Array).toString()).toBe(
            'The Two Towers',
          );
        });
      }
    });
  }

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
