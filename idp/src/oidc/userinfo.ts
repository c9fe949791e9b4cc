/**
 * UserInfo (OIDC Core §5.3), GET and POST: a bearer token in the header or (POST) the form
 * body, or a DPoP-bound token with the DPoP scheme and a proof (RFC 9449 §7). A bound token is
 * never accepted as a bearer token, and a token for another resource (RFC 8707) is refused.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Accounts } from '../accounts/accounts.ts';
import type { Client } from '../clients/clients.ts';
import { endpoints, type IdpContext } from '../context.ts';
import type { Dpop } from './shared/dpop.ts';
import { encryptJson, encryptSignedJwt, recipientFor } from './shared/encryption.ts';
import { challengeText, jsonErrorHandler, OAuthError } from './shared/errors.ts';
import { signToken } from './shared/signing.ts';
import { type AccessTokenRecord, findAccessToken } from './tokens/access-tokens.ts';

type Scheme = 'Bearer' | 'DPoP';

const challengeError = (scheme: Scheme, error: string, description: string, status: number) =>
  new OAuthError(error, description, status, {
    'www-authenticate': `${scheme} realm="pqid", error="${error}", error_description="${challengeText(description)}"`,
  });

interface Presented {
  token: string;
  scheme: Scheme;
}

function presentedToken(req: FastifyRequest): Presented | undefined {
  const header = req.headers.authorization;
  const fromBody =
    req.method === 'POST' ? (req.body as { access_token?: unknown } | undefined)?.access_token : undefined;
  if (header !== undefined && fromBody !== undefined)
    throw challengeError('Bearer', 'invalid_request', 'send the access token only once', 400);
  if (header !== undefined) {
    const m = /^(Bearer|DPoP) +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header);
    if (!m) throw challengeError('Bearer', 'invalid_token', 'malformed Authorization header', 401);
    return { scheme: (m[1] as string).toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer', token: m[2] as string };
  }
  if (typeof fromBody === 'string' && fromBody !== '') return { scheme: 'Bearer', token: fromBody };
  return undefined;
}

/**
 * The access token's record, if it may call userinfo: known, presented with the scheme its
 * binding asks for (`jkt`: the key of this request's DPoP proof), for this provider, with openid.
 */
async function usableToken(
  ctx: IdpContext,
  { token, scheme }: Presented,
  jkt: string | undefined,
): Promise<AccessTokenRecord & { accountId: string }> {
  const fail = (error: string, description: string, status = 401) =>
    challengeError(scheme, error, description, status);
  const record = await findAccessToken(ctx, token);
  if (!record) throw fail('invalid_token', 'the access token is invalid or expired');
  if (record.jkt !== jkt)
    throw record.jkt === undefined
      ? fail('invalid_token', 'the access token is not DPoP-bound: use the Bearer scheme')
      : jkt === undefined
        ? challengeError('DPoP', 'invalid_token', 'the access token is DPoP-bound: use the DPoP scheme', 401)
        : fail('invalid_token', 'the access token is bound to another DPoP key');
  if (record.aud !== undefined) throw fail('invalid_token', 'the access token is for another resource');
  const { accountId } = record;
  if (!accountId || !record.scope.split(' ').includes('openid'))
    throw fail('insufficient_scope', 'the access token does not grant openid', 403);
  return { ...record, accountId };
}

/**
 * Where userinfo answers (OIDC Core §5.3.2): plain JSON; for a client that registered
 * `userinfo_signed_response_alg`, a JWT with iss and aud; for one that registered
 * `userinfo_encrypted_response_alg`, that JWT encrypted to it (a Nested JWT), or, unsigned, the
 * JSON encrypted. Signed or encrypted answers are `application/jwt`.
 */
async function sendUserinfo(
  ctx: IdpContext,
  reply: FastifyReply,
  client: Client,
  claims: Record<string, unknown>,
): Promise<FastifyReply> {
  const alg = client.userinfo_signed_response_alg;
  const recipient = await recipientFor(ctx, client, 'userinfo');
  if (!alg && !recipient) return reply.header('cache-control', 'no-store').send(claims);
  const jwt = alg
    ? await signToken(
        ctx,
        'userinfo',
        alg,
        claims,
        { issuer: ctx.config.issuer, audience: client.client_id },
        { encrypted: recipient !== undefined },
      )
    : undefined;
  const body =
    recipient === undefined
      ? (jwt as string)
      : jwt !== undefined
        ? await encryptSignedJwt(ctx, 'userinfo', jwt, recipient)
        : await encryptJson(ctx, claims, recipient);
  return reply.headers({ 'cache-control': 'no-store', 'content-type': 'application/jwt' }).send(body);
}

export async function userinfoRoutes(
  app: FastifyInstance,
  { ctx, dpop }: { ctx: IdpContext; dpop: Dpop },
): Promise<void> {
  app.setErrorHandler(jsonErrorHandler);
  const htu = endpoints(ctx.config.issuer).userinfo;

  /** The DPoP key the request proves, when it uses the DPoP scheme (a proof is then required). */
  async function proofKey(req: FastifyRequest, reply: FastifyReply, { token, scheme }: Presented) {
    if (scheme !== 'DPoP') return undefined;
    const proof = await dpop.check(req, { htu, accessToken: token, endpoint: 'resource' });
    if (!proof) throw challengeError('DPoP', 'invalid_dpop_proof', 'the DPoP scheme needs a DPoP proof', 401);
    dpop.addNonce(reply);
    return proof.jkt;
  }

  async function userinfo(req: FastifyRequest, reply: FastifyReply) {
    const presented = presentedToken(req);
    if (!presented) {
      throw new OAuthError('invalid_request', 'an access token is required', 401, {
        'www-authenticate': `Bearer realm="pqid", DPoP algs="${dpop.algorithms.join(' ')}"`,
      });
    }
    const record = await usableToken(ctx, presented, await proofKey(req, reply, presented));
    const account = await ctx.accounts.find(record.accountId);
    if (!account)
      throw challengeError(presented.scheme, 'invalid_token', 'the access token is invalid or expired', 401);
    // Read again for its signing and encryption metadata; gone since the token check (removed
    // meanwhile) means the token is too: never fall back to claims in the clear.
    const client = await ctx.clients.find(record.clientId);
    if (!client)
      throw challengeError(presented.scheme, 'invalid_token', 'the access token is invalid or expired', 401);
    const claims = Accounts.claims(account, new Set(record.scope.split(' ')));
    return sendUserinfo(ctx, reply, client, claims);
  }

  const bodySchema = {
    type: 'object',
    // JWT access tokens signed with ML-DSA-87 or composites run to ~10 KB.
    properties: { access_token: { type: 'string', maxLength: 32768 } },
  } as const;
  app.get('/userinfo', userinfo);
  app.post('/userinfo', { schema: { body: bodySchema } }, userinfo);
}
