/**
 * A parked sign-in (sign-in.ts) as storage holds it under the `Interaction` model while the
 * browser is on one of its pages: the stage it is at, where it continues afterwards, what the
 * page shows and the page's CSRF token. The interaction cookie binds it to the browser that
 * started it.
 */
import { endpoints, type IdpContext } from '../../context.ts';
import type { Payload } from '../../storage/adapter.ts';
import { type Model, model } from '../../storage/model.ts';
import type { AuthContext } from '../auth-context.ts';
import { cookieOptions } from '../session.ts';

export const INTERACTION_COOKIE = 'pqid_interaction';

/** Where the browser goes once signed in. */
export type Continuation =
  /** In place, through the resumer registered under `resume`, with the request it parked. */
  | { resume: string; state: Payload }
  /** A redirect to a path on this IdP, where the protocol finds the new session. */
  | { returnTo: string };

export interface InteractionBase {
  csrf: string;
  clientName: string;
  formTargets: string[];
}
export interface LoginInteraction extends InteractionBase {
  stage: 'login';
  next: Continuation;
  loginHint?: string;
  /** Acceptable classes (SignInNeed.acr); absent: any sign-in will do. */
  acr?: string[];
}
/** The first factor is done (or the session has one); the account's passkey is asked next. */
interface SecondStage {
  stage: 'second';
  acr: string[];
  accountId: string;
  username: string;
  /** Methods the first factor used; the passkey's are added to them. */
  firstAmr: string[];
  /**
   * The stored session the first factor lives in (AuthContext.session): the passkey counts on
   * top of it only while that very session is alive.
   */
  session?: string;
}
/** The need cannot be met by this account (it has no passkey): say so, then give up. */
interface UnmetStage {
  stage: 'unmet';
  acr: string[];
}
/** Where a sign-in goes when its first factor did not reach the class it needs. */
export type NextStage = SecondStage | UnmetStage;
export interface SecondFactorInteraction extends InteractionBase, SecondStage {
  next: Continuation;
}
export interface UnmetInteraction extends InteractionBase, UnmetStage {
  next: Continuation;
}
export interface ConsentInteraction extends InteractionBase {
  stage: 'consent';
  next: { resume: string; state: Payload };
  auth: AuthContext;
  scopes: string[];
  resources?: string[];
}
export type InteractionRecord =
  | LoginInteraction
  | SecondFactorInteraction
  | UnmetInteraction
  | ConsentInteraction;

/** The parked sign-ins of `ctx`'s store. */
export const interactionsOf = (ctx: IdpContext): Model<InteractionRecord> =>
  model<InteractionRecord>(ctx.storage, 'Interaction');

/** The interaction cookie: sent to the interaction pages only. */
export const interactionCookie = (ctx: IdpContext, maxAge?: number) =>
  cookieOptions(ctx, `${endpoints(ctx.config.issuer).prefix}/interaction`, maxAge);
