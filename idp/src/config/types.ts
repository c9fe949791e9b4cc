/**
 * The shape of the configuration: one interface per section. Defaults, environment variables,
 * descriptions and checks are in table.ts; everything that reads configuration imports its
 * section's type from here.
 */
import type { XmlLimits } from '@pqid/xmldsig';
import type { SamlSigningAlg } from '../policy/algorithms.ts';
import type { KeySet } from '../policy/key-sets.ts';
import type { PasskeyAlg } from '../policy/passkeys.ts';

export interface DemoConfig {
  /** Seed the demo user and client on first start. */
  enabled: boolean;
  username: string;
  password: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  idTokenSignedResponseAlg: string;
}

export interface TtlConfig {
  /** Authorization codes: single use, short-lived (seconds). */
  authorizationCode: number;
  accessToken: number;
  idToken: number;
  refreshToken: number;
  session: number;
  interaction: number;
}

export interface Config extends ProtocolConfig {
  port: number;
  host: string;
  /**
   * Addresses and CIDR ranges of the reverse proxies in front of the IdP, whose
   * `X-Forwarded-For` names the client; empty: the connecting address is the client.
   */
  trustProxy: string[];
  /** Issuer identifier without a trailing slash. */
  issuer: string;
  dataDir: string;
  /** Storage location: `sqlite:<path>` (default `<dataDir>/pqid.sqlite`) or `postgres://…`. */
  databaseUrl: string;
  /** Algorithm for clients that do not register one, and for the first key generated. */
  defaultSigningAlg: string;
  ttl: TtlConfig;
  /** Body size limit for every endpoint; PQ tokens are large but requests need not be. */
  bodyLimit: number;
  logLevel: string;
  demo: DemoConfig;
  /**
   * `auto` access tokens fall back to reference tokens when `Authorization: Bearer <jwt>` would
   * exceed this many bytes (nginx/Apache default header line limit).
   */
  accessTokenHeaderBudget: number;
  /** Algorithm for JWT access tokens; absent = the client's `id_token_signed_response_alg`. */
  accessTokenSigningAlg?: string;
  /** How JWT access tokens are kept when neither their resource nor their client says. */
  accessTokenStorage: AccessTokenStorage;
  /**
   * Seconds between sweeps that delete expired codes, tokens, sessions and grant tombstones
   * (reads already ignore them; the sweep reclaims the space). 0 turns the sweep off.
   */
  purgeInterval: number;
  /**
   * Seconds a client record read from storage is reused by this instance (whole seconds, 0–60;
   * 0 reads it on every request). Writes through this instance take effect at once; a change
   * made by another instance or `pqid clients` lands here within this time.
   */
  clientCacheTtl: number;
  /** When set, GET /metrics requires `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string;
  /** Key placement and rotation timing. */
  keys: KeysConfig;
  /** Login brute-force limits. */
  loginLimits: LoginLimitsConfig;
  /** SAML IdP: root key algorithm, metadata keys, lifetimes. */
  saml: SamlConfig;
  /** Passkeys (WebAuthn): relying party, algorithms, challenge lifetime. */
  passkeys: PasskeysConfig;
}

/** `client`: the algorithm the caller passes (the client's registration); otherwise a fixed alg. */
export type PlacementTarget = 'client' | (string & {});

export interface Placement {
  idToken: PlacementTarget;
  accessToken: PlacementTarget;
  userinfo: PlacementTarget;
  /**
   * The cold-path root's algorithm (key set `root`): always fixed, there is no client to ask.
   * `auto`: the existing root's algorithm, else `defaultColdAlg()` for a new store.
   */
  cold: 'auto' | (string & {});
}

/** An external key provider (KMS/HSM) named in `keys.signers`. */
export type ExternalSignerConfig =
  /**
   * A module of your own (an AWS KMS or Vault adapter, …): it exports
   * `createKeyProvider(options, { env })` returning an ExternalKeyProvider (keys/custody.ts).
   */
  | { type: 'module'; module: string; options?: Record<string, unknown> }
  /** A PKCS#11 token (keys/pkcs11.ts). */
  | {
      type: 'pkcs11';
      /** Path of the PKCS#11 module (.so). */
      library: string;
      /** The token, by label. */
      token: string;
      /** Environment variable holding the user PIN (never the PIN itself in the file). */
      pinEnv: string;
      /** Environment variables the module needs (e.g. its configuration file). */
      env?: Record<string, string>;
    };

