/**
 * Client authentication at the token, introspection and revocation endpoints:
 * client_secret_basic, client_secret_post, private_key_jwt (RFC 7523 / OIDC Core §9) and none.
 */
import type { FastifyRequest } from 'fastify';
import type { Client, TokenEndpointAuthMethod } from '../../clients/clients.ts';
import { endpoints, type IdpContext } from '../../context.ts';
import { verifyClientAssertion } from './client-assertion.ts';
import { invalidRequest, OAuthError } from './errors.ts';

/** The methods `authenticateClient` implements, as discovery lists them. */
export const AUTH_METHODS: readonly TokenEndpointAuthMethod[] = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'none',
];

export const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export const invalidClient = (basic: boolean) =>
  new OAuthError(
    'invalid_client',
    'client authentication failed',
    401,
    basic ? { 'www-authenticate': 'Basic realm="pqid"' } : {},
  );

// RFC 6749 §2.3.1: id and secret are form-urlencoded before base64.
function formDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    throw invalidRequest('malformed Basic credentials');
  }
}

function parseBasic(header: string): { id: string; secret: string } | undefined {
  const m = /^Basic +([A-Za-z0-9+/=._~-]+) *$/i.exec(header);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return undefined;
  return { id: formDecode(decoded.slice(0, i)), secret: formDecode(decoded.slice(i + 1)) };
}

/** The unverified `iss`/`sub` of an assertion: only used to find whose keys to verify it with. */
function assertionIssuer(assertion: string): string | undefined {
  const payload = assertion.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof claims.sub === 'string' ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}

export interface ClientAuthOptions {
  /** Public clients (method none) may call this endpoint (token yes; introspection no). */
  allowPublic?: boolean;
}

export async function authenticateClient(
  req: FastifyRequest,
  body: Record<string, string | undefined>,
  ctx: IdpContext,
  opts: ClientAuthOptions = { allowPublic: true },
): Promise<Client> {
  const header = req.headers.authorization;
  const isBasic = header !== undefined && /^Basic /i.test(header);
  const basic = isBasic ? parseBasic(header) : undefined;
  if (isBasic && !basic) throw invalidClient(true);
  const hasAssertion = body.client_assertion !== undefined || body.client_assertion_type !== undefined;
  if ([basic !== undefined, body.client_secret !== undefined, hasAssertion].filter(Boolean).length > 1)
    throw invalidRequest('use one client authentication method, not several');

  let method: TokenEndpointAuthMethod;
  let clientId: string | undefined;
  let secret: string | undefined;
  if (basic) {
    method = 'client_secret_basic';
    clientId = basic.id;
    secret = basic.secret;
  } else if (body.client_secret !== undefined) {
    method = 'client_secret_post';
    clientId = body.client_id;
    secret = body.client_secret;
  } else if (hasAssertion) {
    if (body.client_assertion_type !== JWT_BEARER || !body.client_assertion)
      throw invalidRequest(`client_assertion_type must be ${JWT_BEARER} with a client_assertion`);
    method = 'private_key_jwt';
    clientId = body.client_id ?? assertionIssuer(body.client_assertion);
  } else {
    method = 'none';
    clientId = body.client_id;
  }
  if (basic && body.client_id !== undefined && body.client_id !== clientId)
    throw invalidRequest('client_id does not match the authenticated client');
  if (!clientId) throw invalidClient(method === 'client_secret_basic');
  const client = await ctx.clients.find(clientId);
  // Same answer for unknown client, wrong method and wrong secret: nothing to probe.
  if (!client || client.token_endpoint_auth_method !== method)
    throw invalidClient(method === 'client_secret_basic');
  if (method === 'none' && !opts.allowPublic) throw invalidClient(false);
  if (method === 'private_key_jwt') {
    const ep = endpoints(ctx.config.issuer);
    // OIDC Core §9: aud is the token endpoint; RFC 7523 also allows the issuer. The endpoint
    // actually called is accepted too (introspection, revocation).
    const called = `${ctx.config.issuer}${req.routeOptions.url?.slice(ep.prefix.length) ?? ''}`;
    const ok = await verifyClientAssertion(ctx, client, body.client_assertion as string, [
      ep.token,
      ctx.config.issuer,
      called,
    ]);
    if (!ok) throw invalidClient(false);
  } else if (method !== 'none' && !(await ctx.clients.checkSecret(client, secret ?? ''))) {
    throw invalidClient(method === 'client_secret_basic');
  }
  return client;
}
