/**
 * The browser session, shared by OIDC and SAML: the cookie carries only a random id; the record
 * lives in storage under the id's digest, so a database dump holds no usable cookie.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { endpoints, type IdpContext } from '../context.ts';
import { randomToken, tokenId } from '../crypto/secrets.ts';
import { type Model, model } from '../storage/model.ts';
import { AMR, type AuthContext, authContext } from './auth-context.ts';

export const SESSION_COOKIE = 'pqid_session';

/** What storage holds; `acr` is not stored but derived from `amr`, so it follows policy changes. */
interface SessionRecord {
  accountId: string;
  authTime: number;
  /** Absent in sessions started before it was recorded: those were all password sign-ins. */
  amr?: string[];
  /** Public session id (OIDC `sid`), unrelated to the cookie; absent in older sessions. */
  sid?: string;
  /** Credential ID of the passkey the sign-in used: removing it ends this session. */
  passkey?: string;
}

export function cookieOptions(ctx: IdpContext, path: string, maxAge?: number) {
  return {
    path,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: ctx.config.issuer.startsWith('https:'),
    ...(maxAge !== undefined ? { maxAge } : {}),
  };
}

const sessionsOf = (ctx: IdpContext): Model<SessionRecord> => model<SessionRecord>(ctx.storage, 'Session');

const sessionPath = (ctx: IdpContext) => endpoints(ctx.config.issuer).prefix || '/';

const contextOf = (key: string, r: SessionRecord): AuthContext =>
  authContext(r.accountId, r.authTime, r.amr ?? [AMR.password], r.sid, { session: key, passkey: r.passkey });

/** This browser's session, whatever it achieved; protocols ask SignIn.check instead. */
export async function currentSession(ctx: IdpContext, req: FastifyRequest): Promise<AuthContext | undefined> {
  const id = req.cookies[SESSION_COOKIE];
  if (!id) return undefined;
  const key = tokenId(id);
  const record = await sessionsOf(ctx).find(key);
  return record ? contextOf(key, record) : undefined;
}

/**
 * A new session for a user who just authenticated with the methods `amr`. It replaces the
 * browser's current session, if any, under a new cookie. When the same user authenticates again
 * (a step-up with a passkey, `prompt=login`, `max_age`), the session keeps its public id (`sid`):
 * to the applications it is the same session at a stronger level, and back-channel logout must
 * still reach every client that got a code in it. Another user gets a new `sid`.
 */
export async function startSession(
  ctx: IdpContext,
  req: FastifyRequest,
  reply: FastifyReply,
  accountId: string,
  amr: string[],
  passkey?: string,
): Promise<AuthContext> {
  const sessions = sessionsOf(ctx);
  const previousId = req.cookies[SESSION_COOKIE];
  const previous = previousId ? await sessions.find(tokenId(previousId)) : undefined;
  const id = randomToken();
  const record: SessionRecord = {
    accountId,
    authTime: Math.floor(Date.now() / 1000),
    amr,
    sid: previous?.accountId === accountId && previous.sid ? previous.sid : randomToken(16),
    ...(passkey !== undefined ? { passkey } : {}),
  };
  const key = tokenId(id);
  await sessions.upsert(key, record, ctx.config.ttl.session);
  // The old cookie must not keep a session alive beside the new one.
  if (previousId && previous) await sessions.destroy(tokenId(previousId));
  reply.setCookie(SESSION_COOKIE, id, cookieOptions(ctx, sessionPath(ctx), ctx.config.ttl.session));
  return contextOf(key, record);
}

/**
 * Sign this browser out: the record goes, and so does the cookie. Returns the session that
 * ended, if there was one, so the caller can tell the applications that shared it.
 */
export async function endSession(
  ctx: IdpContext,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<AuthContext | undefined> {
  const id = req.cookies[SESSION_COOKIE];
  const ended = id ? await currentSession(ctx, req) : undefined;
  if (id) await sessionsOf(ctx).destroy(tokenId(id));
  reply.clearCookie(SESSION_COOKIE, cookieOptions(ctx, sessionPath(ctx)));
  return ended;
}
