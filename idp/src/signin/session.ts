/**
 * The browser session, shared by OIDC and SAML: the cookie carries only a random id; the record
 * lives in storage under the id's digest, so a database dump holds no usable cookie.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { endpoints, type IdpContext } from '../context.ts';
import { randomToken, tokenId } from '../crypto/secrets.ts';

export const SESSION_COOKIE = 'pqid_session';

export interface SessionRecord {
  [member: string]: unknown;
  accountId: string;
  authTime: number;
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

const sessionPath = (ctx: IdpContext) => endpoints(ctx.config.issuer).prefix || '/';

export async function currentSession(
  ctx: IdpContext,
  req: FastifyRequest,
): Promise<SessionRecord | undefined> {
  const id = req.cookies[SESSION_COOKIE];
  if (!id) return undefined;
  return (await ctx.storage.adapter('Session').find(tokenId(id))) as SessionRecord | undefined;
}

export async function startSession(
  ctx: IdpContext,
  reply: FastifyReply,
  accountId: string,
): Promise<SessionRecord> {
  const id = randomToken();
  const record: SessionRecord = { accountId, authTime: Math.floor(Date.now() / 1000) };
  await ctx.storage.adapter('Session').upsert(tokenId(id), record, ctx.config.ttl.session);
  reply.setCookie(SESSION_COOKIE, id, cookieOptions(ctx, sessionPath(ctx), ctx.config.ttl.session));
  return record;
}

/** Sign this browser out: the record goes, and so does the cookie. */
export async function endSession(ctx: IdpContext, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const id = req.cookies[SESSION_COOKIE];
  if (id) await ctx.storage.adapter('Session').destroy(tokenId(id));
  reply.clearCookie(SESSION_COOKIE, cookieOptions(ctx, sessionPath(ctx)));
}
