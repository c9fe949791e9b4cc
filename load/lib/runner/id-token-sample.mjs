/**
 * One encrypted ID token, opened by the runner. During a phase k6 checks only that every
 * refresh response's `id_token` is a five-part JWE of the client's alg; before the phase, one
 * refresh of the same client at the same token endpoint is decrypted here with the client's
 * private key and the JWT inside verified against the IdP's published keys (`@pqid/jose`), so a
 * phase that measured something the client could not read fails instead of being reported.
 */
import { createLocalJWKSet, decryptCompact, importEncryptionKey, verifyJwt } from '@pqid/jose';

/** @typedef {import('../types.d.ts').EncryptedIdTokenSample} EncryptedIdTokenSample */
/** @typedef {NonNullable<import('../types.d.ts').ServerClients['encrypted']>[string]} EncryptedClient */

/**
 * Redeem `refreshToken` once and open the response's ID token.
 * @param {string} issuer
 * @param {EncryptedClient} client
 * @param {string} signAlg the client's `id_token_signed_response_alg`
 * @param {string} refreshToken
 * @returns {Promise<{ refreshToken: string, sample: EncryptedIdTokenSample }>} the rotated
 *   refresh token (for the phase) and what the sample held
 */
export async function openEncryptedIdToken(issuer, client, signAlg, refreshToken) {
  const res = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: client.id,
      refresh_token: refreshToken,
    }),
  });
  const body = /** @type {Record<string, unknown>} */ (await res.json());
  const jwe = body.id_token;
  if (res.status !== 200 || typeof jwe !== 'string' || typeof body.refresh_token !== 'string')
    throw new Error(`refresh for ${client.id} answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
  const key = /** @type {import('@pqid/jose').DecryptionKey} */ (
    await importEncryptionKey(client.privateJwk)
  );
  const { plaintext, protectedHeader } = await decryptCompact(jwe, key, {
    keyManagementAlgorithms: [client.jwe.alg],
    contentEncryptionAlgorithms: client.jwe.enc ? [client.jwe.enc] : [],
  });
  if (protectedHeader.cty !== 'JWT') throw new Error(`${client.id}: the JWE does not say cty "JWT"`);
  const signed = Buffer.from(plaintext).toString('utf8');
  const jwks = await (await fetch(`${issuer}/jwks`)).json();
  const { protectedHeader: jws } = await verifyJwt(signed, await createLocalJWKSet(jwks), {
    algorithms: [signAlg],
    issuer,
    audience: client.id,
  });
  return {
    refreshToken: body.refresh_token,
    sample: {
      alg: protectedHeader.alg,
      enc: protectedHeader.enc,
      signedWith: jws.alg,
      jweBytes: Buffer.byteLength(jwe),
      signedBytes: Buffer.byteLength(signed),
    },
  };
}
