/**
 * The storage contract, modelled on node-oidc-provider's adapter: one adapter per model name,
 * records are JSON payloads with an optional expiry, and everything issued under one grant can
 * be revoked at once (code reuse, refresh-token reuse). A PostgreSQL implementation must only
 * satisfy this interface.
 */
import type { FailureStore } from '../security/failure-store.ts';

export type ModelName =
  | 'Account'
  | 'Client'
  | 'SigningKey'
  | 'Session'
  | 'Interaction'
  | 'AuthorizationCode'
  | 'AccessToken'
  | 'RefreshToken'
  /** Revoked stateless JWT access tokens, by `jti:` or `grant:` id, until they expire (storage/denylist.ts). */
  | 'AccessTokenDenylist'
  /** Remembered consent per (account, client). */
  | 'Consent'
  /** Seen private_key_jwt `jti`s, kept until the assertion expires (replay detection). */
  | 'ClientAssertion'
  /** Pushed authorization requests (RFC 9126) by request_uri digest: one use, short-lived. */
  | 'PushedAuthorizationRequest'
  /** Seen request-object `jti`s (RFC 9101), kept until the object expires. */
  | 'RequestObject'
  /** Clients that got a code in a browser session, by `sid` (oidc/logout/session-clients.ts). */
  | 'SessionClients'
  /** Back-channel logout notices not yet delivered, one per (sid, client): the outbox (oidc/logout/outbox.ts). */
  | 'LogoutDelivery'
  /** Seen DPoP proofs (key thumbprint + `jti`), kept while their `iat` is acceptable (oidc/shared/dpop.ts). */
  | 'DPoPProof'
  /** Short-lived claims that let one instance do a one-time job (first key, demo seed): storage/lock.ts. */
  | 'Lock'
  /** Passkeys (WebAuthn credentials) by credential ID, uid = the owner's account (signin/passkeys). */
  | 'WebAuthnCredential'
  /** Outstanding WebAuthn challenges, one per ceremony owner, single use (signin/passkeys). */
  | 'WebAuthnChallenge'
  /** Which sessions and grants each passkey authenticated, uid = the credential (signin/uses.ts). */
  | 'PasskeyUse'
  /** Which sessions and grants each account signed in, uid = the account; a password change takes them back (signin/uses.ts). */
  | 'AccountUse'
  /** Operator-issued enrolment codes for a first passkey, and the sessions that redeemed one (signin/passkeys/enrolment.ts). */
  | 'PasskeyEnrolment'
  /** SAML SPs that received an assertion in a browser session, by `sid` (saml/session-sps.ts). */
  | 'SamlSessionSps'
  /** Registered SAML service providers, by entityID (saml/sps.ts). */
  | 'SamlServiceProvider'
  /** X.509 certificates of the SAML signing keys by kid, and the pairwise NameID salt (saml/certificates.ts). */
  | 'SamlCertificate';

export interface Payload {
  [member: string]: unknown;
  /** Ties records issued from one authorization together (revokeByGrantId). */
  grantId?: string;
  /** A secondary lookup key (e.g. a username for Account). */
  uid?: string;
  /** Epoch seconds when consumed; set by the store, never by callers. */
  consumed?: number;
}

export interface Adapter {
  /**
   * Create or replace; `expiresIn` seconds from now, absent for records that never expire.
   * A record whose `grantId` was revoked with `Storage.revokeGrant` is silently not stored.
   */
  upsert(id: string, payload: Payload, expiresIn?: number): Promise<void>;
  /**
   * Create only if there is no live record under `id` (an expired one is replaced), atomically:
   * of concurrent calls for one id, on any number of instances, exactly one returns true. For
   * one-time markers (a seen `jti`, a SAML request ID, a lock); a consumed record still counts as
   * present. Records of a grant are refused (use `upsert`, which honours revocation).
   */
  insertIfAbsent(id: string, payload: Payload, expiresIn?: number): Promise<boolean>;
  /** The record, or undefined when absent or expired. A consumed record is returned with `consumed`. */
  find(id: string): Promise<Payload | undefined>;
  findByUid(uid: string): Promise<Payload | undefined>;
  /** Every live record whose uid is `uid`, oldest first (e.g. an account's passkeys). */
  listByUid(uid: string): Promise<Array<{ id: string; payload: Payload }>>;
  /**
   * Mark as consumed. Returns true only for the one call that consumed it, so single use holds
   * under concurrency; a second call (a replay) returns false.
   */
  consume(id: string): Promise<boolean>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
  /**
   * Live records of this model, oldest first (small models only: keys, clients, pending logout
   * deliveries); at most `limit` of them when given.
   */
  list(limit?: number): Promise<Array<{ id: string; payload: Payload }>>;
  /**
   * Rewrite live records of this model all at once (small models only: re-sealing every signing
   * key under a new KEK). `transform` sees each record and returns its replacement, or undefined
   * to leave it as it is; it runs inside one transaction, so it must be synchronous (no I/O while
   * the transaction is open). All or nothing: if `transform` throws, nothing is written. Other
   * writers of these records wait until it commits. Expiry and secondary keys are kept. Returns
   * how many records were rewritten.
   */
  rewriteAll(transform: (id: string, payload: Payload) => Payload | undefined): Promise<number>;
}

/**
 * How long revokeGrant remembers a revoked grant. It only has to outlive requests that were in
 * flight at revocation; grant ids are random and never reused, so a day is ample.
 */
export const REVOKED_GRANT_RETENTION_SECONDS = 86_400;

export interface Storage {
  readonly kind: string;
  adapter(model: ModelName): Adapter;
  /**
   * Revoke a grant across every model, for good: records carrying this grantId that are upserted
   * afterwards, or concurrently (a refresh in flight on another instance while reuse detection
   * fires), are dropped, so no token of a revoked grant can outlive the revocation. True when
   * the grant still had a live (unexpired) record, which this call removed: false for a grant
   * revoked before (of revocations racing for one grant, exactly one sees it live), one whose
   * records have all expired, or one never stored.
   */
  revokeGrant(grantId: string): Promise<boolean>;
  /**
   * Deletes up to `limit` expired records (plus expired grant tombstones) and returns how many
   * records it deleted. Reads already ignore expired rows; this only reclaims space. Bounded so
   * that one call never holds the database (or, for SQLite, the event loop) for long.
   */
  purgeExpired(limit?: number): number | Promise<number>;
  /**
   * Failed logins, shared by every instance on this store (security/failure-store.ts). A
   * failure is one inserted row, so concurrent failures on several instances are all counted.
   */
  loginFailures: FailureStore;
  /** A cheap liveness probe for /healthz. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
