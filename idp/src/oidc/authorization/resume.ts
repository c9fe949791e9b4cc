/**
 * The authorization request after sign-in: consent when needed, then the code. Reached straight
 * from /authorize when the session already does, or through the sign-in module's `oidc` resumer
 * once the user has signed in or answered the consent page. The code carries the session's `amr`,
 * its `auth_time` and the `acr` to report.
 */
import type { FastifyReply } from 'fastify';
import type { IdpContext } from '../../context.ts';
import type { AuthContext } from '../../signin/auth-context.ts';
import { acrAtLeast } from '../../signin/auth-context.ts';
import type { SignIn } from '../../signin/sign-in.ts';
import { rememberSessionClient } from '../logout/session-clients.ts';
import { issueCode } from '../tokens/authorization-codes.ts';
import { reportedAcr, UNMET } from './acr.ts';
import { needsConsent, rememberConsent } from './consent.ts';
import type { AuthRequest } from './request.ts';
import { answer } from './respond.ts';

/** What the flow works with: the context and the sign-in it hands users to. */
export interface Flow {
  ctx: IdpContext;
  signIn: SignIn;
}

/** The login and consent pages may redirect straight on to the client. */
export const formTargets = (request: AuthRequest) => [new URL(request.redirectUri).origin];

/** Register the `oidc` resumer: the sign-in continues the request here. */
export function registerResumer(flow: Flow): void {
  const { ctx, signIn } = flow;
  // The sign-in hands back the AuthRequest /authorize parked under `resume: 'oidc'`.
  signIn.register<AuthRequest>('oidc', {
    signedIn: (reply, auth, request) => afterLogin(flow, reply, request, auth),
    async consented(reply, allowed, auth, request) {
      if (!allowed)
        return answer(reply, ctx.config.issuer, request, {
          error: 'access_denied',
          error_description: 'the end-user denied the request',
        });
      await rememberConsent(ctx, auth.accountId, request.clientId, request.scope);
      return finish(flow, reply, request, auth);
    },
    unmet: async (reply, request) =>
      answer(reply, ctx.config.issuer, request, {
        error: UNMET,
        error_description: 'the end-user could not meet the required authentication context',
      }),
  });
}

/** Signed in: ask for consent when needed, else issue the code. */
export async function afterLogin(
  flow: Flow,
  reply: FastifyReply,
  request: AuthRequest,
  auth: AuthContext,
): Promise<FastifyReply> {
  const { ctx, signIn } = flow;
  if (!(await needsConsent(ctx, request, auth.accountId))) return finish(flow, reply, request, auth);
  if (request.prompt.includes('none'))
    return answer(reply, ctx.config.issuer, request, {
      error: 'consent_required',
      error_description: 'the end-user has not consented',
    });
  const client = await ctx.clients.find(request.clientId);
  return signIn.askConsent(reply, {
    next: { resume: 'oidc', state: request },
    auth,
    clientName: client?.client_name ?? request.clientId,
    scopes: request.scope.split(' ').filter(Boolean),
    ...(request.resources ? { resources: request.resources } : {}),
    formTargets: formTargets(request),
  });
}

/** The code for this request and sign-in, under `grantId`. */
function codeFor(ctx: IdpContext, request: AuthRequest, auth: AuthContext, grantId: string): Promise<string> {
  return issueCode(ctx, {
    grantId,
    clientId: request.clientId,
    accountId: auth.accountId,
    redirectUri: request.redirectUri,
    scope: request.scope,
    authTime: auth.authTime,
    amr: auth.amr,
    acr: reportedAcr(request, auth),
    ...(request.nonce !== undefined ? { nonce: request.nonce } : {}),
    ...(request.codeChallenge !== undefined ? { codeChallenge: request.codeChallenge } : {}),
    ...(request.resources ? { resources: request.resources } : {}),
    ...(request.dpopJkt !== undefined ? { dpopJkt: request.dpopJkt } : {}),
    ...(auth.sid !== undefined ? { sid: auth.sid } : {}),
  });
}

async function finish(
  { ctx, signIn }: Flow,
  reply: FastifyReply,
  request: AuthRequest,
  auth: AuthContext,
): Promise<FastifyReply> {
  const issuer = ctx.config.issuer;
  // Whatever path led here, no code for a session below the required class.
  if (request.requiredAcr !== undefined && !acrAtLeast(auth.acr, request.requiredAcr))
    return answer(reply, issuer, request, {
      error: UNMET,
      error_description: 'the session does not meet the required authentication context',
    });
  // Recorded against the account and the sign-in's passkey: a password change or removing the
  // passkey revokes this grant.
  const grantId = await signIn.newGrant(auth);
  if (grantId === undefined)
    return answer(reply, issuer, request, {
      error: 'login_required',
      error_description: 'the session has ended',
    });
  const code = await codeFor(ctx, request, auth, grantId);
  // Remembered so that ending this session can tell the client (back- or front-channel
  // logout); clients with neither logout URI cost no storage round trip here.
  if (auth.sid !== undefined && request.logoutNotice)
    await rememberSessionClient(ctx, auth.sid, auth.accountId, request.clientId);
  return answer(reply, issuer, request, { code });
}
