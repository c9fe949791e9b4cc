/**
 * Interoperability with independent implementations:
 * - the `jose` npm package (v6; ML-DSA via WebCrypto `kty: "AKP"` where the runtime has it),
 * - node:crypto directly (OpenSSL 3.5 ML-DSA),
 * - and our own backends against each other (native / node / noble, whichever are available).
 * Keys, messages and contexts are random per run: nothing here compares against stored outputs.
 */
import crypto from 'node:crypto';
import {
  algorithms,
  type CompositeMode,
  calculateThumbprint,
  configure,
  generateKeyPair,
  importJWK,
  type Jwk,
  MLDSA_PARAMS,
  type MlDsaAlg,
  mldsa,
  type PrivateKey,
  registry,
  signCompact,
  signJwt,
  verifyCompact,
  verifyJwt,
} from '@pqid/jose';
import * as jose from 'jose';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { getBackend } from '../src/backends/select.ts';
import { availableBackends, flipByte, onBackend, rejectsWithCode, rndBackends } from './helpers/backends.ts';
import { b64uToBytes, bytesToB64u, toHex } from './helpers/vectors.ts';

const usable = new Set(algorithms());
const entries = registry().filter((e) => usable.has(e.alg));
const MLDSA = entries.filter((e) => e.family === 'ml-dsa').map((e) => e.alg as MlDsaAlg);
const CLASSICAL = entries.filter((e) => e.family === 'classical').map((e) => e.alg);
const COMPOSITE = entries.filter((e) => e.family === 'composite').map((e) => e.alg);
const avail = availableBackends();
const rnd = rndBackends();

/** Which algs the installed jose can generate keys for on this runtime (ML-DSA needs WebCrypto support). */
const joseCan = new Map<string, string | undefined>();
for (const alg of [...MLDSA, ...CLASSICAL]) {
  try {
    await jose.generateKeyPair(alg, { extractable: true });
    joseCan.set(alg, undefined);
  } catch (e) {
    joseCan.set(alg, (e as Error).message);
  }
}
/** Whether node:crypto imports AKP JWKs (OpenSSL ML-DSA). */
let nodeAkp: string | undefined;
try {
  const { publicJwk } = await generateKeyPair('ML-DSA-44');
  crypto.createPublicKey({ key: publicJwk as crypto.JsonWebKey, format: 'jwk' });
} catch (e) {
  nodeAkp = (e as Error).message;
}

const counts: Record<string, number> = {};
const bump = (k: string) => {
  counts[k] = (counts[k] ?? 0) + 1;
};
afterAll(() => {
  console.log(
    `interop: jose unsupported here: ${JSON.stringify([...joseCan].filter(([, why]) => why).map(([a]) => a))}; ` +
      `node:crypto AKP JWK: ${nodeAkp ? `no (${nodeAkp})` : 'yes'}; backends: ${avail.map((b) => b.name).join(', ')}`,
  );
  console.log(`interop counts: ${JSON.stringify(counts)}`);
});

const CLAIMS = { sub: 'alice', scope: 'openid profile', nested: { a: [1, 2, 3] } };
const ISS = 'https://idp.example';
const AUD = 'rp-1';

