/**
 * private_key_jwt client assertions whose ML-DSA signature has exactly one FIPS 204 defect
 * (or is the valid twin at the same boundary), on every ML-DSA backend. The client registers
 * the all-zero-t1 public key of test/vectors/pqid-mldsa-verify/cases.ts; each assertion is
 * signed over its own JWS signing input at test time. Invalid ones must get 401
 * invalid_client, valid ones a token.
 */
import { backends, configure, type Jwk } from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CaseSet, pathCases } from '../../test/vectors/pqid-mldsa-verify/cases.ts';
import { registerClient } from '../src/app.ts';
import { JWT_BEARER } from '../src/oidc/shared/client-auth.ts';
import { form, startTestIdp } from './helpers.ts';

const ISSUER = 'http://localhost:3000';
const TOKEN = `${ISSUER}/token`;
const ALGS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'] as const;
const b64u = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');
const te = new TextEncoder();

describe('private_key_jwt with the ML-DSA verify vectors', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  let app: FastifyInstance;
  const sets = new Map<string, CaseSet>();

  beforeAll(async () => {
    t = await startTestIdp();
    app = t.idp.app;
    for (const alg of ALGS) {
      const set = pathCases(alg);
      sets.set(alg, set);
      for (const [kind, pk] of [
        ['zero-t1', set.zeroT1PublicKey],
        ['ordinary', set.ordinary.publicKey],
      ] as const) {
        await registerClient(t.idp.ctx, {
          client_id: `${alg}-${kind}`,
          redirect_uris: ['https://rp.example/cb'],
          token_endpoint_auth_method: 'private_key_jwt',
          grant_types: ['client_credentials'],
          jwks: { keys: [{ kty: 'AKP', alg, pub: b64u(pk) } as Jwk] },
          token_endpoint_auth_signing_alg: alg,
        });
      }
    }
  });
  afterAll(() => t.close());

  let n = 0;
  const assertion = (alg: string, clientId: string, sign: (m: Uint8Array) => Uint8Array) => {
    const now = Math.floor(Date.now() / 1000);
    const h = b64u(JSON.stringify({ alg, typ: 'JWT' }));
    const p = b64u(
      JSON.stringify({ iss: clientId, sub: clientId, aud: TOKEN, iat: now, exp: now + 60, jti: `v-${++n}` }),
    );
    return `${h}.${p}.${b64u(sign(te.encode(`${h}.${p}`)))}`;
  };

  for (const b of backends().filter((x) => x.available)) {
    describe(`backend ${b.name}`, () => {
      for (const alg of ALGS) {
        it(`${alg}: every class gets the verdict FIPS 204 gives`, async () => {
          const prev = configure({ backend: b.name });
          try {
            const got: Record<string, number> = {};
            const want: Record<string, number> = {};
            for (const c of (sets.get(alg) as CaseSet).cases) {
              const r = await app.inject({
                method: 'POST',
                url: '/token',
                ...form({
                  grant_type: 'client_credentials',
                  client_assertion_type: JWT_BEARER,
                  client_assertion: assertion(alg, `${alg}-${c.key}`, (m) => c.sign(m)),
                }),
              });
              got[c.id] = r.statusCode;
              want[c.id] = c.valid ? 200 : 401;
              if (!c.valid) expect(r.json().error, c.id).toBe('invalid_client');
            }
            expect(got).toEqual(want);
          } finally {
            configure(prev);
          }
        });
      }
    });
  }
});
