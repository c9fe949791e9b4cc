/**
 * Every client member, declared once: its value type (values.ts), what it means (checks.ts), its
 * default, who may set it, and whether registration responses show it. `Client` (the stored
 * record), `ClientInput` (what a caller sends) and the parser (metadata.ts) are derived from this
 * table, so a new member is one entry here. The order is the record's, and so the order of
 * members in registration responses and `pqid clients list --json`.
 *
 * Who sets a member: the operator (`pqid clients add`, the demo seed, `Clients.register`), a
 * dynamic registration (RFC 7591), an update of one (RFC 7592 §2.2), or only the provider. A
 * member a party may not set is ignored in what it sends (RFC 7591 §2).
 */
import {
  availableAlg,
  browserUris,
  type CheckContext,
  codeOnly,
  frontchannelUri,
  grantTypes,
  hotPathAlg,
  publicJwks,
  reachableAcrs,
  scopeTokens,
  serverUrl,
} from './checks.ts';
import { jweAlg, jweEnc } from './encryption.ts';
import { ACCESS_TOKEN_FORMATS, ACCESS_TOKEN_STORAGES, AUTH_METHODS } from './enums.ts';
import { APPLICATION_TYPES } from './redirect-uris.ts';
import { flag, jwkSet, oneOf, seconds, strings, text, type ValueType } from './values.ts';

export type Party = 'operator' | 'registration' | 'update';

/** What a default may depend on. */
export interface DefaultContext {
  /** The server's `defaultSigningAlg`. */
  defaultAlg: string;
  /** The client's own id (assigned or chosen). */
  clientId?: string;
  /** The client's grant types (given, else their default): a machine client gets machine defaults. */
  grantTypes?: readonly string[];
}

const DEFAULT_GRANTS = ['authorization_code', 'refresh_token'];

/** Does a user sign in through this client (the code flow), or is it a machine client? */
const signsUsersIn = (ctx: DefaultContext): boolean =>
  (ctx.grantTypes ?? DEFAULT_GRANTS).includes('authorization_code');

export interface Attribute {
  type: ValueType<unknown>;
  /** Who may set it; `provider`: nobody else (assigned, or derived from another member). */
  setBy: 'provider' | readonly Party[];
  /**
   * What the record keeps: `always` (after its default), `set` (when given), `true` (a flag
   * stored only when true: absent means false), `never` (input only, e.g. the plain secret).
   */
  store: 'always' | 'set' | 'true' | 'never';
  /** Every record ever written has it (older records may lack the rest): required in `Client`. */
  required?: true;
  /** Used when the member is absent. */
  default?(ctx: DefaultContext): unknown;
  /** The default as docs/CLIENTS.md shows it, when it depends on the configuration. */
  shown?: string;
  /** Kept (and defaulted) only alongside this member. */
  when?: string;
  /** What the value means (checks.ts); returns the value as stored. */
  check?(value: unknown, ctx: CheckContext): unknown;
  /** Never shown: not in registration responses nor listings (digests of secrets). */
  hidden?: true;
  /** What it is (one line). */
  doc: string;
}

const ANYONE = ['operator', 'registration', 'update'] as const;

