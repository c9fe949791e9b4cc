/**
 * private_key_jwt assertions (RFC 7523 §3, OIDC Core §9): signed by a key from the client's
 * registered `jwks` or `jwks_uri`, with the client's registered alg only; iss = sub = client_id;
 * aud one of ours; exp required and near; jti single-use until the assertion expires.
 */
import { verifyJwt } from '@pqid/jose';
import type { Client } from '../../clients/clients.ts';
import type { IdpContext } from '../../context.ts';
import { tokenId } from '../../crypto/secrets.ts';
import { model } from '../../storage/model.ts';
import { keySetFor } from './client-keys.ts';

// An assertion is a one-shot credential; a long-lived one would be a password in disguise.
const MAX_LIFETIME = 600;
const CLOCK_TOLERANCE = 30;
// ML-DSA-87 composites with RSA reach ~10 KB; anything far beyond that is not an assertion.
const MAX_ASSERTION_BYTES = 32 * 1024;

/** A seen assertion's `jti`, kept until the assertion could no longer be accepted. */
interface SeenAssertion {
  clientId: string;
}

export async function verifyClientAssertion(
  ctx: IdpContext,
  client: Client,
  assertion: string,
  audiences: string[],
): Promise<boolean> {
  const alg = client.token_endpoint_auth_signing_alg;
  if (!alg || (!client.jwks && !client.jwks_uri)) return false;
  let claims: Record<string, unknown>;
  try {
    ({ claims } = await verifyJwt(assertion, await keySetFor(ctx, client), {
      algorithms: [alg],
      issuer: client.client_id,
      subject: client.client_id,
      audience: [...new Set(audiences)],
      requiredClaims: ['exp', 'jti'],
      clockTolerance: CLOCK_TOLERANCE,
      maxTokenBytes: MAX_ASSERTION_BYTES,
    }));
  } catch {
    // Bad signature, wrong alg, wrong claims, unreachable jwks_uri: all one invalid_client.
    return false;
  }
  const now = Math.floor(Date.now() / 1000);
  const exp = claims.exp as number;
  const jti = claims.jti;
  if (typeof jti !== 'string' || jti === '' || jti.length > 256) return false;
  if (exp - now > MAX_LIFETIME) return false;
  const id = tokenId(`${client.client_id}\0${jti}`);
  // One atomic insert in the shared store: of concurrent uses of one assertion, on any number of
  // instances, exactly one gets here first. Kept until it could no longer be accepted anyway
  // (exp + tolerance); an expired marker does not block (its assertion is refused above).
  return model<SeenAssertion>(ctx.storage, 'ClientAssertion').insertIfAbsent(
    id,
    { clientId: client.client_id },
    Math.max(1, exp - now + CLOCK_TOLERANCE),
  );
}
