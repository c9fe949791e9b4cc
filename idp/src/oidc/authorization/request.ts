/**
 * Validating an authorization request (OIDC Core §3.1.2.2, RFC 6749 §4.1, RFC 7636).
 * Until client_id and redirect_uri are known good the answer is an error page: redirecting to
 * an unverified URI would make us an open redirector. After that, errors go back to the client.
 */
import { type Client, type Clients, isDynamic } from '../../clients/clients.ts';
import { checkBrowserUri, redirectUriMatches } from '../../clients/redirect-uris.ts';
import type { Config } from '../../config/index.ts';
import { checkResources, resourceParam } from '../shared/resources.ts';

export const SUPPORTED_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;
/** OpenID scopes plus every scope a configured resource server accepts. */
export function supportedScopes(config: Config): string[] {
  return [
    ...new Set([...SUPPORTED_SCOPES, ...Object.values(config.resourceServers).flatMap((r) => r.scope)]),
  ];
}

const PROMPTS = new Set(['none', 'login', 'consent', 'select_account']);
const PKCE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;
/** A SHA-256 JWK thumbprint, base64url (RFC 9449 §10). */
const JKT = /^[A-Za-z0-9_-]{43}$/;

export type AuthorizeParams = Partial<Record<string, string>> & { resource?: string | string[] };

export interface AuthRequest {
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
  /** The client has a back- or front-channel logout URI: remember it in the session (session-clients.ts). */
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
  /** The weakest class this request accepts, once its client's minimum is applied (authorize.ts). */
  requiredAcr?: string;
}