export const CLIENT_ATTRIBUTES = {
  client_id: {
    type: text,
    setBy: ['operator'],
    store: 'always',
    required: true,
    doc: 'chosen by the operator, else random; a registration or update cannot choose it',
  },
  client_secret: {
    type: text,
    setBy: ['operator', 'update'],
    store: 'never',
    doc: 'a secret the operator chooses (else one is generated); in an update, the current one',
  },
  client_secret_hash: {
    type: text,
    setBy: 'provider',
    store: 'set',
    hidden: true,
    doc: 'the secret, hashed (crypto/secrets.ts): the only form the provider keeps',
  },
  token_endpoint_auth_method: {
    type: oneOf(AUTH_METHODS),
    setBy: ANYONE,
    store: 'always',
    required: true,
    default: () => 'client_secret_basic',
    doc: 'how the client authenticates at the token endpoint',
  },
  redirect_uris: {
    type: strings,
    setBy: ANYONE,
    store: 'always',
    required: true,
    default: (): string[] => [],
    check: browserUris,
    doc: 'exact-match redirect targets (clients/redirect-uris.ts)',
  },
  grant_types: {
    type: strings,
    setBy: ANYONE,
    store: 'always',
    required: true,
    default: () => [...DEFAULT_GRANTS],
    check: grantTypes,
    doc: 'authorization_code, refresh_token, client_credentials',
  },
  response_types: {
    type: strings,
    setBy: ANYONE,
    store: 'always',
    required: true,
    default: (ctx: DefaultContext): string[] => (signsUsersIn(ctx) ? ['code'] : []),
    shown: '`["code"]`; `[]` without `authorization_code`',
    check: codeOnly,
    doc: '["code"] (the code flow, the only one) or [] (a machine client)',
  },
  id_token_signed_response_alg: {
    type: text,
    setBy: ANYONE,
    store: 'always',
    required: true,
    default: (ctx: DefaultContext) => ctx.defaultAlg,
    shown: "the server's `defaultSigningAlg`",
    check: hotPathAlg,
    doc: "the ID tokens' algorithm",
  },
  require_pkce: {
    type: flag,
    setBy: ANYONE,
    store: 'always',
    required: true,
    default: signsUsersIn,
    shown: '`true`; `false` without `authorization_code`',
    doc: 'PKCE S256 on every authorization request; always true for public clients',
  },
  scope: {
    type: text,
    setBy: ANYONE,
    store: 'always',
    required: true,
    default: () => 'openid profile email offline_access',
    check: scopeTokens,
    doc: 'the scopes the client may request',
  },
  client_name: {
    type: text,
    setBy: ANYONE,
    store: 'always',
    // People are always shown a name; a client registered without one is shown its client_id
    // (and `pqid clients add` warns about it).
    default: (ctx: DefaultContext) => ctx.clientId,
    shown: 'the `client_id`',
    doc: 'the application as the login, consent and sign-out pages name it',
  },
  application_type: {
    type: oneOf(APPLICATION_TYPES),
    setBy: ANYONE,
    store: 'set',
    doc: '`web` (when absent) or `native`, which may redirect to a private-use scheme',
  },
  access_token_format: {
    type: oneOf(ACCESS_TOKEN_FORMATS),
    setBy: ANYONE,
    store: 'always',
    default: () => 'reference',
    doc: 'reference (they always fit in a header), jwt (RFC 9068), or auto',
  },
  access_token_storage: {
    type: oneOf(ACCESS_TOKEN_STORAGES),
    // Where revocation is seen is the operator's call (docs/PROTOCOL.md, "Access-token storage").
    setBy: ['operator'],
    store: 'set',
    shown: '(unset: the `accessTokenStorage` setting)',
    doc: 'JWT access tokens without a resource server: stored (a record each) or stateless (verified, with a revocation denylist)',
  },
  post_logout_redirect_uris: {
    type: strings,
    setBy: ANYONE,
    store: 'always',
    default: (): string[] => [],
    check: browserUris,
    doc: 'exact-match targets of RP-initiated logout',
  },
  access_token_signed_response_alg: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: hotPathAlg,
    doc: 'JWT access tokens: the algorithm (default: the ID-token one), unless placement fixes one',
  },
  userinfo_signed_response_alg: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: hotPathAlg,
    doc: 'userinfo answers with a JWT signed with it (OIDC Core §5.3.2)',
  },
  id_token_encrypted_response_alg: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: jweAlg,
    doc: 'ID tokens are signed, then encrypted to the client\'s key for this JWE `alg` (a Nested JWT, `cty: "JWT"`); e.g. HPKE-9 (X-Wing)',
  },
  id_token_encrypted_response_enc: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: jweEnc,
    shown: 'A128CBC-HS256; none for HPKE Integrated Encryption (`HPKE-n`)',
    doc: 'the content encryption of encrypted ID tokens; refused with an HPKE Integrated Encryption `alg`, which has none',
  },
  userinfo_encrypted_response_alg: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: jweAlg,
    doc: 'userinfo answers encrypted to the client (signed first when userinfo_signed_response_alg is set; OIDC Core §5.3.2)',
  },
  userinfo_encrypted_response_enc: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: jweEnc,
    shown: 'A128CBC-HS256; none for HPKE Integrated Encryption (`HPKE-n`)',
    doc: 'the content encryption of encrypted userinfo answers',
  },
  jwks: {
    type: jwkSet,
    setBy: ANYONE,
    store: 'set',
    check: publicJwks,
    doc: "the client's public keys (private_key_jwt, request objects, encryption to it), or jwks_uri",
  },
  jwks_uri: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: serverUrl,
    doc: "where the provider fetches the client's public keys",
  },
  token_endpoint_auth_signing_alg: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: availableAlg,
    doc: 'private_key_jwt: the only algorithm accepted on client assertions',
  },
  request_object_signing_alg: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: availableAlg,
    doc: 'RFC 9101: the only algorithm accepted on request objects',
  },
  request_object_encryption_alg: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: jweAlg,
    doc: "the JWE `alg` it encrypts request objects with, one of the provider's `keys.encryptionAlgs`; declarative: any of those is accepted (OIDC Registration §2)",
  },
  request_object_encryption_enc: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: jweEnc,
    shown: 'A128CBC-HS256; none for HPKE Integrated Encryption (`HPKE-n`)',
    doc: 'the `enc` of its encrypted request objects (declarative, like the `alg`)',
  },
  introspection_signed_response_alg: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: hotPathAlg,
    doc: 'RFC 9701: introspection answers as a JWT signed with it (default: the ID-token algorithm)',
  },
  introspection_encrypted_response_alg: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: jweAlg,
    doc: 'RFC 9701: introspection answers are always a signed JWT, then encrypted to the client with it',
  },
  introspection_encrypted_response_enc: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: jweEnc,
    shown: 'A128CBC-HS256; none for HPKE Integrated Encryption (`HPKE-n`)',
    doc: 'RFC 9701: the content encryption of encrypted introspection answers',
  },
  dpop_bound_access_tokens: {
    type: flag,
    setBy: ANYONE,
    store: 'true',
    doc: 'RFC 9449 §5.2: every token request carries a DPoP proof',
  },
  require_pushed_authorization_requests: {
    type: flag,
    setBy: ANYONE,
    store: 'true',
    doc: 'RFC 9126 §6: authorization requests only through PAR',
  },
  require_signed_request_object: {
    type: flag,
    setBy: ANYONE,
    store: 'true',
    doc: 'RFC 9101 §10.5: every authorization request is a signed request object',
  },
  backchannel_logout_uri: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: serverUrl,
    doc: 'OIDC Back-Channel Logout 1.0: where logout tokens are POSTed',
  },
  backchannel_logout_session_required: {
    type: flag,
    setBy: ANYONE,
    store: 'always',
    when: 'backchannel_logout_uri',
    default: () => false,
    doc: 'logout tokens carry `sid` (always met: the provider always sends it)',
  },
  frontchannel_logout_uri: {
    type: text,
    setBy: ANYONE,
    store: 'set',
    check: frontchannelUri,
    doc: 'OIDC Front-Channel Logout 1.0: loaded in an iframe of the signed-out page',
  },
  frontchannel_logout_session_required: {
    type: flag,
    setBy: ANYONE,
    store: 'always',
    when: 'frontchannel_logout_uri',
    default: () => false,
    doc: '`iss` and `sid` are appended (always met: the provider always appends them)',
  },
  default_acr_values: {
    type: strings,
    setBy: ANYONE,
    store: 'set',
    check: reachableAcrs,
    doc: 'the classes a request gets when it names none, and the least it may get',
  },
  registration_access_token_hash: {
    type: text,
    setBy: 'provider',
    store: 'set',
    hidden: true,
    doc: 'RFC 7592: the digest of the registration access token (dynamically registered clients)',
  },
  client_id_issued_at: {
    type: seconds,
    setBy: 'provider',
    store: 'set',
    doc: 'RFC 7591 §3.2.1: when the client was registered (every registration; shown to dynamically registered ones). Tokens issued before it belong to an earlier client of the same id and are not honoured',
  },
} as const satisfies Record<string, Attribute>;