describe('jose (npm) ⇄ @pqid/jose', () => {
  it('the registry has the algorithms this file is about', () => {
    expect(MLDSA.length).toBe(3);
    expect(CLASSICAL.length).toBeGreaterThan(0);
  });

  describe.each(MLDSA.map((a) => [a] as const))('%s', (alg) => {
    it.runIf(!joseCan.get(alg))('jose jwtVerify verifies our JWT (one per available backend)', async () => {
      const { privateJwk, publicJwk } = await generateKeyPair(alg);
      const key = (await importJWK(privateJwk)) as PrivateKey;
      const joseKey = await jose.importJWK(publicJwk as jose.JWK, alg);
      for (const b of avail) {
        const token = await signJwt(CLAIMS, key, {
          issuer: ISS,
          audience: AUD,
          expiresIn: '5m',
          backend: b.name,
        });
        const { payload, protectedHeader } = await jose.jwtVerify(token, joseKey, {
          algorithms: [alg],
          issuer: ISS,
          audience: AUD,
        });
        expect(protectedHeader).toEqual({ alg, kid: publicJwk.kid, typ: 'JWT' });
        expect(payload).toMatchObject(CLAIMS);
        // jose must reject a corrupted signature from us too (the check above is not vacuous).
        const [h, p, s] = token.split('.') as [string, string, string];
        await expect(
          jose.jwtVerify(`${h}.${p}.${bytesToB64u(flipByte(b64uToBytes(s), 3))}`, joseKey, {
            algorithms: [alg],
          }),
        ).rejects.toThrow();
        bump(`jose verified our ${alg} [${b.name}]`);
      }
    });

    it.runIf(!joseCan.get(alg))('jose and we agree on the AKP thumbprint', async () => {
      const { publicJwk } = await generateKeyPair(alg);
      expect(await jose.calculateJwkThumbprint(publicJwk as jose.JWK)).toBe(publicJwk.kid);
      expect(calculateThumbprint(publicJwk)).toBe(publicJwk.kid);
      const j = await jose.generateKeyPair(alg, { extractable: true });
      const jwk = await jose.exportJWK(j.publicKey);
      const { kid: _k, ...noKid } = jwk as Jwk;
      expect((await importJWK(noKid)).kid).toBe(await jose.calculateJwkThumbprint(jwk));
    });

    it.runIf(!joseCan.get(alg))(
      'jose private AKP JWK (seed) imports here and derives the same public key',
      async () => {
        const j = await jose.generateKeyPair(alg, { extractable: true });
        const priv = await jose.exportJWK(j.privateKey);
        const pub = await jose.exportJWK(j.publicKey);
        const key = (await importJWK(priv)) as PrivateKey;
        expect(key.publicKey.jwk.pub).toBe(pub.pub);
        const token = await signJwt(CLAIMS, key, { issuer: ISS });
        await jose.jwtVerify(token, j.publicKey, { algorithms: [alg], issuer: ISS });
      },
    );
  });

  describe.each([...MLDSA, ...CLASSICAL].map((a) => [a] as const))(
    'jose SignJWT %s → our verifyJwt',
    (alg) => {
      it.runIf(!joseCan.get(alg))('verifies, checks claims, rejects tampering', async () => {
        const { privateKey, publicKey } = await jose.generateKeyPair(alg, { extractable: true });
        const jwk = { ...(await jose.exportJWK(publicKey)), alg } as Jwk;
        const token = await new jose.SignJWT(CLAIMS)
          .setProtectedHeader({ alg, typ: 'JWT' })
          .setIssuer(ISS)
          .setAudience(AUD)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(privateKey);
        const ours = await importJWK(jwk);
        for (const b of avail) {
          const { result } = await onBackend(b.name, () =>
            verifyJwt(token, ours, { algorithms: [alg], issuer: ISS, audience: AUD, typ: 'JWT' }),
          );
          expect(result.claims).toMatchObject({ ...CLAIMS, iss: ISS, aud: AUD });
          if (entries.find((e) => e.alg === alg)?.family === 'classical') break; // backend-independent
        }
        await rejectsWithCode(
          verifyJwt(token, ours, { algorithms: [alg], issuer: 'https://other.example' }),
          'ERR_JWT_CLAIM_VALIDATION_FAILED',
        );
        const [h, p, s] = token.split('.') as [string, string, string];
        await rejectsWithCode(
          verifyJwt(`${h}.${p}.${bytesToB64u(flipByte(b64uToBytes(s), 5))}`, ours, { algorithms: [alg] }),
          'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
        );
        bump(`we verified jose ${alg}`);
      });
    },
  );

  it.each(entries.map((e) => [e.alg] as const))(
    '%s: jose.calculateJwkThumbprint equals ours (and the generated kid)',
    async (alg) => {
      const { publicJwk } = await generateKeyPair(alg);
      const ours = calculateThumbprint(publicJwk);
      expect(ours).toBe(publicJwk.kid);
      expect(await jose.calculateJwkThumbprint(publicJwk as jose.JWK)).toBe(ours);
    },
  );
});