export interface AcrClaimRequest {
  essential: boolean;
  /** Absent: any value (the claim is asked for, not a class). */
  values?: string[];
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

export async function validateAuthorizeRequest(
  params: AuthorizeParams,
  clients: Clients,
  config: Config,
  origin: RequestOrigin = { pushed: false, signed: false },
): Promise<AuthorizeOutcome> {
  const clientId = params.client_id;
  if (!clientId)
    return { kind: 'page', error: 'invalid_request', description: 'The request has no client_id.' };
  const client = await clients.find(clientId);
  if (!client)
    return {
      kind: 'page',
      error: 'invalid_client',
      description: 'The application is not registered with this provider.',
    };
  const redirectUri = params.redirect_uri;
  if (!redirectUri)
    return { kind: 'page', error: 'invalid_request', description: 'The request has no redirect_uri.' };
  // Exact string comparison (RFC 9700 §4.1.3): no prefix, no normalisation; only the port of
  // an http loopback-literal URI may differ (RFC 8252 §7.3).
  if (!redirectUriMatches(client.redirect_uris, redirectUri)) {
    return {
      kind: 'page',
      error: 'invalid_request',
      description: 'The redirect_uri is not registered for this application.',
    };
  }
  // A dynamic registration stored under laxer rules (an http or wildcard URI) is not honoured:
  // the registrant must update it (RFC 7592) before the browser is sent there.
  if (isDynamic(client) && !meetsRedirectRules(redirectUri, client))
    return {
      kind: 'page',
      error: 'invalid_request',
      description:
        "The redirect_uri does not meet this provider's rules; the application must update its registration.",
    };

  const state = params.state;
  // A valid response_mode also governs how errors travel back (Form Post Response Mode §2).
  const responseMode = (RESPONSE_MODES as readonly string[]).includes(params.response_mode ?? '')
    ? (params.response_mode as ResponseMode)
    : undefined;
  const fail = (error: string, description: string): AuthorizeOutcome => ({
    kind: 'redirect',
    redirectUri,
    error,
    description,
    ...(state !== undefined ? { state } : {}),
    ...(responseMode === 'form_post' ? { responseMode } : {}),
  });

  // Request objects and request_uris are unpacked before this point (request-sources.ts).
  if (params.request !== undefined || params.request_uri !== undefined)
    return fail('invalid_request', 'request and request_uri cannot be nested or combined');
  if (!origin.pushed && (config.par.required || client.require_pushed_authorization_requests))
    return fail('invalid_request', 'authorization requests must be pushed first (PAR, RFC 9126)');
  if (!origin.signed && client.require_signed_request_object)
    return fail('invalid_request', 'this client must send a signed request object (RFC 9101)');
  if (params.response_mode !== undefined && responseMode === undefined) {
    return fail('invalid_request', 'unsupported response_mode (query or form_post)');
  }
  if (!params.response_type) return fail('invalid_request', 'response_type is required');
  if (params.response_type !== 'code')
    return fail('unsupported_response_type', 'only response_type=code is supported');
  if (!client.grant_types.includes('authorization_code'))
    return fail('unauthorized_client', 'client may not use the authorization code flow');

  const requested = (params.scope ?? '').split(' ').filter(Boolean);
  if (!requested.includes('openid')) return fail('invalid_scope', 'scope must include openid');
  const allowed = new Set(client.scope.split(' '));
  const supported = new Set(supportedScopes(config));
  // Unknown scopes are ignored, not refused (OIDC Core §3.1.2.1 lets the OP decide).
  const scope = [...new Set(requested)].filter((s) => allowed.has(s) && supported.has(s)).join(' ');

  const resources = resourceParam(params.resource);
  if (resources !== undefined) {
    try {
      checkResources(config, resources);
    } catch (e) {
      return fail('invalid_target', (e as Error).message);
    }
  }
  if (params.dpop_jkt !== undefined && !JKT.test(params.dpop_jkt))
    return fail('invalid_request', 'dpop_jkt must be a base64url SHA-256 JWK thumbprint');

  const method = params.code_challenge_method;
  const challenge = params.code_challenge;
  if (method !== undefined && method !== 'S256')
    return fail('invalid_request', 'code_challenge_method must be S256');
  if (challenge === undefined) {
    if (client.require_pkce)
      return fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256');
  } else {
    if (method === undefined)
      return fail('invalid_request', 'code_challenge_method=S256 is required with code_challenge');
    if (!PKCE_CHALLENGE.test(challenge)) return fail('invalid_request', 'code_challenge is malformed');
  }

  const prompt = (params.prompt ?? '').split(' ').filter(Boolean);
  if (prompt.some((p) => !PROMPTS.has(p))) return fail('invalid_request', 'unsupported prompt value');
  if (prompt.includes('none') && prompt.length > 1)
    return fail('invalid_request', 'prompt=none cannot be combined with other values');

  let maxAge: number | undefined;
  if (params.max_age !== undefined) {
    if (!/^\d{1,10}$/.test(params.max_age))
      return fail('invalid_request', 'max_age must be a non-negative integer');
    maxAge = Number(params.max_age);
  }

  const acrValues = params.acr_values?.split(' ').filter(Boolean);
  let acrClaim: AcrClaimRequest | undefined;
  if (params.claims !== undefined) {
    const parsed = parseAcrClaim(params.claims);
    if (parsed === 'invalid') return fail('invalid_request', 'claims must be a JSON object (OIDC Core §5.5)');
    acrClaim = parsed;
  }

  const request: AuthRequest = {
    clientId,
    redirectUri,
    scope,
    prompt,
    ...(state !== undefined ? { state } : {}),
    ...(params.nonce !== undefined ? { nonce: params.nonce } : {}),
    ...(challenge !== undefined ? { codeChallenge: challenge } : {}),
    ...(maxAge !== undefined ? { maxAge } : {}),
    ...(params.login_hint !== undefined ? { loginHint: params.login_hint } : {}),
    ...(responseMode === 'form_post' ? { responseMode } : {}),
    ...(resources?.length ? { resources: [...new Set(resources)] } : {}),
    ...(params.dpop_jkt !== undefined ? { dpopJkt: params.dpop_jkt } : {}),
    ...(client.backchannel_logout_uri !== undefined || client.frontchannel_logout_uri !== undefined
      ? { logoutNotice: true as const }
      : {}),
    ...(isDynamic(client) ? { thirdParty: true as const } : {}),
    ...(acrValues?.length ? { acrValues } : {}),
    ...(acrClaim ? { acrClaim } : {}),
  };
  return { kind: 'ok', request, client };
}

/**
 * The `acr` request of a `claims` parameter. Only `id_token.acr` matters to this provider: other
 * claims are released by scope, and a claims request for them is voluntary (OIDC Core §5.5.1).
 */
function parseAcrClaim(json: string): AcrClaimRequest | undefined | 'invalid' {
  let claims: unknown;
  try {
    claims = JSON.parse(json);
  } catch {
    return 'invalid';
  }
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(claims)) return 'invalid';
  const idToken = claims.id_token;
  if (idToken === undefined || idToken === null) return undefined;
  if (!isObject(idToken)) return 'invalid';
  const acr = idToken.acr;
  if (acr === undefined) return undefined;
  // null: requested in the default manner (OIDC Core §5.5.1).
  if (acr === null) return { essential: false };
  if (!isObject(acr)) return 'invalid';
  const values = acr.values ?? (acr.value !== undefined ? [acr.value] : undefined);
  if (values !== undefined && (!Array.isArray(values) || values.some((v) => typeof v !== 'string')))
    return 'invalid';
  return { essential: acr.essential === true, ...(values ? { values: values as string[] } : {}) };
}

/** The client's redirect_uri with response parameters added to its query (response_mode=query). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

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