type Attributes = typeof CLIENT_ATTRIBUTES;
export type ClientMember = keyof Attributes;

/** A member's value as read from a caller. */
type InputOf<K extends ClientMember> = Attributes[K]['type'] extends ValueType<infer T> ? T : never;
/** A member's value as stored: what its check returns, else what was read. */
type StoredOf<K extends ClientMember> = Attributes[K] extends { check: (...args: never[]) => infer O }
  ? Awaited<O>
  : InputOf<K>;

type Where<C> = { [K in ClientMember]: Attributes[K] extends C ? K : never }[ClientMember];
type Flat<T> = { [K in keyof T]: T[K] };

/** Members some caller may set. */
export type InputMember = Exclude<ClientMember, Where<{ setBy: 'provider' }>>;

/** Client metadata as a caller supplies it (CLI flags, a registration request, tests). */
export type ClientInput = Flat<{ [K in InputMember]?: InputOf<K> }>;

type RequiredMember = Where<{ required: true }>;
type OptionalMember = Exclude<ClientMember, RequiredMember | Where<{ store: 'never' }>>;

/** A registered client, as stored (and read through the `Client` model). */
export type Client = Flat<{ [K in RequiredMember]: StoredOf<K> } & { [K in OptionalMember]?: StoredOf<K> }>;

/** Typed iteration over the table. */
export const MEMBERS = Object.keys(CLIENT_ATTRIBUTES) as ClientMember[];

export const attribute = (m: ClientMember): Attribute => CLIENT_ATTRIBUTES[m];

/** May `party` set member `m`? */
export function settableBy(m: ClientMember, party: Party): boolean {
  const { setBy } = attribute(m);
  return setBy !== 'provider' && setBy.includes(party);
}
