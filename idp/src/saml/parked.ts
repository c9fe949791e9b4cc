/**
 * What SAML parks in the shared `Interaction` model while the browser is elsewhere: an
 * AuthnRequest waiting for its sign-in (`saml:<uid>`) and a LogoutRequest waiting for the user's
 * answer (`saml-logout:<uid>`). Every instance sees them, so the browser may come back to any.
 * (The IDs of requests already accepted live there too, as `saml-req:<digest>`: requests.ts.)
 */
import type { IdpContext } from '../context.ts';
import { type Model, model } from '../storage/model.ts';
import type { AuthnRequestInfo } from './authn-request.ts';

/** An AuthnRequest parked while its user signs in. */
export interface PendingSso extends AuthnRequestInfo {
  /** Epoch seconds: a ForceAuthn request needs a sign-in after this. */
  createdAt: number;
}

/** A LogoutRequest not bound to this session, waiting for the user's answer (slo.ts). */
export interface PendingLogout {
  spEntityId: string;
  requestId: string;
  relayState?: string;
  csrf: string;
  /** Digest of the session cookie the question was asked of: only that browser may answer. */
  session: string;
}

export const pendingSsoKey = (uid: string) => `saml:${uid}`;
export const pendingLogoutKey = (uid: string) => `saml-logout:${uid}`;

export const pendingSsoOf = (ctx: IdpContext): Model<PendingSso> =>
  model<PendingSso>(ctx.storage, 'Interaction');
export const pendingLogoutOf = (ctx: IdpContext): Model<PendingLogout> =>
  model<PendingLogout>(ctx.storage, 'Interaction');
