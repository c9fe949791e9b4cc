/**
 * Client metadata through the attribute table (attributes.ts): read from untrusted JSON, given
 * its defaults, checked member by member (checks.ts) and by the rules that tie members together
 * (below), and kept as a record in the table's order. One set of rules for every way in.
 */
import type { OutboundAllowlist } from '../policy/addresses.ts';
import {
  attribute,
  CLIENT_ATTRIBUTES,
  type Client,
  type ClientInput,
  type ClientMember,
  type DefaultContext,
  MEMBERS,
  type Party,
  settableBy,
} from './attributes.ts';
import type { CheckContext } from './checks.ts';
import { ClientError } from './client-error.ts';
import { checkEncryption } from './encryption.ts';

type Values = Partial<Record<ClientMember, unknown>>;

/**
 * The one place where the table's members, read one by one, become its derived type: each value
 * went through its member's `type.read` (and `check`), so it has the type the table gives it.
 */
const fromTable = <T>(values: Values): T => values as T;

const isMember = (m: string | undefined): m is ClientMember => m !== undefined && m in CLIENT_ATTRIBUTES;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Client metadata from untrusted JSON: every member `party` may set checked for its type, the
 * others dropped, as are unknown members (RFC 7591 §2: a server ignores metadata it does not
 * understand).
 */
export function parseClientMetadata(raw: unknown, party: Party = 'operator'): ClientInput {
  if (!isObject(raw)) throw new ClientError('client metadata must be a JSON object');
  const out: Values = {};
  for (const m of MEMBERS)
    if (raw[m] !== undefined && settableBy(m, party)) out[m] = attribute(m).type.read(raw[m], m);
  return fromTable<ClientInput>(out);
}

export interface ResolveContext extends DefaultContext {
  /** Registered by an anonymous party (RFC 7591): the strict URI and outbound rules. */
  dynamic: boolean;
  /** Accept SLH-DSA where the provider signs per token (keys.allowSlhDsaHotPath). */
  allowSlowSigners: boolean;
  /** `outbound.allow` (clients/outbound.ts). */
  allow: OutboundAllowlist;
  /** The provider's encryption key algorithms (`keys.encryptionAlgs`); absent: not checked. */
  encryptionAlgs?: readonly string[] | undefined;
}

/** Members kept only alongside another (`when`) are dropped without it. */
const present = (values: Values, m: ClientMember): boolean => {
  const { when } = attribute(m);
  return values[m] !== undefined && (!isMember(when) || values[when] !== undefined);
};

function withDefaults(input: ClientInput, ctx: DefaultContext): Values {
  const values: Values = { ...input };
  for (const m of MEMBERS) {
    const a = attribute(m);
    if (values[m] === undefined && a.default && (!isMember(a.when) || present(values, a.when)))
      // grant_types comes first in the table: what follows may default by it.
      values[m] = a.default({ ...ctx, grantTypes: values.grant_types as string[] | undefined });
  }
  return values;
}

/** Each member's check, in the table's order (a front-channel URI needs the redirect URIs checked). */
async function checkMembers(values: Values, ctx: ResolveContext): Promise<void> {
  const application = values.application_type === 'native' ? 'native' : 'web';
  const base: Omit<CheckContext, 'field'> = {
    uris: { applicationType: application, dynamic: ctx.dynamic },
    trust: ctx.dynamic ? 'dynamic' : 'operator',
    allow: ctx.allow,
    allowSlowSigners: ctx.allowSlowSigners,
    get redirectUris() {
      return Array.isArray(values.redirect_uris) ? values.redirect_uris : [];
    },
  };
  for (const m of MEMBERS) {
    const { check } = attribute(m);
    if (check && present(values, m)) values[m] = await check(values[m], { ...base, field: m });
  }
}

/** Rules that tie members together: the grants, the auth method and the client's keys. */
function checkTogether(c: Client): void {
  if (c.grant_types.includes('authorization_code') && c.redirect_uris.length === 0)
    throw new ClientError('the authorization_code grant needs at least one redirect_uri', 'redirect_uris');
  if (c.grant_types.includes('authorization_code') && c.response_types.length === 0)
    throw new ClientError('the authorization_code grant needs response_types ["code"]', 'response_types');
  if (c.token_endpoint_auth_method === 'none' && c.grant_types.includes('client_credentials'))
    throw new ClientError('a public client cannot use client_credentials', 'grant_types');
  if (c.jwks !== undefined && c.jwks_uri !== undefined)
    throw new ClientError('register jwks or jwks_uri, not both', 'jwks');
  const hasKeys = c.jwks !== undefined || c.jwks_uri !== undefined;
  if (c.token_endpoint_auth_method === 'private_key_jwt') {
    if (!hasKeys) throw new ClientError('private_key_jwt needs jwks or jwks_uri', 'jwks');
    // The alg is pinned per client so an attacker cannot pick a weaker one for the assertion.
    if (c.token_endpoint_auth_signing_alg === undefined)
      throw new ClientError(
        'private_key_jwt needs token_endpoint_auth_signing_alg',
        'token_endpoint_auth_signing_alg',
      );
  }
  if ((c.request_object_signing_alg !== undefined || c.require_signed_request_object) && !hasKeys)
    throw new ClientError('signed request objects need the client keys: jwks or jwks_uri', 'jwks');
}

/** The record's members in the table's order, each as its `store` rule says. */
export function inTableOrder(values: Values): Client {
  const out: Values = {};
  for (const m of MEMBERS) {
    const { store } = attribute(m);
    if (store === 'never' || !present(values, m)) continue;
    if (store === 'true' && values[m] !== true) continue;
    out[m] = values[m];
  }
  return fromTable<Client>(out);
}

/**
 * A client record from its input: defaults, every member's check, the rules between members.
 * `clientId` is assigned by the caller; secrets and registration members are added by it too.
 */
export async function resolveClient(
  input: ClientInput,
  clientId: string,
  ctx: ResolveContext,
): Promise<Client> {
  const values = withDefaults({ ...input, client_id: clientId }, { ...ctx, clientId });
  await checkMembers(values, ctx);
  checkTogether(inTableOrder(values));
  // Sets the `_enc` defaults, before the record takes the table's order.
  await checkEncryption(values, ctx.encryptionAlgs);
  const client = inTableOrder(values);
  // PKCE S256 is on by default and cannot be turned off for public clients.
  if (client.token_endpoint_auth_method === 'none') client.require_pkce = true;
  return client;
}

/** Public view of a client: every member but the hidden ones (digests of secrets). */
export function describeClient(
  client: Client,
): Omit<Client, 'client_secret_hash' | 'registration_access_token_hash'> {
  const out: Record<string, unknown> = {};
  for (const [m, v] of Object.entries(client)) if (!(isMember(m) && attribute(m).hidden)) out[m] = v;
  return fromTable(out);
}
