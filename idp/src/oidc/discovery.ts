/**
 * Discovery (OIDC Discovery §3): what this provider supports, read from the modules that
 * implement it. Every algorithm the registry offers is listed for verification.
 */
import { algorithms, contentEncryptionRegistry, jweRegistry } from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import { ACCESS_TOKEN_FORMATS } from '../clients/clients.ts';
import { endpoints, type IdpContext } from '../context.ts';
import { advertisedSigningAlgs } from '../keys/hot-path.ts';
import { ACR_VALUES } from '../signin/auth-context.ts';
import { PROMPT_VALUES, RESPONSE_MODES, supportedScopes } from './authorization/request.ts';
import { GRANT_TYPES_SUPPORTED } from './grants/index.ts';
import { signedJwksUrl } from './jwks.ts';
import { parUrl } from './par.ts';
import { registrationUrl } from './registration/response.ts';
import { AUTH_METHODS } from './shared/client-auth.ts';
import { dpopAlgorithms } from './shared/dpop.ts';
import { jsonErrorHandler } from './shared/errors.ts';

/**
 * What the provider encrypts to clients (any JWE `alg` of the registry: the key is the client's)
 * and decrypts (request objects: the `alg`s it has keys for). HPKE Integrated Encryption `alg`s
 * use no `enc`; the `enc` lists serve every other one.
 */
function encryptionMetadata(ctx: IdpContext): Record<string, string[]> {
  const toClients = jweRegistry().map((e) => e.alg);
  const encs = contentEncryptionRegistry().map((e) => e.enc);
  return {
    id_token_encryption_alg_values_supported: toClients,
    id_token_encryption_enc_values_supported: encs,
    userinfo_encryption_alg_values_supported: toClients,
    userinfo_encryption_enc_values_supported: encs,
    // RFC 9701 §7 (JWT introspection responses).
    introspection_signing_alg_values_supported: advertisedSigningAlgs(ctx.config, 'idToken'),
    introspection_encryption_alg_values_supported: toClients,
    introspection_encryption_enc_values_supported: encs,
    request_object_encryption_alg_values_supported: [...ctx.config.keys.encryptionAlgs],
    request_object_encryption_enc_values_supported: encs,
  };
}

export function discoveryDocument(ctx: IdpContext): Record<string, unknown> {
  const ep = endpoints(ctx.config.issuer);
  const algs = algorithms();
  return {
    issuer: ctx.config.issuer,
    authorization_endpoint: ep.authorization,
    token_endpoint: ep.token,
    userinfo_endpoint: ep.userinfo,
    jwks_uri: ep.jwks,
    // OpenID Federation 1.0 metadata: the JWKS signed by the cold-path root (signed-jwks.ts).
    ...(ctx.config.keys.signedJwks ? { signed_jwks_uri: signedJwksUrl(ctx.config.issuer) } : {}),
    introspection_endpoint: `${ctx.config.issuer}/introspect`,
    revocation_endpoint: `${ctx.config.issuer}/revoke`,
    end_session_endpoint: `${ctx.config.issuer}/end_session`,
    ...(ctx.config.registration.mode !== 'off'
      ? { registration_endpoint: registrationUrl(ctx.config.issuer) }
      : {}),
    scopes_supported: supportedScopes(ctx.config),
    response_types_supported: ['code'],
    response_modes_supported: [...RESPONSE_MODES],
    grant_types_supported: [...GRANT_TYPES_SUPPORTED],
    subject_types_supported: ['public'],
    // What the IdP signs with per token: placement's fixed algorithm, else what clients may
    // register (SLH-DSA only with keys.allowSlhDsaHotPath). Verification lists stay complete.
    id_token_signing_alg_values_supported: advertisedSigningAlgs(ctx.config, 'idToken'),
    userinfo_signing_alg_values_supported: advertisedSigningAlgs(ctx.config, 'userinfo'),
    token_endpoint_auth_methods_supported: [...AUTH_METHODS],
    token_endpoint_auth_signing_alg_values_supported: algs,
    introspection_endpoint_auth_methods_supported: AUTH_METHODS.filter((m) => m !== 'none'),
    introspection_endpoint_auth_signing_alg_values_supported: algs,
    revocation_endpoint_auth_methods_supported: [...AUTH_METHODS],
    revocation_endpoint_auth_signing_alg_values_supported: algs,
    // Not registered metadata: tells clients which formats access_token_format accepts.
    access_token_formats_supported: [...ACCESS_TOKEN_FORMATS],
    code_challenge_methods_supported: ['S256'],
    // RFC 9449 §5.1: ML-DSA, composites and classical; not SLH-DSA (shared/dpop.ts says why).
    dpop_signing_alg_values_supported: dpopAlgorithms(),
    claims_supported: [
      'sub',
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'acr',
      'amr',
      'nonce',
      'sid',
      'name',
      'preferred_username',
      'email',
      'email_verified',
    ],
    prompt_values_supported: [...PROMPT_VALUES],
    // Weakest first; a class is met by any stronger one (signin/auth-context.ts).
    acr_values_supported: [...ACR_VALUES],
    authorization_response_iss_parameter_supported: true,
    // OIDC Back-Channel Logout 1.0: logout tokens always carry sid, and ID tokens do too.
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    // OIDC Front-Channel Logout 1.0: iss and sid are always appended to the iframe's URI.
    frontchannel_logout_supported: true,
    frontchannel_logout_session_supported: true,
    // Read for `id_token.acr` (OIDC Core §5.5.1.1), in a query, a request object or a pushed
    // request alike; other claims follow the granted scopes.
    claims_parameter_supported: true,
    // JAR (RFC 9101): signed request objects, by value or pushed, optionally encrypted to the
    // provider's `enc` keys; never `none`.
    request_parameter_supported: true,
    request_object_signing_alg_values_supported: algs,
    ...encryptionMetadata(ctx),
    // request_uri only as a PAR urn, never fetched from a URL (OIDC Discovery's meaning).
    request_uri_parameter_supported: false,
    pushed_authorization_request_endpoint: parUrl(ctx.config.issuer),
    require_pushed_authorization_requests: ctx.config.par.required,
  };
}

export async function discoveryRoutes(app: FastifyInstance, { ctx }: { ctx: IdpContext }): Promise<void> {
  app.setErrorHandler(jsonErrorHandler);
  app.get('/.well-known/openid-configuration', async (_req, reply) =>
    reply
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .send(discoveryDocument(ctx)),
  );
}