export interface KeysConfig {
  /** Which algorithm signs which object; `client` follows the client's registration. */
  placement: Placement;
  /** Seconds a rotated-in key is published before it signs (≥ JWKS cache max-age, 300 s). */
  prepublish: number;
  /** Longest lifetime of a cold-path object (signed metadata, signed JWKS), seconds: retention of the root. */
  coldLifetime: number;
  /** Seconds between re-reads of the key store (picks up `pqid keys rotate` from another process). */
  refreshInterval: number;
  /**
   * Publish the cold-path root key (key set `root`, the SAML root) in /jwks as well. Off by
   * default: nothing verifies a JWT with it, and a key that is not published is not trusted.
   */
  publishRoot: boolean;
  /**
   * Serve the OIDC JWKS also as a JWT signed by the cold-path root (`/jwks.jwt`, advertised as
   * `signed_jwks_uri`; OpenID Federation 1.0 "Signed JWK Set"). Default false.
   */
  signedJwks: boolean;
  /**
   * Let clients, SAML SPs and placement put SLH-DSA on the hot path (a signature per token). Off
   * by default: SLH-DSA costs tens to hundreds of milliseconds per signature (docs/KEYS.md).
   */
  allowSlhDsaHotPath: boolean;
  /** External key providers (KMS/HSM) by name. */
  signers: Record<string, ExternalSignerConfig>;
  /** Where each set's new keys are made: `sealed` (default) or the name of one of `signers`. */
  custody: Partial<Record<KeySet, string>>;
  /**
   * The JWE algorithms of the IdP's own encryption keys (the `enc` set, published with
   * `use: "enc"`): one key each, made at start. Clients encrypt request objects to them.
   */
  encryptionAlgs: string[];
}

export interface LoginLimitsConfig {
  /** Sliding window, seconds: failures older than this no longer count, and a lockout ends. */
  window: number;
  /** Failed logins for one username (existing or not) within the window before it is locked. */
  maxFailuresPerAccount: number;
  /** Failed logins from one client address within the window (password spraying). */
  maxFailuresPerAddress: number;
}

export interface SamlConfig {
  /** Turn the SAML endpoints off entirely. */
  enabled: boolean;
  /** The IdP entityID; default `<issuer>/saml/metadata`. */
  entityId?: string;
  /**
   * Older name of `keys.placement.cold` (the root that certifies signing keys and signs the
   * metadata): set only when configured; loadConfig folds it into keys.placement.cold.
   */
  rootAlg?: string;
  /** Hot algorithms always published in the metadata (SP registrations add theirs). */
  metadataAlgs: SamlSigningAlg[];
  /** Default algorithm for SPs that register none. */
  defaultAlg: SamlSigningAlg;
  /** Seconds an assertion (Conditions, SubjectConfirmationData) stays valid. */
  assertionLifetime: number;
  /** Seconds an AuthnRequest/LogoutRequest may be old (IssueInstant); also the replay window. */
  requestMaxAge: number;
  /** Bytes an inflated or decoded request may have. */
  maxRequestBytes: number;
  /**
   * Shape limits on every AuthnRequest and LogoutRequest, checked before it is parsed: elements,
   * depth, children and attributes per element (bytes alone do not bound the work; see
   * docs/SAML.md, "Work limits"). Default: @pqid/xmldsig's DEFAULT_SAML_LIMITS.
   */
  requestLimits: XmlLimits;
  /** Validity of the certificates of the hot keys and of the root, days. */
  leafCertificateDays: number;
  rootCertificateDays: number;
  /** Seconds the signed metadata is valid (validUntil) and cached by SPs. */
  metadataValidity: number;
}

export interface PasskeysConfig {
  /** Offer passkeys at all (login page, account page, second factor). */
  enabled: boolean;
  /** WebAuthn RP ID: the issuer's host (default) or a registrable domain suffix of it. */
  rpId?: string;
  /** The relying party's name as authenticators show it. */
  rpName: string;
  /** Seconds a challenge is valid; also the timeout the browser is given. */
  challengeTtl: number;
  /**
   * Credential algorithms offered at registration, most preferred first. ML-DSA is offered only
   * where this Node verifies it (WebCrypto ML-DSA, Node ≥ 24.7).
   */
  algorithms: PasskeyAlg[];
  /**
   * Adding or removing a passkey needs a sign-in at most this many seconds old; a redeemed
   * enrolment code lets its session add the first passkey for as long.
   */
  manageMaxAge: number;
}

