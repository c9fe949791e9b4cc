/**
 * Single Logout, SP-initiated (saml-profiles §4.4): a LogoutRequest from a registered SP ends the
 * browser session here when it names the signed-in user, and a signed LogoutResponse goes back to
 * the SP's registered SLO URL over HTTP-POST.
 *
 * The request must be authenticated (§4.4.3.1), because the session cookie rides a cross-site
 * top-level GET (SameSite=Lax): anyone can make a browser send a LogoutRequest naming any
 * registered SP. It is authenticated when its signature was verified with the SP's registered
 * certificate, or when it carries the SessionIndex this session was given for that SP (derived
 * from the session cookie and the SP's entityID, so only the SP that received the assertion knows
 * it) and a NameID for the user. Otherwise nothing is ended: the user is asked, on a page whose
 * POST carries a CSRF token and is bound to this session, and the SP gets the answer.
 */
import { createHash } from 'node:crypto';
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
 * Does the request name this account? Persistent and email identifiers are recomputed; a
 * transient one cannot be (it is never stored), so it names whoever the request is otherwise
 * authenticated for (signature, or this session's SessionIndex).
 */
export function namesAccount(info: LogoutRequestInfo, account: Account, persistentId: string): boolean {
  const kind = info.format ? nameIdFormatName(info.format) : undefined;
  if (kind === 'transient') return true;
  if (info.nameId === undefined) return false;
  return info.nameId === persistentId || (account.email !== undefined && info.nameId === account.email);
}

/**
 * The AuthnStatement's SessionIndex for one browser session at one SP. A digest of the session
 * cookie and the SP's entityID: never usable as the cookie, different at every SP (one SP cannot
 * present another's), and recomputable here without storing anything.
 */
export function sessionIndexFor(sessionCookie: string, spEntityId: string): string {
  const h = createHash('sha256').update('pqid-saml-session-index\0').update(spEntityId).update('\0');
  return `_${h.update(sessionCookie).digest('hex').slice(0, 40)}`;
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
    const persistent = pairwiseId(await this.#certs.pairwiseSalt(), sp.entityId, account.sub);
    const names = namesAccount(info, account, persistent);
    if (accepted.signatureVerified) {
      if (!names) return this.#answer(req, reply, sp, info.id, accepted.relayState, STATUS.requester);
      await endSession(this.#ctx, req, reply);
      return this.#answer(req, reply, sp, info.id, accepted.relayState, STATUS.success);
    }
    const cookie = req.cookies[SESSION_COOKIE] ?? '';
    if (names && info.sessionIndexes.includes(sessionIndexFor(cookie, sp.entityId))) {
      await endSession(this.#ctx, req, reply);
      return this.#answer(req, reply, sp, info.id, accepted.relayState, STATUS.success);
    }
    // Not authenticated: anyone could have sent it. Ask; never end the session on it.
    req.log.info({ sp: sp.entityId }, 'saml logout request not authenticated; asking the user');
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