describe.runIf(!nodeAkp)(
  'node:crypto (OpenSSL) verifies our ML-DSA tokens and we verify its signatures',
  () => {
    describe.each(MLDSA.map((a) => [a] as const))('%s', (alg) => {
      it('crypto.verify(null, signingInput, createPublicKey(jwk), sig) on a token from every backend', async () => {
        const { privateJwk, publicJwk } = await generateKeyPair(alg);
        const key = (await importJWK(privateJwk)) as PrivateKey;
        const pub = crypto.createPublicKey({ key: publicJwk as crypto.JsonWebKey, format: 'jwk' });
        expect(pub.asymmetricKeyType).toBe(alg.toLowerCase());
        for (const b of avail) {
          const token = await signJwt(CLAIMS, key, { backend: b.name });
          const [h, p, s] = token.split('.') as [string, string, string];
          const input = Buffer.from(`${h}.${p}`, 'ascii');
          expect(crypto.verify(null, input, pub, b64uToBytes(s)), b.name).toBe(true);
          expect(crypto.verify(null, Buffer.concat([input, Buffer.from('x')]), pub, b64uToBytes(s))).toBe(
            false,
          );
          bump(`OpenSSL verified our ${alg} [${b.name}]`);
        }
      });

      it('a JWS signed by crypto.sign with the private AKP JWK verifies here on every backend', async () => {
        const { privateJwk, publicJwk } = await generateKeyPair(alg);
        const priv = crypto.createPrivateKey({ key: privateJwk as crypto.JsonWebKey, format: 'jwk' });
        const h = bytesToB64u(new TextEncoder().encode(JSON.stringify({ alg, typ: 'JWT' })));
        const p = bytesToB64u(new TextEncoder().encode(JSON.stringify(CLAIMS)));
        const sig = crypto.sign(null, Buffer.from(`${h}.${p}`), priv);
        expect(sig.length).toBe(MLDSA_PARAMS[alg].signature);
        const token = `${h}.${p}.${bytesToB64u(sig)}`;
        const pub = await importJWK(publicJwk);
        for (const b of avail) {
          const { result, verifyCalls } = await onBackend(b.name, () =>
            verifyJwt(token, pub, { algorithms: [alg] }),
          );
          expect(verifyCalls).toBe(1);
          expect(result.claims).toEqual(CLAIMS);
          bump(`we verified OpenSSL ${alg} [${b.name}]`);
        }
      });
    });
  },
);

