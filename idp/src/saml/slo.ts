/**
 * Single Logout, SP-initiated (saml-profiles §4.4): a LogoutRequest from a registered SP ends the
 * browser session here when it is bound to this session, and a signed LogoutResponse goes back to
 * the SP's registered SLO URL over HTTP-POST.
 *
 * The request must be authenticated (§4.4.3.1), because the session cookie rides a cross-site
 * top-level GET (SameSite=Lax): anyone can make a browser send a LogoutRequest naming any
 * registered SP. And being from a registered SP is not enough: any SP with a signing certificate
 * could otherwise sign out users who never used it. The session ends at once only when
 *   - the request carries the SessionIndex this session was given for that SP (an HMAC of the
 *     session id and the SP's entityID under a secret of this IdP: only that SP, which received
 *     it in an assertion of this session, knows it) and a NameID that does not name someone
 *     else (a transient one cannot be checked); signed or not; or
 *   - its signature was verified with the SP's registered certificate, it names the signed-in
 *     user by a persistent identifier (the pairwise NameID or the email address), and the SP
 *     received an assertion in this session (session-sps.ts).
 * Otherwise nothing is ended: the user is asked, on a page whose POST carries a CSRF token and is
 * bound to this session, and the SP gets the answer. The same page whatever did not match, so
 * the answer tells an SP nothing about who is signed in.
 *
 * The endpoints are routes/slo.ts (the request) and routes/slo-confirm.ts (the user's answer).
 */
import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../accounts/accounts.ts';
import type { IdpContext } from '../context.ts';
import type { AuthContext } from '../signin/auth-context.ts';
import { endSession, SESSION_COOKIE } from '../signin/session.ts';
import { sendPostForm } from './bindings.ts';
import { pairwiseId } from './certificates.ts';
import { NS, nameIdFormatName } from './constants.ts';
import type { SamlDeps } from './deps.ts';
import type { AcceptedRequest } from './requests.ts';
import { signedLogoutResponse } from './response.ts';
import { tookPart } from './session-sps.ts';
import type { SamlSp } from './sps.ts';
import { attr, child, children, text } from './xml.ts';

export interface LogoutRequestInfo {
  id: string;
  nameId?: string;
  format?: string;
  /** samlp:SessionIndex values: the sessions at this IdP the SP asks to end. */
  sessionIndexes: string[];
}

export function readLogoutRequest(req: AcceptedRequest): LogoutRequestInfo {
  const nameIdEl = child(req.root, NS.saml, 'NameID');
  const nameId = text(nameIdEl);
  const format = nameIdEl ? attr(nameIdEl, 'Format') : undefined;
  const sessionIndexes = children(req.root, NS.samlp, 'SessionIndex').map((e) => text(e) ?? '');
  return { id: req.id, ...(nameId ? { nameId } : {}), ...(format ? { format } : {}), sessionIndexes };
}

/**
 * Whom the request names, against the signed-in account: `yes` for its persistent (pairwise) or
 * email identifier, `unknown` for a transient one (never stored, so it cannot be checked), `no`
 * for anything else or no NameID at all.
 */
export function namesAccount(
  info: LogoutRequestInfo,
  account: Account,
  persistentId: string,
): 'yes' | 'unknown' | 'no' {
  const kind = info.format ? nameIdFormatName(info.format) : undefined;
  if (info.nameId === undefined) return 'no';
  if (kind === 'transient') return 'unknown';
  return info.nameId === persistentId || (account.email !== undefined && info.nameId === account.email)
    ? 'yes'
    : 'no';
}

/**
 * The AuthnStatement's SessionIndex for one browser session at one SP: an HMAC of the session's
 * public id (`sid`, or the cookie for sessions stored without one) and the SP's entityID under
 * this IdP's secret salt. Different at every SP (one SP cannot present another's), the same
 * across a step-up (which keeps the sid), and recomputable here without storing anything.
 */
export function sessionIndexFor(salt: Buffer, session: string, spEntityId: string): string {
  const key = createHmac('sha256', salt).update('pqid-saml-session-index').digest();
  const h = createHmac('sha256', key).update(spEntityId).update('\0').update(session);
  return `_${h.digest('hex').slice(0, 40)}`;
}

/**
 * Whether the LogoutRequest `accepted` (read as `info`) may end `session` of `account` without
 * asking: it carries this session's SessionIndex for its SP, or it is signed with the SP's
 * certificate, names the user by a persistent identifier and the SP took part in the session.
 */
export async function boundToSession(
  deps: SamlDeps,
  req: FastifyRequest,
  accepted: AcceptedRequest,
  info: LogoutRequestInfo,
  session: AuthContext,
  account: Account,
): Promise<boolean> {
  const { sp } = accepted;
  const salt = await deps.certs.pairwiseSalt();
  const names = namesAccount(info, account, pairwiseId(salt, sp.entityId, account.sub));
  const cookie = req.cookies[SESSION_COOKIE] ?? '';
  const byIndex =
    names !== 'no' && info.sessionIndexes.includes(sessionIndexFor(salt, session.sid ?? cookie, sp.entityId));
  const byName =
    accepted.signatureVerified &&
    names === 'yes' &&
    session.sid !== undefined &&
    (await tookPart(deps.ctx, session.sid, account.sub, sp.entityId));
  return byIndex || byName;
}

/** The LogoutResponse to send, and where: the SP's registered SLO URL. */
export interface LogoutAnswer {
  sp: SamlSp;
  sloUrl: string;
  inResponseTo: string;
  relayState?: string | undefined;
}

/** A signed LogoutResponse with status `code` (and second-level `sub`), POSTed to the SP. */
export async function sendLogoutResponse(
  deps: SamlDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  answer: LogoutAnswer,
  code: string,
  sub?: string,
): Promise<FastifyReply> {
  const { sp, sloUrl } = answer;
  const signer = await deps.certs.signer(sp.signatureAlgorithm);
  const xml = await signedLogoutResponse(
    {
      idpEntityId: deps.ep.entityId,
      destination: sloUrl,
      inResponseTo: answer.inResponseTo,
      now: Date.now(),
    },
    signer,
    sp,
    code,
    sub,
  );
  req.log.info({ sp: sp.entityId, status: code, ...(sub ? { sub } : {}) }, 'saml logout');
  return sendPostForm(reply, sloUrl, {
    SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'),
    RelayState: answer.relayState,
  });
}

/**
 * End this browser's session for a SAML LogoutRequest, and tell the OIDC clients that shared it
 * (back-channel logout, through the shared outbox): single logout across both protocols.
 */
export async function endSessionForSaml(
  ctx: IdpContext,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const ended = await endSession(ctx, req, reply);
  if (ended?.sid !== undefined) await ctx.sessionsEnded([{ sid: ended.sid, accountId: ended.accountId }]);
}
