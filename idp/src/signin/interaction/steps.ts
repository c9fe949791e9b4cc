/**
 * What every interaction endpoint does the same way: find the parked interaction of this
 * browser (its cookie must name it) and refuse one that was used, or whose session has ended;
 * spend it; answer an expired page or a refused form.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { endpoints, type IdpContext } from '../../context.ts';
import { safeEqual } from '../../crypto/secrets.ts';
import type { Model, Stored } from '../../storage/model.ts';
import { sendPage } from '../../ui/html.ts';
import { errorPage } from '../../ui/pages.ts';
import type { PasskeyForm } from '../pages/parts.ts';
import type { PasskeyFactor } from '../passkey.ts';
import { passkeyScript, type ScriptRef } from '../passkey-script.ts';
import type { SignIn } from '../sign-in.ts';
import { INTERACTION_COOKIE, type InteractionRecord, interactionCookie, interactionsOf } from './record.ts';

type Stage = InteractionRecord['stage'];
/** An interaction at one of the stages `S`. */
export type AtStage<S extends Stage> = Stored<Extract<InteractionRecord, { stage: S }>>;
/** Why a post to an interaction is refused before its step runs. */
export type Refusal = 'expired' | 'csrf';

const atStage = <S extends Stage>(
  record: Stored<InteractionRecord>,
  stages: readonly S[],
): record is AtStage<S> => (stages as readonly Stage[]).includes(record.stage);

export class InteractionSteps {
  readonly ctx: IdpContext;
  readonly signIn: SignIn;
  readonly script: ScriptRef;
  /** The account page, where a passkey is added. */
  readonly accountPage: string;
  readonly #store: Model<InteractionRecord>;
  readonly #url: (uid: string) => string;

  constructor(ctx: IdpContext, signIn: SignIn) {
    const ep = endpoints(ctx.config.issuer);
    this.ctx = ctx;
    this.signIn = signIn;
    this.script = passkeyScript(ctx.config.issuer);
    this.accountPage = `${ep.prefix}/account`;
    this.#store = interactionsOf(ctx);
    this.#url = ep.interaction;
  }

  get passkeys(): PasskeyFactor {
    return this.signIn.passkeys;
  }

  /** The interaction's page, or where one of its forms posts (`login`, `consent`, …). */
  url(uid: string, action?: string): string {
    return action === undefined ? this.#url(uid) : `${this.#url(uid)}/${action}`;
  }

  /**
   * The interaction `uid`, when this browser's cookie names it, it is unused, and the session
   * its stage builds on (the second factor, the consent question) is still alive.
   */
  async load(req: FastifyRequest, uid: string): Promise<Stored<InteractionRecord> | undefined> {
    const cookie = req.cookies[INTERACTION_COOKIE];
    if (!cookie || !safeEqual(cookie, uid)) return undefined;
    const record = await this.#store.find(uid);
    // A record without `next` predates this shape (an upgrade mid-login): start again.
    if (!record || record.consumed !== undefined || record.next === undefined) return undefined;
    // The stages built on a session die with it.
    if (record.stage === 'second' && !(await this.signIn.sessionOf(req, record.session))) return undefined;
    if (record.stage === 'consent' && !(await this.signIn.sessionOf(req, record.auth.session)))
      return undefined;
    return record;
  }

  /**
   * The interaction a form of its page posts to: loaded as `load` does, at one of `stages`, and
   * `csrf` is the page's token.
   */
  async posted<S extends Stage>(
    req: FastifyRequest,
    uid: string,
    csrf: string,
    stages: readonly S[],
  ): Promise<AtStage<S> | Refusal> {
    const record = await this.load(req, uid);
    if (!record || !atStage(record, stages)) return 'expired';
    return safeEqual(csrf, record.csrf) ? record : 'csrf';
  }

  /** Single use: true for the one call that spends the interaction, false for a replay. */
  consume(uid: string): Promise<boolean> {
    return this.#store.consume(uid);
  }

  /** The interaction is over: its cookie goes. */
  clearCookie(reply: FastifyReply): void {
    reply.clearCookie(INTERACTION_COOKIE, interactionCookie(this.ctx));
  }

  /** Where the page's passkey form gets its options and posts its credential. */
  passkeyForm(uid: string): PasskeyForm {
    return {
      options: this.url(uid, 'passkey/options'),
      action: this.url(uid, 'passkey'),
      script: this.script.src,
    };
  }
}

/** The page for a refused post. */
export const refused = (reply: FastifyReply, why: Refusal) =>
  why === 'csrf' ? csrfRefused(reply) : expired(reply);

/** The interaction is unknown, used, another browser's, or its session ended. */
export const expired = (reply: FastifyReply) =>
  sendPage(
    reply,
    400,
    errorPage(
      'Sign-in expired',
      'This sign-in page has expired. Go back to the application and start again.',
      'interaction_expired',
    ),
  );

/** The form's CSRF token is not the page's. */
export const csrfRefused = (reply: FastifyReply) =>
  sendPage(
    reply,
    403,
    errorPage(
      'Request refused',
      'The form could not be verified. Go back to the application and start again.',
      'csrf',
    ),
  );
