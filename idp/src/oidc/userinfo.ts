/** UserInfo (OIDC Core §5.3), GET and POST, bearer token in the header or (POST) the form body. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Accounts } from '../accounts/accounts.ts';
import type { IdpContext } from '../context.ts';
import { tokenId } from '../crypto/secrets.ts';
import { jsonErrorHandler, OAuthError } from './errors.ts';
import type { AccessTokenRecord } from './issue.ts';
import { signToken } from './signing.ts';

const bearerError = (error: string, description: string, status: number) =>
  new OAuthError(error, description, status, {
    'www-authenticate': `Bearer realm="pqid", error="${error}", error_description="${description}"`,
  });

function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  const fromBody =
    req.method === 'POST' ? (req.body as { access_token?: unknown } | undefined)?.access_token : undefined;
  if (header !== undefined && fromBody !== undefined)
    throw bearerError('invalid_request', 'send the access token only once', 400);
  if (header !== undefined) {
    const m = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header);
    if (!m) throw bearerError('invalid_token', 'malformed Authorization header', 401);
    return m[1];
  }
  if (typeof fromBody === 'string' && fromBody !== '') return fromBody;
  return undefined;
}

export async function userinfoRoutes(app: FastifyInstance, { ctx }: { ctx: IdpContext }): Promise<void> {
  app.setErrorHandler(jsonErrorHandler);

  async function userinfo(req: FastifyRequest, reply: FastifyReply) {
    const token = bearerToken(req);
    if (!token) {
      throw new OAuthError('invalid_request', 'an access token is required', 401, {
        'www-authenticate': 'Bearer realm="pqid"',
      });
    }
    const record = (await ctx.storage.adapter('AccessToken').find(tokenId(token))) as
      | AccessTokenRecord
      | undefined;
    if (!record) throw bearerError('invalid_token', 'the access token is invalid or expired', 401);
    const scopes = new Set(record.scope.split(' '));
    if (!record.accountId || !scopes.has('openid'))
      throw bearerError('insufficient_scope', 'the access token does not grant openid', 403);
    const account = await ctx.accounts.find(record.accountId);
    if (!account) throw bearerError('invalid_token', 'the access token is invalid or expired', 401);
    const claims = Accounts.claims(account, scopes);
    const client = await ctx.clients.find(record.clientId);
    const alg = client?.userinfo_signed_response_alg;
    if (!client || !alg) return reply.header('cache-control', 'no-store').send(claims);
    // OIDC Core §5.3.2: a signed response carries iss and aud, content type application/jwt.
    const jwt = await signToken(ctx, 'userinfo', alg, claims, {
      issuer: ctx.config.issuer,
      audience: client.client_id,
    });
    return reply.headers({ 'cache-control': 'no-store', 'content-type': 'application/jwt' }).send(jwt);
  }

  const bodySchema = {
    type: 'object',
    // JWT access tokens signed with ML-DSA-87 or composites run to ~10 KB.
    properties: { access_token: { type: 'string', maxLength: 32768 } },
  } as const;
  app.get('/userinfo', userinfo);
  app.post('/userinfo', { schema: { body: bodySchema } }, userinfo);
}
