/**
 * Validating an authorization request (OIDC Core §3.1.2.2, RFC 6749 §4.1, RFC 7636).
 * Until client_id and redirect_uri are known good the answer is an error page: redirecting to
 * an unverified URI would make us an open redirector. After that, errors go back to the client.
 */
import { type Client, type Clients, isDynamic } from '../../clients/clients.ts';
import { checkBrowserUri, redirectUriMatches } from '../../clients/redirect-uris.ts';
import type { Config } from '../../config/index.ts';
import { invalidRequest, OAuthError } from '../shared/errors.ts';
import { checkResources, resourceParam } from '../shared/resources.ts';
import { type AcrClaimRequest, parseAcrClaim } from './claims.ts';

export type { AcrClaimRequest } from './claims.ts';

export const SUPPORTED_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;
/** OpenID scopes plus every scope a configured resource server accepts. */
export function supportedScopes(config: Config): string[] {
  return [
    ...new Set([...SUPPORTED_SCOPES, ...Object.values(config.resourceServers).flatMap((r) => r.scope)]),
  ];
}

export const PROMPT_VALUES = ['none', 'login', 'consent', 'select_account'] as const;
const PROMPTS = new Set<string>(PROMPT_VALUES);
const PKCE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;
/** A SHA-256 JWK thumbprint, base64url (RFC 9449 §10). */
const JKT = /^[A-Za-z0-9_-]{43}$/;

export type AuthorizeParams = Partial<Record<string, string>> & { resource?: string | string[] };

export interface AuthRequest {
  /** Parked with the sign-in while the user signs in: a stored payload. */
  [member: string]: unknown;
  clientId: string;
  redirectUri: string;
  scope: string;
  state?: string;
  nonce?: string;
  codeChallenge?: string;
  prompt: string[];
  maxAge?: number;
  loginHint?: string;
  /** Absent means query. */
  responseMode?: ResponseMode;
  /** RFC 8707 resource indicators: the grant covers these resource servers. */
  resources?: string[];
  /** RFC 9449 §10: the code may only be redeemed with a DPoP proof of this key. */
  dpopJkt?: string;
  /** The client has a back- or front-channel logout URI: remember it in the session (logout/session-clients.ts). */
  logoutNotice?: true;
  /**
   * The client registered itself (RFC 7591), so the operator never vetted it: the user must
   * consent to every scope it asks for (consent.ts).
   */
  thirdParty?: true;
  /** `acr_values`, in the client's order of preference (OIDC Core §3.1.2.1). */
  acrValues?: string[];
  /** The `acr` member of the `claims` parameter's `id_token` (OIDC Core §5.5.1.1). */
  acrClaim?: AcrClaimRequest;
  /** The weakest class this request accepts, once its client's minimum is applied (acr.ts). */
  requiredAcr?: string;
}

export type ResponseMode = 'query' | 'form_post';
export const RESPONSE_MODES: readonly ResponseMode[] = ['query', 'form_post'];

export type AuthorizeOutcome =
  | { kind: 'ok'; request: AuthRequest; client: Client }
  /** Cannot redirect: show an error page. */
  | { kind: 'page'; error: string; description: string }
  /** Redirect the error to the (verified) redirect_uri. */
  | {
      kind: 'redirect';
      redirectUri: string;
      error: string;
      description: string;
      state?: string;
      responseMode?: ResponseMode;
    };

/** How the parameters arrived: pushed (RFC 9126) and/or inside a signed request object (RFC 9101). */
export interface RequestOrigin {
  pushed: boolean;
  signed: boolean;
}

/** Where the response goes, once known good. */
interface Target {
  clientId: string;
  client: Client;
  redirectUri: string;
}

type PageOutcome = Extract<AuthorizeOutcome, { kind: 'page' }>;
const page = (error: string, description: string): PageOutcome => ({ kind: 'page', error, description });

function meetsRedirectRules(uri: string, client: Client): boolean {
  try {
    checkBrowserUri('redirect_uri', uri, {
      applicationType: client.application_type ?? 'web',
      dynamic: true,
    });
    return true;
  } catch {
    return false;
  }
}

