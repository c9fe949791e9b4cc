/**
 * The CPU measurement behind `pqid token-fit` (src/cli/token-cost.ts): the operations take turns
 * round by round, every figure is positive, and a JWE that does not decrypt to the signed token
 * stops the measurement instead of timing a failure. No absolute time is checked.
 */
import { describe, expect, it } from 'vitest';
import { encryptAs, throwAwayEncryptionKeys } from '../src/cli/encrypted-fit.ts';
import { cpuPerCall, tokenCost, tokenCpu } from '../src/cli/token-cost.ts';
import { signTypical, throwAwaySigningKey, typicalIdTokenClaims } from '../src/cli/token-fit.ts';

describe('cpuPerCall', () => {
  it('warms every op up, then runs them in turns, round by round, at least twice a slice', async () => {
    const log: string[] = [];
    const op = (name: string) => async () => {
      log.push(name);
      await Promise.resolve();
    };
    const costs = await cpuPerCall([op('a'), op('b')], 10, 3);
    expect(log.slice(0, 6)).toEqual(['a', 'a', 'a', 'b', 'b', 'b']);
    // After the warm-up: runs of a, then b, then a … — three rounds, so six runs in all.
    const runs = log.slice(6).join('').match(/a+|b+/g) ?? [];
    expect(runs.map((r) => r[0])).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
    for (const r of runs) expect(r.length).toBeGreaterThanOrEqual(2);
    expect(costs.map((c) => c.calls)).toEqual(['a', 'b'].map((n) => log.filter((x) => x === n).length - 3));
    for (const c of costs) {
      expect(c.us).toBeGreaterThanOrEqual(0);
      expect(c.spread).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('tokenCost', () => {
  it('measures signing, sign + encrypt and decrypt; ratios divide by signing alone', async () => {
    const signer = await throwAwaySigningKey('ES256');
    const claims = typicalIdTokenClaims('https://idp.example.com', 'client-1');
    const signedJwt = await signTypical(signer, claims);
    const keys = await throwAwayEncryptionKeys('HPKE-12');
    const jwe = await encryptAs(signedJwt, { alg: 'HPKE-12' }, keys.publicKey);
    const cost = await tokenCost({
      signer,
      claims,
      cases: [{ encryption: { alg: 'HPKE-12' }, keys, jwe, signedJwt }],
      budgetMs: 60,
      rounds: 3,
    });
    expect(cost.sign.us).toBeGreaterThan(0);
    expect(cost.encrypted).toHaveLength(1);
    const [sign, enc] = tokenCpu(cost);
    expect(sign).toEqual({
      us: cost.sign.us,
      ratio: 1,
      decryptUs: null,
      decryptRatio: null,
      spread: cost.sign.spread,
    });
    expect(enc?.ratio).toBe((cost.encrypted[0]?.signAndEncrypt.us ?? 0) / cost.sign.us);
    expect(enc?.decryptRatio).toBe((cost.encrypted[0]?.decrypt.us ?? 0) / cost.sign.us);
  });

  it('refuses to time a decryption that does not give back the signed token', async () => {
    const signer = await throwAwaySigningKey('ES256');
    const claims = typicalIdTokenClaims('https://idp.example.com', 'client-1');
    const keys = await throwAwayEncryptionKeys('HPKE-12');
    const other = await signTypical(signer, { ...claims, sub: 'someone else' });
    const jwe = await encryptAs(other, { alg: 'HPKE-12' }, keys.publicKey);
    const signedJwt = await signTypical(signer, claims);
    await expect(
      tokenCost({
        signer,
        claims,
        cases: [{ encryption: { alg: 'HPKE-12' }, keys, jwe, signedJwt }],
        budgetMs: 30,
        rounds: 1,
      }),
    ).rejects.toMatchObject({ code: 'ERR_MEASUREMENT' });
  });
});
