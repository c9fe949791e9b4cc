/** The browser session: the cookie carries only a random id; the record lives in storage. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpContext } from '../context.ts';
import { randomToken, tokenId } from '../crypto/secrets.ts';

export const SESSION_COOKIE = 'pqid_session';
export const INTERACTION_COOKIE = 'pqid_interaction';

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
  prefix: string,
  accountId: string,
): Promise<SessionRecord> {
  const id = randomToken();
  const record: SessionRecord = { accountId, authTime: Math.floor(Date.now() / 1000) };
  await ctx.storage.adapter('Session').upsert(tokenId(id), record, ctx.config.ttl.session);
  reply.setCookie(SESSION_COOKIE, id, cookieOptions(ctx, prefix || '/', ctx.config.ttl.session));
  return record;
}