export interface DpopConfig {
  /** Larger `DPoP` headers are refused with invalid_dpop_proof (an ML-DSA-87 composite proof is ~11.3 KB). */
  maxProofBytes: number;
  /** Seconds a proof's `iat` may differ from now, either way; also how long its `jti` is remembered. */
  iatWindow: number;
  /** Every proof must carry a current server nonce (`DPoP-Nonce`, RFC 9449 §8). */
  requireNonce: boolean;
  /** Seconds one nonce is current; the previous one is still accepted, so a nonce lives 1–2×. */
  nonceLifetime: number;
}

export interface ParConfig {
  /** Every client must push its authorization requests (RFC 9126 §5). */
  required: boolean;
  /** Seconds a `request_uri` stays usable (once). */
  requestUriLifetime: number;
}

export type RegistrationMode = 'off' | 'open' | 'token';

export interface RegistrationConfig {
  /** `off`: no registration endpoint; `open`: anyone may register; `token`: an initial access token is needed. */
  mode: RegistrationMode;
  /** The initial access token for `token` mode (RFC 7591 §3): a bearer token of at least 16 characters. */
  initialAccessToken?: string;
  /** Open mode: registration requests per client address within `window`. */
  maxPerAddress: number;
  /** Seconds, the sliding window of `maxPerAddress`. */
  window: number;
}

export interface ResourceServerConfig {
  /** The resource indicator (RFC 8707 §2): absolute URI without fragment, the `aud` of its tokens. */
  uri: string;
  /** Scopes this resource accepts; its access tokens carry only granted scopes from this list. */
  scope: string[];
  /** Algorithm of its JWT access tokens (default: the client's access-token algorithm). */
  accessTokenSigningAlg?: string;
  /** `jwt` (default: the resource verifies locally) or `reference` (it introspects). */
  accessTokenFormat: 'jwt' | 'reference';
  /** How its JWT access tokens are kept; absent: the client's, then the configured default. */
  accessTokenStorage?: AccessTokenStorage;
}

/**
 * How a JWT access token is kept. `stored`: a record per token under its digest, which
 * introspection, userinfo and revocation look up. `stateless`: nothing per token; introspection
 * and userinfo verify its signature and consult a denylist that revocation writes.
 */
export type AccessTokenStorage = 'stored' | 'stateless';
export const ACCESS_TOKEN_STORAGES: readonly AccessTokenStorage[] = ['stored', 'stateless'];

export interface BackchannelLogoutConfig {
  /** Deliveries in flight at once, over all sign-outs of this instance. */
  concurrency: number;
  /** Tries per RP before giving up (1 = no retry). */
  attempts: number;
  /** Seconds one POST may take (fractions allowed). */
  timeout: number;
  /** Seconds before the first retry, doubled for each further one (fractions allowed). */
  retryDelay: number;
  /** Seconds between looks at the shared outbox for deliveries no live instance works on. */
  sweepInterval: number;
}

export interface OutboundConfig {
  /**
   * Host names, IP addresses and CIDR ranges that dynamically registered clients may make the
   * provider reach although they are internal (loopback, private, link-local, …), and over http.
   * Empty by default: such clients reach public https URLs only (clients/outbound.ts).
   */
  allow: string[];
}

export interface RequestObjectConfig {
  /**
   * Refuse request objects without a `jti`. Off by default (RFC 9101 makes `jti` optional);
   * a `jti`, when present, is accepted once in any case.
   */
  requireJti: boolean;
}

export interface ProtocolConfig {
  /** Node's limit on the request line plus all headers (http `maxHeaderSize`), bytes. */
  maxHeaderBytes: number;
  dpop: DpopConfig;
  par: ParConfig;
  registration: RegistrationConfig;
  /** Keyed by resource indicator. */
  resourceServers: Record<string, ResourceServerConfig>;
  backchannelLogout: BackchannelLogoutConfig;
  outbound: OutboundConfig;
  requestObjects: RequestObjectConfig;
}
