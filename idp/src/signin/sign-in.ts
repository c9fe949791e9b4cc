/**
 * Sign-in as a service for the protocols. OIDC and SAML ask `check` for a session that meets
 * what they need (max_age, prompt=login or ForceAuthn, a minimum acr) and get its
 * authentication context. When there is none they never show a login page themselves: they hand
 * the browser to `begin`, and get it back signed in, either in place through the resumer they
 * registered (OIDC continues straight to the code redirect) or at a path of theirs (SAML).
 * A started sign-in is parked as an Interaction (what to do next, what the page shows, a CSRF
 * token) bound to this browser by the interaction cookie; routes.ts serves its pages.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { endpoints, type IdpContext } from '../context.ts';
import { randomToken } from '../crypto/secrets.ts';
import type { Payload } from '../storage/adapter.ts';
import { redirect303 } from '../ui/html.ts';
import { type AuthContext, type SignInNeed, type Unmet, unmetBy } from './auth-context.ts';
import { cookieOptions, currentSession } from './session.ts';

export const INTERACTION_COOKIE = 'pqid_interaction';

/** How a protocol continues a request once the user has signed in or answered the consent page. */
export interface Resumer {
  signedIn(reply: FastifyReply, auth: AuthContext, state: Payload): Promise<FastifyReply>;
  consented?(reply: FastifyReply, allowed: boolean, auth: AuthContext, state: Payload): Promise<FastifyReply>;
}

/** Where the browser goes once signed in. */
export type Continuation =
  /** In place, through the resumer registered under `resume`, with the request it parked. */
  | { resume: string; state: Payload }
  /** A redirect to a path on this IdP, where the protocol finds the new session. */
  | { returnTo: string };

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
}

export interface ConsentAsk extends Display {
  next: { resume: string; state: Payload };
  auth: AuthContext;
  scopes: string[];
}

/** The session's context, or why there is none that will do (`session`: nobody is signed in). */
export type SessionCheck = { ok: true; auth: AuthContext } | { ok: false; unmet: 'session' | Unmet };

interface InteractionBase {
  [member: string]: unknown;
  csrf: string;
  clientName: string;
  formTargets: string[];
}
export interface LoginInteraction extends InteractionBase {
  stage: 'login';
  next: Continuation;
  loginHint?: string;
}
export interface ConsentInteraction extends InteractionBase {
  stage: 'consent';
  next: { resume: string; state: Payload };
  auth: AuthContext;
  scopes: string[];
}
export type InteractionRecord = LoginInteraction | ConsentInteraction;

/** Only same-origin paths, so a continuation can never become an open redirect. */
const isLocalPath = (p: string) => p.startsWith('/') && !p.startsWith('//') && !p.startsWith('/\\');

export class SignIn {
  readonly #ctx: IdpContext;
  readonly #resumers = new Map<string, Resumer>();

  constructor(ctx: IdpContext) {
    this.#ctx = ctx;
  }

  /** Register how the protocol named `name` continues; once per name. */
  register(name: string, resumer: Resumer): void {
    if (this.#resumers.has(name)) throw new Error(`a resumer named ${name} is already registered`);
    this.#resumers.set(name, resumer);
  }

  resumer(name: string): Resumer | undefined {
    return this.#resumers.get(name);
  }

  /** This browser's session if it meets `need`. */
  async check(req: FastifyRequest, need: SignInNeed = {}): Promise<SessionCheck> {
    const auth = await currentSession(this.#ctx, req);
    if (!auth) return { ok: false, unmet: 'session' };
    const unmet = unmetBy(auth, need, Math.floor(Date.now() / 1000));
    return unmet ? { ok: false, unmet } : { ok: true, auth };
  }

  /** Send the browser to the login page; afterwards it continues as `start.next` says. */
  async begin(reply: FastifyReply, start: LoginStart): Promise<FastifyReply> {
    this.#checkNext(start.next);
    return this.#park(reply, {
      stage: 'login',
      csrf: randomToken(),
      next: start.next,
      clientName: start.clientName,
      formTargets: start.formTargets ?? [],
      ...(start.loginHint !== undefined ? { loginHint: start.loginHint } : {}),
    });
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
    const ep = endpoints(ctx.config.issuer);
    const uid = randomToken(16);
    await ctx.storage.adapter('Interaction').upsert(uid, record, ctx.config.ttl.interaction);
    reply.setCookie(
      INTERACTION_COOKIE,
      uid,
      cookieOptions(ctx, `${ep.prefix}/interaction`, ctx.config.ttl.interaction),
    );
    return redirect303(reply, ep.interaction(uid));
  }
}