/** The client and a redirect_uri registered for it, or the error page when either is not known good. */
async function verifiedTarget(params: AuthorizeParams, clients: Clients): Promise<Target | PageOutcome> {
  const clientId = params.client_id;
  if (!clientId) return page('invalid_request', 'The request has no client_id.');
  const client = await clients.find(clientId);
  if (!client) return page('invalid_client', 'The application is not registered with this provider.');
  const redirectUri = params.redirect_uri;
  if (!redirectUri) return page('invalid_request', 'The request has no redirect_uri.');
  // Exact string comparison (RFC 9700 §4.1.3): no prefix, no normalisation; only the port of
  // an http loopback-literal URI may differ (RFC 8252 §7.3).
  if (!redirectUriMatches(client.redirect_uris, redirectUri))
    return page('invalid_request', 'The redirect_uri is not registered for this application.');
  // A dynamic registration stored under laxer rules (an http or wildcard URI) is not honoured:
  // the registrant must update it (RFC 7592) before the browser is sent there.
  if (isDynamic(client) && !meetsRedirectRules(redirectUri, client))
    return page(
      'invalid_request',
      "The redirect_uri does not meet this provider's rules; the application must update its registration.",
    );
  return { clientId, client, redirectUri };
}

/** How the request arrived and what it asks for: PAR, JAR, response_mode, response_type. */
function checkFlow(params: AuthorizeParams, client: Client, config: Config, origin: RequestOrigin): void {
  // Request objects and request_uris are unpacked before this point (sources.ts).
  if (params.request !== undefined || params.request_uri !== undefined)
    throw invalidRequest('request and request_uri cannot be nested or combined');
  if (!origin.pushed && (config.par.required || client.require_pushed_authorization_requests))
    throw invalidRequest('authorization requests must be pushed first (PAR, RFC 9126)');
  if (!origin.signed && client.require_signed_request_object)
    throw invalidRequest('this client must send a signed request object (RFC 9101)');
  if (params.response_mode !== undefined && responseModeOf(params) === undefined)
    throw invalidRequest('unsupported response_mode (query or form_post)');
  if (!params.response_type) throw invalidRequest('response_type is required');
  if (params.response_type !== 'code')
    throw new OAuthError('unsupported_response_type', 'only response_type=code is supported');
  if (!client.grant_types.includes('authorization_code'))
    throw new OAuthError('unauthorized_client', 'client may not use the authorization code flow');
}

/** The requested scopes this client may have and this provider knows; openid is required. */
function grantedScope(params: AuthorizeParams, client: Client, config: Config): string {
  const requested = (params.scope ?? '').split(' ').filter(Boolean);
  if (!requested.includes('openid')) throw new OAuthError('invalid_scope', 'scope must include openid');
  const allowed = new Set(client.scope.split(' '));
  const supported = new Set(supportedScopes(config));
  // Unknown scopes are ignored, not refused (OIDC Core §3.1.2.1 lets the OP decide).
  return [...new Set(requested)].filter((s) => allowed.has(s) && supported.has(s)).join(' ');
}

/** The PKCE challenge (RFC 7636 §4.3), S256 only; required when the client says so. */
function pkceChallenge(params: AuthorizeParams, client: Client): string | undefined {
  const method = params.code_challenge_method;
  const challenge = params.code_challenge;
  if (method !== undefined && method !== 'S256') throw invalidRequest('code_challenge_method must be S256');
  if (challenge === undefined) {
    if (client.require_pkce)
      throw invalidRequest('PKCE is required: send code_challenge with code_challenge_method=S256');
    return undefined;
  }
  if (method === undefined)
    throw invalidRequest('code_challenge_method=S256 is required with code_challenge');
  if (!PKCE_CHALLENGE.test(challenge)) throw invalidRequest('code_challenge is malformed');
  return challenge;
}

