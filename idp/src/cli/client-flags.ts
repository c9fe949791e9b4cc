/**
 * `pqid clients add`'s flags and the client metadata they make: each simple flag names the member
 * it sets (clients/attributes.ts); a `--metadata` file gives the rest, and flags override it.
 */
import { readFileSync } from 'node:fs';
import type { parseArgs } from 'node:util';
import {
  ACCESS_TOKEN_FORMATS,
  ACCESS_TOKEN_STORAGES,
  AUTH_METHODS,
  type ClientInput,
  GRANT_TYPES,
  parseClientMetadata,
} from '../clients/clients.ts';
import { UsageError } from './common.ts';
import { TRANSPORTS, type Transport } from './token-fit.ts';

export const ADD_OPTIONS = {
  id: { type: 'string' },
  name: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  alg: { type: 'string' },
  'auth-method': { type: 'string' },
  'auth-alg': { type: 'string' },
  public: { type: 'boolean', default: false },
  'access-token-format': { type: 'string' },
  'access-token-storage': { type: 'string' },
  grant: { type: 'string', multiple: true },
  scope: { type: 'string' },
  acr: { type: 'string', multiple: true },
  'post-logout-redirect-uri': { type: 'string', multiple: true },
  jwks: { type: 'string' },
  'jwks-uri': { type: 'string' },
  'dpop-bound': { type: 'boolean' },
  'require-par': { type: 'boolean' },
  'request-object-alg': { type: 'string' },
  'id-token-encryption': { type: 'string' },
  'userinfo-encryption': { type: 'string' },
  'introspection-encryption': { type: 'string' },
  'request-object-encryption': { type: 'string' },
  'backchannel-logout-uri': { type: 'string' },
  'frontchannel-logout-uri': { type: 'string' },
  metadata: { type: 'string' },
  fits: { type: 'string' },
  yes: { type: 'boolean', default: false },
  config: { type: 'string' },
} as const;

/** What `parseArgs` gives for ADD_OPTIONS. */
export type AddValues = ReturnType<typeof parseArgs<{ options: typeof ADD_OPTIONS }>>['values'];

/** `value` if it is one of `allowed`, else a usage error naming the flag. */
export function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T;
export function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
): T | undefined;
export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string) {
  if (value === undefined) return undefined;
  const found = allowed.find((a) => a === value);
  if (found === undefined)
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`);
  return found;
}

function readJson(path: string, flag: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`${flag}: cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${flag}: ${path} is not JSON: ${(e as Error).message}`);
  }
}

/** A JSON client-metadata document, type-checked like a registration request. */
function readMetadata(path: string): ClientInput {
  try {
    return parseClientMetadata(readJson(path, '--metadata'));
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`--metadata: ${(e as Error).message}`);
  }
}

/** `--X-encryption ALG[,ENC]`: the pair of members `prefix_alg`/`prefix_enc` (clients/encryption.ts). */
function encryptionPair(
  value: string | undefined,
  alg: keyof ClientInput,
  enc: keyof ClientInput,
): ClientInput {
  if (value === undefined) return {};
  const [a, e, ...rest] = value.split(',').map((p) => p.trim());
  if (!a || rest.length > 0 || e === '')
    throw new UsageError(`${String(alg)}: expected ALG or ALG,ENC; got ${JSON.stringify(value)}`);
  return { [alg]: a, ...(e !== undefined ? { [enc]: e } : {}) };
}

/** The encryption pairs the `--*-encryption` flags set. */
function encryptionMembers(values: AddValues): ClientInput {
  return {
    ...encryptionPair(
      values['id-token-encryption'],
      'id_token_encrypted_response_alg',
      'id_token_encrypted_response_enc',
    ),
    ...encryptionPair(
      values['userinfo-encryption'],
      'userinfo_encrypted_response_alg',
      'userinfo_encrypted_response_enc',
    ),
    ...encryptionPair(
      values['introspection-encryption'],
      'introspection_encrypted_response_alg',
      'introspection_encrypted_response_enc',
    ),
    ...encryptionPair(
      values['request-object-encryption'],
      'request_object_encryption_alg',
      'request_object_encryption_enc',
    ),
  };
}

/** The members the other flags set, when given. */
function flagMembers(values: AddValues): ClientInput {
  const text = (v: string | undefined, member: keyof ClientInput) => (v !== undefined ? { [member]: v } : {});
  return {
    ...text(values.id, 'client_id'),
    ...text(values.name, 'client_name'),
    ...text(values.alg, 'id_token_signed_response_alg'),
    ...text(values.scope, 'scope'),
    ...(values.acr?.length ? { default_acr_values: values.acr } : {}),
    ...(values['post-logout-redirect-uri']
      ? { post_logout_redirect_uris: values['post-logout-redirect-uri'] }
      : {}),
    // The JWK set as read: registration checks it like the same member of a metadata document.
    ...(values.jwks !== undefined ? { jwks: readJson(values.jwks, '--jwks') as ClientInput['jwks'] } : {}),
    ...text(values['jwks-uri'], 'jwks_uri'),
    ...(values['dpop-bound'] ? { dpop_bound_access_tokens: true } : {}),
    ...(values['require-par'] ? { require_pushed_authorization_requests: true } : {}),
    ...text(values['auth-alg'], 'token_endpoint_auth_signing_alg'),
    ...text(values['request-object-alg'], 'request_object_signing_alg'),
    ...text(values['backchannel-logout-uri'], 'backchannel_logout_uri'),
    ...text(values['frontchannel-logout-uri'], 'frontchannel_logout_uri'),
    ...encryptionMembers(values),
  };
}

/** The client `add` registers, and where its tokens must fit; usage errors for what is wrong. */
export function clientFromFlags(values: AddValues): { input: ClientInput; needs: Transport[] } {
  const fromFile = values.metadata === undefined ? undefined : readMetadata(values.metadata);
  const redirects = values['redirect-uri'] ?? fromFile?.redirect_uris ?? [];
  const grants = (values.grant ?? []).map((g) => oneOf(g, GRANT_TYPES, '--grant'));
  const allGrants = grants.length ? grants : (fromFile?.grant_types ?? []);
  if (redirects.length === 0 && !(allGrants.length === 1 && allGrants[0] === 'client_credentials'))
    throw new UsageError('--redirect-uri is required (repeat it for several)');
  let method = oneOf(values['auth-method'], AUTH_METHODS, '--auth-method');
  if (values.public) {
    if (method !== undefined && method !== 'none')
      throw new UsageError('--public means --auth-method none; drop one of them');
    method = 'none';
  }
  const format = oneOf(values['access-token-format'], ACCESS_TOKEN_FORMATS, '--access-token-format');
  const storage = oneOf(values['access-token-storage'], ACCESS_TOKEN_STORAGES, '--access-token-storage');
  const needs = (values.fits ?? 'cookie,header')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((t) => oneOf(t, TRANSPORTS, '--fits'));
  const input: ClientInput = {
    ...fromFile,
    redirect_uris: redirects,
    ...(method !== undefined ? { token_endpoint_auth_method: method } : {}),
    ...(format !== undefined ? { access_token_format: format } : {}),
    ...(storage !== undefined ? { access_token_storage: storage } : {}),
    ...(grants.length ? { grant_types: grants } : {}),
    ...flagMembers(values),
  };
  return { input, needs };
}
