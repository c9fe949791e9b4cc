/**
 * Sign-in as a service for the protocols. OIDC and SAML ask `check` for a session that meets
 * what they need (max_age, prompt=login or ForceAuthn, a minimum acr) and get its
 * authentication context. When there is none they never show a login page themselves: they hand
 * the browser to `begin`, and get it back signed in, either in place through the resumer they
 * registered (OIDC continues straight to the code redirect) or at a path of theirs (SAML).
 * A started sign-in is parked as an Interaction (what to do next, what the page shows, a CSRF
 * token, interaction/record.ts) bound to this browser by the interaction cookie; routes.ts serves
 * its pages.
 *
 * Step-up: a need for a stronger `acr` than one factor reaches is met with a second factor. After
 * the first factor (or straight away, when the browser's session is fine but for its class) the
 * sign-in moves to the `second` stage, which asks the account's passkey. An account without one
 * cannot meet the need: the `unmet` stage says so and hands the request back to its protocol,
 * which answers its client with an error; it never gets a weaker sign-in than it asked for.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { endpoints, type IdpContext } from '../context.ts';
import { randomToken } from '../crypto/secrets.ts';
import type { Payload } from '../storage/adapter.ts';
import { redirect303 } from '../ui/html.ts';
import { AMR, type AuthContext, type SignInNeed, type Unmet, unmetBy } from './auth-context.ts';
import {
  type Continuation,
  INTERACTION_COOKIE,
  type InteractionBase,
  type InteractionRecord,
  interactionCookie,
  interactionsOf,
  type NextStage,
} from './interaction/record.ts';
import { PasskeyFactor } from './passkey.ts';
import { currentSession } from './session.ts';
import { accountUsesOf, type SignInUses } from './uses.ts';

export type { Continuation } from './interaction/record.ts';

/**
 * How a protocol continues a request once the user has signed in or answered the consent page.
 * `S` is the state the protocol parks with its continuations (`{ resume: name, state }`): the
 * sign-in stores it and hands it back unchanged to the resumer registered under that name.
 */
export interface Resumer<S extends Payload = Payload> {
  signedIn(reply: FastifyReply, auth: AuthContext, state: S): Promise<FastifyReply>;
  consented?(reply: FastifyReply, allowed: boolean, auth: AuthContext, state: S): Promise<FastifyReply>;
  /** The user could not (or chose not to) meet the request's need: answer the client with an error. */
  unmet?(reply: FastifyReply, state: S): Promise<FastifyReply>;
}

/** What the pages show and allow. */
export interface Display {
  /** Who is asking ("to continue to …"). */
  clientName: string;
  /** Origins a form post may be redirected to (CSP form-action): a client's redirect_uri. */
  formTargets?: string[];
}

export interface LoginStart extends Display {
  next: Continuation;
  /** Prefills the username (OIDC login_hint). */
  loginHint?: string;
  /** What the sign-in must achieve; its `acr` decides whether a second factor is asked. */
  need?: SignInNeed;
}

export interface ConsentAsk extends Display {
  next: { resume: string; state: Payload };
  auth: AuthContext;
  scopes: string[];
  /** Resource servers (RFC 8707) the tokens would be for; absent: this provider only. */
  resources?: string[];
}

/** The session's context, or why there is none that will do (`session`: nobody is signed in). */
export type SessionCheck = { ok: true; auth: AuthContext } | { ok: false; unmet: 'session' | Unmet };

/** Only same-origin paths, so a continuation can never become an open redirect. */
const isLocalPath = (p: string) => p.startsWith('/') && !p.startsWith('//') && !p.startsWith('/\\');

export class SignIn {
  readonly #ctx: IdpContext;
  readonly #resumers = new Map<string, Resumer>();
  /** Passkeys: the factor, its credentials and ceremonies (passkey.ts). */
  readonly passkeys: PasskeyFactor;
  /** What each account signed in (uses.ts): a password change takes it back. */
  readonly #accountUses: SignInUses;

  constructor(ctx: IdpContext) {
    this.#ctx = ctx;
    this.passkeys = new PasskeyFactor(ctx);
    this.#accountUses = accountUsesOf(ctx);
  }

  /**
   * A session a factor just started: recorded against the account (a password change ends it)
   * and against the passkey it used, if one (removing the passkey ends it). False when that
   * passkey was removed meanwhile; the session is then ended.
   */
  async bindSession(auth: AuthContext): Promise<boolean> {
    if (auth.session !== undefined) await this.#accountUses.record(auth.accountId, { session: auth.session });
    return this.passkeys.bindSession(auth);
  }

  /**
   * A fresh grant id for tokens issued on the strength of `auth`, recorded against the account
   * and the sign-in's passkey, so a password change or the passkey's removal revokes it.
   * Undefined when that passkey was removed meanwhile.
   */
  async newGrant(auth: AuthContext): Promise<string | undefined> {
    const grant = await this.passkeys.newGrant(auth);
    if (grant !== undefined) await this.#accountUses.record(auth.accountId, { grant });
    return grant;
  }