describe('cross-backend', () => {
  it('backends in use', () => {
    console.log(
      `cross-backend: available ${avail.map((b) => b.name).join(', ')}; byte-exact capable ${rnd.map((b) => b.name).join(', ')}`,
    );
    expect(avail.length).toBeGreaterThan(0);
  });

  describe.each(MLDSA.map((a) => [a] as const))('%s', (alg) => {
    it('keygen from a random seed gives the same public key on every backend', async () => {
      const seed = crypto.getRandomValues(new Uint8Array(32));
      const pks = await Promise.all(
        avail.map(async (b) => toHex((await mldsa.keygen(alg, seed, { backend: b.name })).publicKey)),
      );
      expect(new Set(pks).size).toBe(1);
    });

    it.runIf(rnd.length >= 2)(
      'deterministic signatures are byte-identical on every rnd-capable backend (raw, with context, and JWS)',
      async () => {
        const seed = crypto.getRandomValues(new Uint8Array(32));
        const msg = crypto.getRandomValues(new Uint8Array(1 + (seed[0] as number)));
        const context = crypto.getRandomValues(new Uint8Array((seed[1] as number) % 256));
        const raw = await Promise.all(
          rnd.map(async (b) =>
            toHex(await mldsa.sign(alg, seed, msg, { deterministic: true, context, backend: b.name })),
          ),
        );
        expect(new Set(raw).size).toBe(1);
        const fixedRnd = crypto.getRandomValues(new Uint8Array(32));
        const withRnd = await Promise.all(
          rnd.map(async (b) => toHex(await mldsa.sign(alg, seed, msg, { rnd: fixedRnd, backend: b.name }))),
        );
        expect(new Set(withRnd).size).toBe(1);
        expect(withRnd[0]).not.toBe(raw[0]);
        const { privateJwk } = await generateKeyPair(alg, { seed });
        const key = (await importJWK(privateJwk)) as PrivateKey;
        const jws = await Promise.all(
          rnd.map((b) => signCompact(msg, key, { deterministic: true, backend: b.name })),
        );
        expect(new Set(jws).size).toBe(1);
        bump(`deterministic identical across ${rnd.length} backends`);
      },
    );

    it('a hedged signature from each backend verifies on every other backend (and differs per call)', async () => {
      const seed = crypto.getRandomValues(new Uint8Array(32));
      const { publicKey } = await mldsa.keygen(alg, seed);
      const msg = crypto.getRandomValues(new Uint8Array(77));
      const context = new TextEncoder().encode('pqid cross-backend');
      for (const signer of avail) {
        const a = await mldsa.sign(alg, seed, msg, { context, backend: signer.name });
        const b = await mldsa.sign(alg, seed, msg, { context, backend: signer.name });
        expect(toHex(a), `${signer.name} hedged signatures repeat`).not.toBe(toHex(b));
        for (const verifier of avail) {
          expect(
            await mldsa.verify(alg, publicKey, msg, a, { context, backend: verifier.name }),
            `${signer.name}→${verifier.name}`,
          ).toBe(true);
          expect(
            await mldsa.verify(alg, publicKey, msg, a, { backend: verifier.name }),
            `${signer.name}→${verifier.name} no ctx`,
          ).toBe(false);
          bump(`hedged ${signer.name}→${verifier.name}`);
        }
      }
    });
  });

  describe.each(COMPOSITE.map((a) => [a] as const))('%s', (alg) => {
    it('hedged JWS from each backend verifies on every backend; deterministic ML-DSA halves (EdDSA: whole signatures) are identical', async () => {
      const { privateJwk, publicJwk } = await generateKeyPair(alg);
      const key = (await importJWK(privateJwk)) as PrivateKey;
      const pub = await importJWK(publicJwk);
      for (const signer of avail) {
        const token = await signCompact('composite cross-backend', key, { backend: signer.name });
        for (const verifier of avail) {
          const { verifyCalls } = await onBackend(verifier.name, () =>
            verifyCompact(token, pub, { algorithms: [alg] }),
          );
          expect(verifyCalls).toBe(1);
        }
      }
      if (rnd.length >= 2) {
        const sigLen = MLDSA_PARAMS[`ML-DSA-${alg.slice(7, 9)}` as MlDsaAlg].signature;
        // The native backend signs whole composites in Rust, the others split them (ML-DSA half on
        // the backend, traditional half through node:crypto): EdDSA is deterministic, so with
        // deterministic ML-DSA the two paths must agree byte for byte.
        const whole = alg.includes('Ed');
        const halves = await Promise.all(
          rnd.map(async (b) =>
            toHex(
              b64uToBytes(
                (await signCompact('x', key, { deterministic: true, backend: b.name })).split(
                  '.',
                )[2] as string,
              ).subarray(0, whole ? undefined : sigLen),
            ),
          ),
        );
        expect(new Set(halves).size).toBe(1);
      }
      bump(`composite cross-backend ${alg}`);
    });

    it.runIf(avail.some((b) => b.name === 'native'))(
      "native whole (compositeMode 'whole') and split ('split') verify each other; deterministic EdDSA bytes agree",
      async () => {
        const { privateJwk, publicJwk } = await generateKeyPair(alg);
        const key = (await importJWK(privateJwk)) as PrivateKey;
        const pub = await importJWK(publicJwk);
        const mode =
          (m: 'whole' | 'split') =>
          async <T>(fn: () => Promise<T>) => {
            const prev = configure({ compositeMode: m });
            try {
              return await fn();
            } finally {
              configure(prev);
            }
          };
        const [whole, split] = [mode('whole'), mode('split')];
        const w = await onBackend('native', () =>
          whole(() => signCompact('paths', key, { deterministic: true })),
        );
        const parts = await onBackend('native', () =>
          split(() => signCompact('paths', key, { deterministic: true })),
        );
        // The split path reaches the backend for the ML-DSA half only; the whole path for both.
        expect([w.signCalls, parts.signCalls]).toEqual([1, 1]);
        for (const token of [w.result, parts.result]) {
          await onBackend('native', () => whole(() => verifyCompact(token, pub, { algorithms: [alg] })));
          await onBackend('native', () => split(() => verifyCompact(token, pub, { algorithms: [alg] })));
          // and the default path, whichever it is for this algorithm
          await onBackend('native', () => verifyCompact(token, pub, { algorithms: [alg] }));
        }
        if (alg.includes('Ed')) expect(w.result).toBe(parts.result);
        bump(`composite native whole/split ${alg}`);
      },
    );

    it.runIf(avail.some((b) => b.name === 'native'))(
      'native takes the path that costs less CPU per token by default: split for Ed448, whole otherwise',
      async () => {
        const { privateJwk } = await generateKeyPair(alg);
        const key = (await importJWK(privateJwk)) as PrivateKey;
        const b = getBackend('native');
        const ops = b.composite as NonNullable<typeof b.composite>;
        /** Which native entry points one signature reaches under configure({ compositeMode }). */
        const path = async (compositeMode: CompositeMode | undefined) => {
          const spies = [vi.spyOn(ops, 'sign'), vi.spyOn(b, 'sign')];
          const prev = configure({ compositeMode });
          try {
            await signCompact('path', key, { backend: 'native' });
            const [whole, mldsaHalf] = spies.map((x) => x.mock.calls.length);
            return whole === 1 && mldsaHalf === 0 ? 'whole' : whole === 0 && mldsaHalf === 1 ? 'split' : '?';
          } finally {
            configure(prev);
            for (const x of spies) x.mockRestore();
          }
        };
        expect(await path(undefined)).toBe(alg.endsWith('Ed448') ? 'split' : 'whole');
        expect(await path('auto')).toBe(alg.endsWith('Ed448') ? 'split' : 'whole');
        expect(await path('whole')).toBe('whole');
        expect(await path('split')).toBe('split');
      },
    );
  });
});
