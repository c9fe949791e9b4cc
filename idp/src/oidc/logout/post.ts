/**
 * One POST of a logout token to a client's `backchannel_logout_uri` (OIDC Back-Channel Logout
 * 1.0 §2.5), through the outbound guard: a dynamically registered client's URI reaches public
 * addresses only. A redirect is not a delivery (never followed); an RP that moved must register
 * its new URI.
 */
import { type Client, trustOf } from '../../clients/clients.ts';
import { OutboundRefused } from '../../clients/outbound.ts';
import type { IdpContext } from '../../context.ts';

/** What one try came to. */
export interface Attempt {
  /** The RP's HTTP status; absent when none came (network error, timeout, refusal). */
  status?: number;
  /** For the log: the status, or what went wrong. */
  reason: string;
  /** The outbound policy refused the URI: trying again would be refused again. */
  refused: boolean;
  seconds: number;
}

export async function postLogoutToken(
  ctx: IdpContext,
  client: Client,
  uri: string,
  token: string,
): Promise<Attempt> {
  const timeout = ctx.config.backchannelLogout.timeout;
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  let status: number | undefined;
  try {
    const r = await ctx.outbound.fetch(trustOf(client), uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'cache-control': 'no-store' },
      body: new URLSearchParams({ logout_token: token }),
      timeout: timeout * 1000,
    });
    status = r.status;
    await r.body?.cancel();
    return { status, reason: `HTTP ${status}`, refused: false, seconds: seconds() };
  } catch (e) {
    const refused = e instanceof OutboundRefused;
    const reason =
      (e as Error).name === 'TimeoutError'
        ? `timeout after ${timeout} s`
        : refused
          ? `refused by the outbound policy: ${(e as Error).message}`
          : (e as Error).message;
    // A status already read stands, as when only discarding the body failed.
    return { ...(status !== undefined ? { status } : {}), reason, refused, seconds: seconds() };
  }
}
