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
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../accounts/accounts.ts';
import { endpoints, type IdpContext } from '../context.ts';
import { randomToken, safeEqual, tokenId } from '../crypto/secrets.ts';
import { currentSession, endSession, SESSION_COOKIE } from '../signin/session.ts';
import { sendPage } from '../ui/html.ts';
import { errorPage, logoutConfirmPage } from '../ui/pages.ts';
import { SamlRequestError, sendPostForm } from './bindings.ts';
import { pairwiseId, type SamlCertificates } from './certificates.ts';
import { NS, nameIdFormatName, STATUS } from './constants.ts';
import type { SamlEndpoints } from './endpoints.ts';
import { type AcceptedRequest, acceptSpRequest, type IncomingMessage } from './requests.ts';
import { signedLogoutResponse } from './response.ts';
import { tookPart } from './session-sps.ts';
import type { SamlSp, SamlSps } from './sps.ts';
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

interface PendingLogout {
  [member: string]: unknown;
  spEntityId: string;
  requestId: string;
  relayState?: string;
  csrf: string;
  /** Digest of the session cookie the question was asked of: only that browser may answer. */
  session: string;
}

const confirmSchema = {
  params: { type: 'object', properties: { uid: { type: 'string', maxLength: 64 } } },
  body: {
    type: 'object',
    required: ['csrf', 'logout'],
    properties: { csrf: { type: 'string', maxLength: 256 }, logout: { type: 'string', enum: ['yes', 'no'] } },
  },
} as const;

export class SamlLogout {
  readonly #ctx: IdpContext;
  readonly #certs: SamlCertificates;
  readonly #sps: SamlSps;
  readonly #ep: SamlEndpoints;
  readonly #pending;
  readonly #confirmPath: string;

  constructor(ctx: IdpContext, certs: SamlCertificates, sps: SamlSps, ep: SamlEndpoints) {
    this.#ctx = ctx;
    this.#certs = certs;
    this.#sps = sps;
    this.#ep = ep;
    this.#pending = ctx.storage.adapter('Interaction');
    this.#confirmPath = `${endpoints(ctx.config.issuer).prefix}/saml/slo/confirm`;
  }

  /** GET|POST /saml/slo. */
  async handle(req: FastifyRequest, reply: FastifyReply, msg: IncomingMessage): Promise<FastifyReply> {
    const accepted = await acceptSpRequest(this.#ctx, this.#sps, msg, 'LogoutRequest', this.#ep.slo);
    const { sp } = accepted;
    if (!sp.sloUrl)
      throw new SamlRequestError(
        'This application has no single logout URL registered.',
        'slo_not_registered',
      );
    const info = readLogoutRequest(accepted);
    const session = await currentSession(this.#ctx, req);
    // Nobody signed in here: nothing to end, and nothing to learn from the answer.
    if (!session) return this.#answer(req, reply, sp, info.id, accepted.relayState, STATUS.success);
    const account = await this.#ctx.accounts.find(session.accountId);
    if (!account) {
      await endSession(this.#ctx, req, reply);
      return this.#answer(req, reply, sp, info.id, accepted.relayState, STATUS.success);
    }
    const salt = await this.#certs.pairwiseSalt();
    const names = namesAccount(info, account, pairwiseId(salt, sp.entityId, account.sub));
    const cookie = req.cookies[SESSION_COOKIE] ?? '';
    const byIndex =
      names !== 'no' &&
      info.sessionIndexes.includes(sessionIndexFor(salt, session.sid ?? cookie, sp.entityId));
    const byName =
      accepted.signatureVerified &&
      names === 'yes' &&
      session.sid !== undefined &&
      (await tookPart(this.#ctx, session.sid, account.sub, sp.entityId));
    if (byIndex || byName) {
      await endSession(this.#ctx, req, reply);
      return this.#answer(req, reply, sp, info.id, accepted.relayState, STATUS.success);
    }
    // Not bound to this session: anyone could have sent it, or an SP that has no part in it. Ask;
    // never end the session on it.
    req.log.info(
      { sp: sp.entityId, signed: accepted.signatureVerified },
      'saml logout request not bound to this session; asking the user',
    );
    const uid = randomToken(16);
    const csrf = randomToken();
    const record: PendingLogout = {
      spEntityId: sp.entityId,
      requestId: info.id,
      ...(accepted.relayState !== undefined ? { relayState: accepted.relayState } : {}),
      csrf,
      session: tokenId(cookie),
    };
    await this.#pending.upsert(`saml-logout:${uid}`, record, this.#ctx.config.ttl.interaction);
    return sendPage(
      reply,
      200,
      logoutConfirmPage({ action: `${this.#confirmPath}/${uid}`, csrf, clientName: sp.name ?? sp.entityId }),
    );
  }

  /** POST /saml/slo/confirm/:uid: the user's answer, from the browser that was asked. */
  register(app: FastifyInstance): void {
    app.post<{ Params: { uid: string }; Body: { csrf: string; logout: 'yes' | 'no' } }>(
      '/saml/slo/confirm/:uid',
      { schema: confirmSchema },
      async (req, reply) => {
        const key = `saml-logout:${req.params.uid}`;
        const record = (await this.#pending.find(key)) as PendingLogout | undefined;
        const cookie = req.cookies[SESSION_COOKIE];
        const refused = (why: string) => sendPage(reply, 403, errorPage('Sign-out refused', why, 'csrf'));
        if (
          !record ||
          record.consumed !== undefined ||
          !safeEqual(req.body.csrf, record.csrf) ||
          !cookie ||
          !safeEqual(tokenId(cookie), record.session)
        )
          return refused('This sign-out page has expired or could not be verified.');
        if (!(await this.#pending.consume(key))) return refused('This sign-out page was already used.');
        const sp = await this.#sps.find(record.spEntityId);
        if (!sp?.sloUrl) throw new SamlRequestError('The application is no longer registered.', 'unknown_sp');
        if (req.body.logout === 'no')
          return this.#answer(
            req,
            reply,
            sp,
            record.requestId,
            record.relayState,
            STATUS.requester,
            STATUS.requestDenied,
          );
        await endSession(this.#ctx, req, reply);
        return this.#answer(req, reply, sp, record.requestId, record.relayState, STATUS.success);
      },
    );
  }

  async #answer(
    req: FastifyRequest,
    reply: FastifyReply,
    sp: SamlSp,
    inResponseTo: string,
    relayState: string | undefined,
    code: string,
    sub?: string,
  ): Promise<FastifyReply> {
    const sloUrl = sp.sloUrl as string;
    const signer = await this.#certs.signer(sp.signatureAlgorithm);
    const xml = await signedLogoutResponse(
      { idpEntityId: this.#ep.entityId, destination: sloUrl, inResponseTo, now: Date.now() },
      signer,
      code,
      sub,
    );
    req.log.info({ sp: sp.entityId, status: code, ...(sub ? { sub } : {}) }, 'saml logout');
    return sendPostForm(reply, sloUrl, {
      SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'),
      RelayState: relayState,
    });
  }
}
