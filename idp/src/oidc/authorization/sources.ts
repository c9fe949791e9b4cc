/**
 * Where an authorization request's parameters come from: the query or form itself, a signed
 * request object (`request`, RFC 9101), or a pushed authorization request (`request_uri`,
 * RFC 9126) made earlier at the PAR endpoint. Each source ends in the same validation
 * (request.ts), told how the parameters arrived so per-client requirements hold.
 *
 * A pushed request is stored under the digest of its request_uri, one use, for
 * `par.requestUriLifetime` seconds; /authorize re-validates it (the client may have changed).
 */
import type { IdpContext } from '../../context.ts';
import { randomToken, tokenId } from '../../crypto/secrets.ts';
import { type Model, model } from '../../storage/model.ts';
import { type AuthorizeOutcome, type AuthorizeParams, validateAuthorizeRequest } from './request.ts';
import { RequestObjectError, verifyRequestObject } from './request-object.ts';

export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

interface PushedRecord {
  clientId: string;
  params: AuthorizeParams;
  signed: boolean;
  /** Epoch seconds of the push (absent in older records): whose registration it belongs to. */
  iat?: number;
}

const pushed = (ctx: IdpContext): Model<PushedRecord> =>
  model<PushedRecord>(ctx.storage, 'PushedAuthorizationRequest');

/** Store validated parameters; the request_uri and its lifetime for the PAR response. */
export async function pushRequest(
  ctx: IdpContext,
  clientId: string,
  params: AuthorizeParams,
  signed: boolean,
): Promise<{ request_uri: string; expires_in: number }> {
  const handle = randomToken();
  const ttl = ctx.config.par.requestUriLifetime;
  const iat = Math.floor(Date.now() / 1000);
  await pushed(ctx).upsert(tokenId(handle), { clientId, params, signed, iat }, ttl);
  return { request_uri: `${REQUEST_URI_PREFIX}${handle}`, expires_in: ttl };
}

const page = (error: string, description: string): AuthorizeOutcome => ({ kind: 'page', error, description });

/** A pushed request, taken once (RFC 9126 §4): of concurrent uses, on any instance, one gets it. */
async function fromPushed(
  ctx: IdpContext,
  params: AuthorizeParams,
  requestUri: string,
): Promise<AuthorizeOutcome> {
  if (!requestUri.startsWith(REQUEST_URI_PREFIX))
    return page(
      'invalid_request_uri',
      'Only request_uris from the pushed authorization request endpoint are accepted.',
    );
  if (!params.client_id) return page('invalid_request', 'The request has no client_id.');
  const id = tokenId(requestUri.slice(REQUEST_URI_PREFIX.length));
  const store = pushed(ctx);
  const record = await store.find(id);
  // A request pushed by a client since removed is unknown (Clients.holderOf), on any instance.
  if (
    !record ||
    record.clientId !== params.client_id ||
    !(await ctx.clients.holderOf(record.clientId, record.iat))
  )
    return page('invalid_request_uri', 'The request_uri is unknown, expired, or for another application.');
  if (record.consumed !== undefined || !(await store.consume(id)))
    return page('invalid_request_uri', 'The request_uri was already used.');
  return validateAuthorizeRequest(record.params, ctx.clients, ctx.config, {
    pushed: true,
    signed: record.signed,
  });
}

/** A request object sent by value; its redirect_uri is unverified, so errors cannot go back to the client. */
async function fromRequestObject(
  ctx: IdpContext,
  params: AuthorizeParams,
  jwt: string,
): Promise<AuthorizeOutcome> {
  const client = params.client_id ? await ctx.clients.find(params.client_id) : undefined;
  if (!params.client_id) return page('invalid_request', 'The request has no client_id.');
  if (!client) return page('invalid_client', 'The application is not registered with this provider.');
  let inner: AuthorizeParams;
  try {
    inner = await verifyRequestObject(ctx, client, jwt);
  } catch (e) {
    if (e instanceof RequestObjectError) return page(e.error, `${e.message}.`);
    throw e;
  }
  return validateAuthorizeRequest(inner, ctx.clients, ctx.config, { pushed: false, signed: true });
}

/** The outcome of an authorization request from whichever source its parameters came. */
export async function resolveAuthorizeRequest(
  ctx: IdpContext,
  params: AuthorizeParams,
): Promise<AuthorizeOutcome> {
  if (params.request !== undefined && params.request_uri !== undefined)
    return page('invalid_request', 'Send request or request_uri, not both.');
  if (params.request_uri !== undefined) return fromPushed(ctx, params, params.request_uri);
  if (params.request !== undefined) return fromRequestObject(ctx, params, params.request);
  return validateAuthorizeRequest(params, ctx.clients, ctx.config, { pushed: false, signed: false });
}
