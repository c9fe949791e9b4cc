import type { Accounts } from './accounts/accounts.ts';
import type { Clients } from './clients/clients.ts';
import type { OutboundGuard } from './clients/outbound.ts';
import type { Config } from './config/index.ts';
import type { KeyManager } from './keys/key-manager.ts';
import type { LoginLimiter } from './security/login-limiter.ts';
import type { Storage } from './storage/adapter.ts';

/** A browser session that ended without its user signing out, and whose it was. */
export interface EndedSession {
  /** Its public id, the `sid` its clients know it by. */
  sid: string;
  accountId: string;
}

/** Everything a route plugin needs, passed as plugin options rather than global decorators. */
export interface IdpContext {
  config: Config;
  storage: Storage;
  keys: KeyManager;
  accounts: Accounts;
  clients: Clients;
  /** Every request made for a client (its jwks_uri, its back-channel logout) goes through this. */
  outbound: OutboundGuard;
  /** Brute-force limits for the login form (security/login-limiter.ts). */
  loginLimiter: LoginLimiter;
  /**
   * Sessions ended by something other than their user's sign-out at /end_session (a passkey
   * removed or caught cloned, a password changed, a SAML single logout): their OIDC clients get
   * back-channel logout notices (OpenID Connect Back-Channel Logout 1.0), put in the shared
   * outbox. Never throws: the sessions are over either way.
   */
  sessionsEnded: (sessions: readonly EndedSession[]) => Promise<void>;
}

/** Absolute endpoint URLs derived from the issuer, and the path prefix the routes mount under. */
export function endpoints(issuer: string) {
  const prefix = new URL(issuer).pathname.replace(/\/+$/, '');
  return {
    prefix,
    authorization: `${issuer}/authorize`,
    token: `${issuer}/token`,
    userinfo: `${issuer}/userinfo`,
    jwks: `${issuer}/jwks`,
    interaction: (uid: string) => `${prefix}/interaction/${encodeURIComponent(uid)}`,
  };
}