  /** Register how the protocol named `name` continues; once per name. */
  register<S extends Payload>(name: string, resumer: Resumer<S>): void {
    if (this.#resumers.has(name)) throw new Error(`a resumer named ${name} is already registered`);
    this.#resumers.set(name, resumer);
  }

  resumer(name: string): Resumer | undefined {
    return this.#resumers.get(name);
  }

  /**
   * The session a parked step was started in (`bound`: its AuthContext.session), if it is still
   * this browser's session and still alive. A sign-out, its expiry, a removed passkey or a new
   * sign-in since then ends it, and with it every step that relied on it: the consent page, the
   * second factor.
   */
  async sessionOf(req: FastifyRequest, bound: string | undefined): Promise<AuthContext | undefined> {
    if (bound === undefined) return undefined;
    const auth = await currentSession(this.#ctx, req);
    return auth?.session === bound ? auth : undefined;
  }

  /** This browser's session if it meets `need`. */
  async check(req: FastifyRequest, need: SignInNeed = {}): Promise<SessionCheck> {
    const auth = await currentSession(this.#ctx, req);
    if (!auth) return { ok: false, unmet: 'session' };
    const unmet = unmetBy(auth, need, Math.floor(Date.now() / 1000));
    return unmet ? { ok: false, unmet } : { ok: true, auth };
  }

  /**
   * Send the browser to sign in; afterwards it continues as `start.next` says. A session that
   * meets the need in all but its class steps up with a second factor instead of starting over.
   */
  async begin(req: FastifyRequest, reply: FastifyReply, start: LoginStart): Promise<FastifyReply> {
    this.#checkNext(start.next);
    const acr = start.need?.acr?.length ? [...start.need.acr] : undefined;
    const base: InteractionBase & { next: Continuation } = {
      csrf: randomToken(),
      next: start.next,
      clientName: start.clientName,
      formTargets: start.formTargets ?? [],
    };
    if (acr) {
      const session = await currentSession(this.#ctx, req);
      const now = Math.floor(Date.now() / 1000);
      if (session && unmetBy(session, { ...start.need, acr: undefined }, now) === undefined) {
        const next = await this.afterFactor(session, acr);
        if (next !== 'met') return this.#park(reply, { ...base, ...next });
      }
    }
    return this.#park(reply, {
      stage: 'login',
      ...base,
      ...(start.loginHint !== undefined ? { loginHint: start.loginHint } : {}),
      ...(acr ? { acr } : {}),
    });
  }

  /**
   * After a factor signed `auth` in: `met` when its class will do, else the stage to park next
   * (without csrf and continuation): the account's passkey, or `unmet` when it has none.
   */
  async afterFactor(auth: AuthContext, acr: readonly string[] | undefined): Promise<'met' | NextStage> {
    if (!acr?.length || unmetBy(auth, { acr }, auth.authTime) === undefined) return 'met';
    const hasPasskeyAlready = auth.amr.includes(AMR.hardwareKey) || auth.amr.includes(AMR.softwareKey);
    const account = await this.#ctx.accounts.find(auth.accountId);
    if (account && this.passkeys.enabled && !hasPasskeyAlready) {
      if ((await this.passkeys.passkeys.list(account.sub)).length > 0)
        return {
          stage: 'second',
          acr: [...acr],
          accountId: account.sub,
          username: account.uid,
          firstAmr: auth.amr,
          ...(auth.session !== undefined ? { session: auth.session } : {}),
        };
    }
    return { stage: 'unmet', acr: [...acr] };
  }

  /** Park the stage after a factor, keeping the page's continuation and display. */
  async continueWith(
    reply: FastifyReply,
    from: InteractionBase & { next: Continuation },
    stage: NextStage,
  ): Promise<FastifyReply> {
    const base = {
      csrf: randomToken(),
      next: from.next,
      clientName: from.clientName,
      formTargets: from.formTargets,
    };
    return this.#park(reply, { ...base, ...stage });
  }

  /** Ask the signed-in user to allow `scopes`; the answer goes to the resumer's `consented`. */
  async askConsent(reply: FastifyReply, ask: ConsentAsk): Promise<FastifyReply> {
    this.#checkNext(ask.next);
    return this.#park(reply, {
      stage: 'consent',
      csrf: randomToken(),
      next: ask.next,
      clientName: ask.clientName,
      formTargets: ask.formTargets ?? [],
      auth: ask.auth,
      scopes: ask.scopes,
      ...(ask.resources?.length ? { resources: ask.resources } : {}),
    });
  }

  #checkNext(next: Continuation): void {
    if ('returnTo' in next) {
      if (!isLocalPath(next.returnTo)) throw new Error('returnTo must be a path on this IdP');
    } else if (!this.#resumers.has(next.resume)) {
      throw new Error(`no resumer named ${next.resume}`);
    }
  }

  async #park(reply: FastifyReply, record: InteractionRecord): Promise<FastifyReply> {
    const ctx = this.#ctx;
    const uid = randomToken(16);
    await interactionsOf(ctx).upsert(uid, record, ctx.config.ttl.interaction);
    reply.setCookie(INTERACTION_COOKIE, uid, interactionCookie(ctx, ctx.config.ttl.interaction));
    return redirect303(reply, endpoints(ctx.config.issuer).interaction(uid));
  }
}
