/**
 * A sealed composite key signs the way the same key signs outside the key manager: whole, in
 * one native task, where the backend does. The key manager keeps every key
 * behind the signer interface, and a composite there once signed as two delegated
 * halves, the traditional one through node:crypto on the event loop. A composite whose halves
 * are in a KMS still signs as two delegated halves. Counted with `mldsa.stats().compositeSigns`;
 * tokens are checked by the verifier too.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  algorithms,
  createLocalJWKSet,
  generateKeyPair,
  getAlgorithm,
  importJWK,
  mldsa,
  type PrivateKey,
  signJwt,
  verifyJwt,
} from '@pqid/jose';
import { afterAll, describe, expect, it } from 'vitest';
import type { Kek } from '../src/crypto/kek.ts';
import { KeyManager } from '../src/keys/key-manager.ts';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import { startTestIdp, tempDir } from './helpers.ts';

const COMPOSITES = algorithms().filter((alg) => getAlgorithm(alg).family === 'composite');
const kek: Kek = { key: randomBytes(32), source: 'env' };
const ROUNDS = 4;

const counts = () => mldsa.stats().compositeSigns;
/** How `sign` spread over the paths while it ran. */
async function pathsOf(sign: () => Promise<unknown>) {
  const before = counts();
  await sign();
  const after = counts();
  return {
    whole: after.whole - before.whole,
    split: after.split - before.split,
    delegated: after.delegated - before.delegated,
  };
}

const claims = { iss: 'https://idp.example', sub: 'c', aud: 'api' };
const signMany = (key: PrivateKey) => async () => {
  for (let i = 0; i < ROUNDS; i++) await signJwt({ ...claims, n: i }, key, { expiresIn: 60 });
};

describe('sealed composite keys sign as the plain key does', () => {
  const stores: SqliteStorage[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  it('has composites to check', () => {
    expect(COMPOSITES.length).toBeGreaterThanOrEqual(5);
  });

  it.each(COMPOSITES)('%s: generated and re-opened keys never sign as delegated halves', async (alg) => {
    // The path the library takes for a plain local key of this algorithm (whole natively,
    // split for the ones the backend leaves split, e.g. Ed448, or on a JS backend).
    const { privateJwk } = await generateKeyPair(alg);
    const plain = await pathsOf(signMany((await importJWK(privateJwk)) as PrivateKey));
    expect(plain.delegated).toBe(0);
    expect(plain.whole + plain.split).toBe(ROUNDS);

    const storage = new SqliteStorage(':memory:');
    stores.push(storage);
    const generated = new KeyManager(storage.adapter('SigningKey'), kek);
    const key = await generated.signingKey(alg);
    expect(key.delegated).toBe(true); // still behind the signer interface
    expect(await pathsOf(signMany(key))).toEqual(plain);

    // The same record opened by another manager (a restart): the sealed custody's signer.
    const reopened = new KeyManager(storage.adapter('SigningKey'), kek);
    await reopened.load();
    const again = await reopened.signingKey(alg);
    expect(again.kid).toBe(key.kid);
    let token = '';
    expect(
      await pathsOf(async () => {
        token = await signJwt(claims, again, { expiresIn: 60 });
      }),
    ).toEqual({ whole: plain.whole && 1, split: plain.split && 1, delegated: 0 });
    await expect(
      verifyJwt(token, await createLocalJWKSet(reopened.jwks()), { algorithms: [alg] }),
    ).resolves.toBeTruthy();
  });

  it('natively, ML-DSA-65-ES256 from the key manager is one native task per signature', async (ctx) => {
    if (mldsa.preferredBackend() !== 'native') return ctx.skip('no native backend here');
    const storage = new SqliteStorage(':memory:');
    stores.push(storage);
    const key = await new KeyManager(storage.adapter('SigningKey'), kek).signingKey('ML-DSA-65-ES256');
    expect(await pathsOf(signMany(key))).toEqual({ whole: ROUNDS, split: 0, delegated: 0 });
  });
});

describe('a composite in a KMS', () => {
  it('still signs as two delegated halves, each half in its signer', async () => {
    const d = tempDir();
    const t = await startTestIdp({
      keys: {
        signers: {
          kms: {
            type: 'module',
            module: join(import.meta.dirname, 'fixtures', 'test-kms.ts'),
            options: { file: join(d.dir, 'kms.json') },
          },
        },
        custody: { oidc: 'kms' },
      } as never,
    });
    try {
      const key = await t.idp.ctx.keys.signingKey('ML-DSA-65-ES256');
      expect(await pathsOf(signMany(key))).toEqual({ whole: 0, split: 0, delegated: ROUNDS });
    } finally {
      await t.close();
      d.cleanup();
    }
  });
});