function promptValues(params: AuthorizeParams): string[] {
  const prompt = (params.prompt ?? '').split(' ').filter(Boolean);
  if (prompt.some((p) => !PROMPTS.has(p))) throw invalidRequest('unsupported prompt value');
  if (prompt.includes('none') && prompt.length > 1)
    throw invalidRequest('prompt=none cannot be combined with other values');
  return prompt;
}

function maxAgeOf(params: AuthorizeParams): number | undefined {
  if (params.max_age === undefined) return undefined;
  if (!/^\d{1,10}$/.test(params.max_age)) throw invalidRequest('max_age must be a non-negative integer');
  return Number(params.max_age);
}

function acrClaimOf(params: AuthorizeParams): AcrClaimRequest | undefined {
  if (params.claims === undefined) return undefined;
  const parsed = parseAcrClaim(params.claims);
  if (parsed === 'invalid') throw invalidRequest('claims must be a JSON object (OIDC Core §5.5)');
  return parsed;
}

/** A valid response_mode, which also governs how errors travel back (Form Post Response Mode §2). */
function responseModeOf(params: AuthorizeParams): ResponseMode | undefined {
  return (RESPONSE_MODES as readonly string[]).includes(params.response_mode ?? '')
    ? (params.response_mode as ResponseMode)
    : undefined;
}

/** The validated request, every check above in order; the first refusal is thrown. */
function checkedRequest(
  params: AuthorizeParams,
  { clientId, client, redirectUri }: Target,
  config: Config,
  origin: RequestOrigin,
): AuthRequest {
  checkFlow(params, client, config, origin);
  const scope = grantedScope(params, client, config);
  const resources = resourceParam(params.resource);
  if (resources !== undefined) checkResources(config, resources);
  if (params.dpop_jkt !== undefined && !JKT.test(params.dpop_jkt))
    throw invalidRequest('dpop_jkt must be a base64url SHA-256 JWK thumbprint');
  const challenge = pkceChallenge(params, client);
  const prompt = promptValues(params);
  const maxAge = maxAgeOf(params);
  const acrValues = params.acr_values?.split(' ').filter(Boolean);
  const acrClaim = acrClaimOf(params);
  return {
    clientId,
    redirectUri,
    scope,
    prompt,
    ...(params.state !== undefined ? { state: params.state } : {}),
    ...(params.nonce !== undefined ? { nonce: params.nonce } : {}),
    ...(challenge !== undefined ? { codeChallenge: challenge } : {}),
    ...(maxAge !== undefined ? { maxAge } : {}),
    ...(params.login_hint !== undefined ? { loginHint: params.login_hint } : {}),
    ...(responseModeOf(params) === 'form_post' ? { responseMode: 'form_post' as const } : {}),
    ...(resources?.length ? { resources: [...new Set(resources)] } : {}),
    ...(params.dpop_jkt !== undefined ? { dpopJkt: params.dpop_jkt } : {}),
    ...(client.backchannel_logout_uri !== undefined || client.frontchannel_logout_uri !== undefined
      ? { logoutNotice: true as const }
      : {}),
    ...(isDynamic(client) ? { thirdParty: true as const } : {}),
    ...(acrValues?.length ? { acrValues } : {}),
    ...(acrClaim ? { acrClaim } : {}),
  };
}

export async function validateAuthorizeRequest(
  params: AuthorizeParams,
  clients: Clients,
  config: Config,
  origin: RequestOrigin = { pushed: false, signed: false },
): Promise<AuthorizeOutcome> {
  const target = await verifiedTarget(params, clients);
  if ('kind' in target) return target;
  try {
    return { kind: 'ok', request: checkedRequest(params, target, config, origin), client: target.client };
  } catch (e) {
    if (!(e instanceof OAuthError)) throw e;
    return {
      kind: 'redirect',
      redirectUri: target.redirectUri,
      error: e.error,
      description: e.description,
      ...(params.state !== undefined ? { state: params.state } : {}),
      ...(responseModeOf(params) === 'form_post' ? { responseMode: 'form_post' as const } : {}),
    };
  }
}
