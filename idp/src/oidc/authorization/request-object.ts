/**
 * Signed request objects (JAR, RFC 9101): the authorization request as a JWT signed by the
 * client with any registry algorithm its registered keys allow — ML-DSA and composites too.
 * A PQ signature makes the authorization URL carrying it 4–8 KB, past the 2048 bytes a URL can
 * safely carry, which is what pushed authorization requests (PAR, oidc/par.ts) are for.
 *
 * Checked: a JWS (no `none`, no encryption), `typ` absent or a request-object type, the
 * client's pinned `request_object_signing_alg` if any, a signature by a registered key,
 * iss = client_id, aud = this issuer, exp present and at most an hour ahead, the inner
 * client_id (if any) the outer one, no nested `request`/`request_uri`, and a `jti` (if any)
 * used once. Only the object's parameters are used (RFC 9101 §6.3).
 *
 * A `jti` is optional in RFC 9101, so by default an object without one is accepted until its
 * `exp`, as often as it is sent: replaying it only repeats a request the client signed, whose
 * code still goes to that client's registered redirect_uri and is bound to its PKCE challenge.
 * `requestObjects.requireJti` refuses such objects, making every request object single use.
 *
 * An encrypted request object (a JWE to one of the provider's `enc` keys, containing the signed
 * one: a Nested JWT, RFC 9101 §4, OIDC Core §6.1) is decrypted first (request-object-jwe.ts), then
 * checked as above: encryption never stands in for the signature.
 */
import { algorithms, decodeProtectedHeader, verifyJwt } from '@pqid/jose';
import type { Client } from '../../clients/clients.ts';
import type { IdpContext } from '../../context.ts';
import { tokenId } from '../../crypto/secrets.ts';
import { model } from '../../storage/model.ts';
import { keySetFor } from '../shared/client-keys.ts';
import { OAuthError } from '../shared/errors.ts';
import type { AuthorizeParams } from './request.ts';
import { decryptRequestObject } from './request-object-jwe.ts';

const MAX_LIFETIME = 3600;
const CLOCK_TOLERANCE = 30;
const MAX_BYTES = 32 * 1024;
const TYPES = new Set(['jwt', 'oauth-authz-req+jwt']);
const JWT_CLAIMS = new Set(['iss', 'aud', 'exp', 'iat', 'nbf', 'jti']);

export class RequestObjectError extends OAuthError {
  constructor(message: string) {
    super('invalid_request_object', message);
  }
}

const refuse = (message: string): never => {
  throw new RequestObjectError(message);
};

/** Seen `jti`s, kept until their object expires: the value is only a marker. */
type SeenJti = Record<string, never>;

/**
 * Where a request object is parsed: the compact JWS, its header (`typ`, the client's pinned
 * `alg`) and its signature by one of the client's registered keys, iss and aud and exp. Returns
 * its verified claims.
 */
async function readRequestObject(
  ctx: IdpContext,
  client: Client,
  received: string,
): Promise<Record<string, unknown>> {
  const jwt = received.split('.').length === 5 ? await decryptRequestObject(ctx, received, refuse) : received;
  if (jwt.split('.').length !== 3) refuse('the request object is not a JWS');
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(jwt);
  } catch {
    return refuse('the request object header is malformed');
  }
  const typ =
    typeof header.typ === 'string' ? header.typ.toLowerCase().replace(/^application\//, '') : undefined;
  if (header.typ !== undefined && (typ === undefined || !TYPES.has(typ)))
    refuse('the request object typ must be oauth-authz-req+jwt (or absent)');
  const pinned = client.request_object_signing_alg;
  if (pinned !== undefined && header.alg !== pinned)
    refuse(`this client's request objects must be signed with ${pinned}`);
  if (!client.jwks && !client.jwks_uri) refuse('the client has no registered keys (jwks or jwks_uri)');
  try {
    const { claims } = await verifyJwt(jwt, await keySetFor(ctx, client), {
      algorithms: pinned !== undefined ? [pinned] : algorithms(),
      issuer: client.client_id,
      audience: ctx.config.issuer,
      requiredClaims: ['exp'],
      clockTolerance: CLOCK_TOLERANCE,
      maxTokenBytes: MAX_BYTES,
    });
    return claims;
  } catch (e) {
    return refuse(`the request object is not valid: ${(e as Error).message}`);
  }
}

/** What RFC 9101 asks beyond the signature: a near exp, the same client, no nesting, a fresh jti. */
async function checkClaims(ctx: IdpContext, client: Client, claims: Record<string, unknown>): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const exp = claims.exp as number;
  if (exp - now > MAX_LIFETIME) refuse(`the request object must expire within ${MAX_LIFETIME} seconds`);
  if (claims.client_id !== undefined && claims.client_id !== client.client_id)
    refuse('client_id in the request object differs from the request');
  if (claims.request !== undefined || claims.request_uri !== undefined)
    refuse('a request object cannot hold request or request_uri');
  const jti = claims.jti;
  if (jti === undefined && ctx.config.requestObjects.requireJti)
    refuse('the request object must carry a jti (requestObjects.requireJti)');
  if (jti === undefined) return;
  if (typeof jti !== 'string' || jti === '' || jti.length > 256) refuse('jti must be a short string');
  const id = tokenId(`${client.client_id}\0${jti}`);
  const fresh = await model<SeenJti>(ctx.storage, 'RequestObject').insertIfAbsent(
    id,
    {},
    Math.max(1, exp - now + CLOCK_TOLERANCE),
  );
  if (!fresh) refuse('the request object was already used (jti)');
}

/**
 * The authorization parameters among the claims. Members of other types (e.g.
 * `authorization_details`, unsupported here) are ignored, as in a query. `claims` is a JSON object
 * in a request object (OIDC Core §6.1) and a JSON string in a query: it is passed on as the
 * string, so one parser (claims.ts) reads both.
 */
function paramsOf(client: Client, claims: Record<string, unknown>): AuthorizeParams {
  const params: AuthorizeParams = { client_id: client.client_id };
  for (const [k, v] of Object.entries(claims)) {
    if (JWT_CLAIMS.has(k) || k === 'client_id') continue;
    if (typeof v === 'string') params[k] = v;
    else if (k === 'max_age' && typeof v === 'number') params.max_age = String(v);
    else if (k === 'claims' && typeof v === 'object' && v !== null && !Array.isArray(v))
      params.claims = JSON.stringify(v);
    else if (k === 'resource' && Array.isArray(v) && v.every((r) => typeof r === 'string'))
      params.resource = v;
  }
  return params;
}

/** The authorization parameters inside a request object, after every check above. */
export async function verifyRequestObject(
  ctx: IdpContext,
  client: Client,
  jwt: string,
): Promise<AuthorizeParams> {
  const claims = await readRequestObject(ctx, client, jwt);
  await checkClaims(ctx, client, claims);
  return paramsOf(client, claims);
}
