/**
 * Authorization codes (RFC 6749 §4.1.2): random one-time handles, stored under their SHA-256
 * digest for `ttl.authorizationCode` seconds. The record never changes after it is written; the
 * store marks it consumed when the code is spent.
 */
import type { IdpContext } from '../../context.ts';
import { randomToken, tokenId } from '../../crypto/secrets.ts';
import { type Model, model, type Stored } from '../../storage/model.ts';

export interface CodeInput {
  clientId: string;
  accountId: string;
  redirectUri: string;
  scope: string;
  nonce?: string;
  codeChallenge?: string;
  authTime: number;
  /** RFC 8707 resource indicators of the authorization request. */
  resources?: string[];
  /** `dpop_jkt` of the request (RFC 9449 §10): the code is redeemed only with this key. */
  dpopJkt?: string;
  /** The browser session's public id: `sid` in ID tokens, named by logout tokens. */
  sid?: string;
  /** Methods of the sign-in (RFC 8176) and the class to report (absent in older records). */
  amr?: string[];
  acr?: string;
  /** A grant id chosen by the caller (one recorded against the passkey of the sign-in); else a new one. */
  grantId?: string;
}

/** What is stored: the input, with the grant id always set. */
export interface AuthorizationCodeRecord extends CodeInput {
  grantId: string;
  /** Epoch seconds of issue (absent in older records): whose registration the code belongs to. */
  iat?: number;
}

const codes = (ctx: IdpContext): Model<AuthorizationCodeRecord> =>
  model<AuthorizationCodeRecord>(ctx.storage, 'AuthorizationCode');

export async function issueCode(ctx: IdpContext, input: CodeInput): Promise<string> {
  const code = randomToken();
  const record: AuthorizationCodeRecord = {
    ...input,
    grantId: input.grantId ?? randomToken(16),
    iat: Math.floor(Date.now() / 1000),
  };
  await codes(ctx).upsert(tokenId(code), record, ctx.config.ttl.authorizationCode);
  return code;
}

/**
 * The record of a presented code, spent or not (`consumed` set: a replay); unknown when its
 * client was removed (Clients.holderOf).
 */
export async function findCode(
  ctx: IdpContext,
  code: string,
): Promise<Stored<AuthorizationCodeRecord> | undefined> {
  const record = await codes(ctx).find(tokenId(code));
  if (record === undefined) return undefined;
  return (await ctx.clients.holderOf(record.clientId, record.iat)) ? record : undefined;
}

/**
 * Spend the code, atomically in the shared store: of concurrent redemptions, on any number of
 * instances, one gets true; the others are replays.
 */
export function consumeCode(ctx: IdpContext, code: string): Promise<boolean> {
  return codes(ctx).consume(tokenId(code));
}
