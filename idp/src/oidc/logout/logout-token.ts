/**
 * The logout token (OpenID Connect Back-Channel Logout 1.0 §2.4): a JWT (`typ` logout+jwt) naming
 * the user (`sub`) and the session (`sid`), signed like the client's ID tokens, so with ML-DSA or
 * a composite when that is what it verifies.
 */
import type { IdpContext } from '../../context.ts';
import { randomToken } from '../../crypto/secrets.ts';
import { signToken } from '../shared/signing.ts';

export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** Long enough for retries to reuse the token, short enough to be useless if it leaks. */
const LOGOUT_TOKEN_LIFETIME = 120;

/** A fresh logout token for `sub`'s session `sid` at client `clientId`, with its `exp`. */
export async function signLogoutToken(
  ctx: IdpContext,
  { clientId, sub, sid }: { clientId: string; sub: string; sid: string },
  alg: string,
): Promise<{ token: string; exp: number }> {
  const exp = Math.floor(Date.now() / 1000) + LOGOUT_TOKEN_LIFETIME;
  const token = await signToken(
    ctx,
    'logout_token',
    alg,
    { sid, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} }, jti: randomToken(16) },
    {
      typ: 'logout+jwt',
      issuer: ctx.config.issuer,
      subject: sub,
      audience: clientId,
      expiresIn: LOGOUT_TOKEN_LIFETIME,
    },
  );
  return { token, exp };
}
