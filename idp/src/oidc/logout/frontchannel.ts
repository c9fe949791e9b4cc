/**
 * OpenID Connect Front-Channel Logout 1.0: when a browser session ends at the end-session
 * endpoint, the page the user sees loads each client's `frontchannel_logout_uri` in a hidden
 * iframe, with `iss` and `sid` appended (always, so `frontchannel_logout_session_required` is
 * always met), then continues to the `post_logout_redirect_uri`, if any. The clients are those
 * that got a code in the session (session-clients.ts). Nothing is signed: the RP learns only
 * which session ended, so ML-DSA adds no bytes here.
 *
 * The page's CSP allows exactly the frames' origins in `frame-src`; every other page frames
 * nothing (`default-src 'none'`).
 */
import type { FastifyReply } from 'fastify';
import type { Client } from '../../clients/clients.ts';
import { sendPage } from '../../ui/html.ts';
import { CONTINUE_AFTER_FRAMES, frontchannelLogoutPage } from '../../ui/pages.ts';

/**
 * The URI as registered, its query kept byte for byte (§2: "MUST be retained"), with `iss` and
 * `sid` appended. Registration refuses a URI that already has either, or a fragment.
 */
export function frontchannelLogoutUrl(uri: string, issuer: string, sid: string): string {
  const params = new URLSearchParams({ iss: issuer, sid }).toString();
  const sep = !uri.includes('?') ? '?' : uri.endsWith('?') || uri.endsWith('&') ? '' : '&';
  return `${uri}${sep}${params}`;
}

// What a CSP host-source can express; registration allows nothing else (clients/clients.ts). Checked
// again here so that a record written around the validation cannot inject into the header.
const FRAME_ORIGIN = /^https?:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/;

/**
 * Answer the end of a session with its front-channel frames, or undefined when it has none
 * (the caller then answers as it would without front-channel logout).
 */
export function sendFrontchannelLogout(
  reply: FastifyReply,
  {
    issuer,
    sid,
    clients,
    continueTo,
  }: { issuer: string; sid: string; clients: Client[]; continueTo?: string },
): FastifyReply | undefined {
  const frames: Array<{ name: string; src: string; origin: string }> = [];
  for (const client of clients) {
    const uri = client.frontchannel_logout_uri;
    if (uri === undefined) continue;
    const origin = URL.canParse(uri) ? new URL(uri).origin : '';
    if (!FRAME_ORIGIN.test(origin)) {
      reply.log.warn({ clientId: client.client_id }, 'front-channel logout: unusable URI, skipped');
      continue;
    }
    frames.push({
      name: client.client_name ?? client.client_id,
      src: frontchannelLogoutUrl(uri, issuer, sid),
      origin,
    });
  }
  if (frames.length === 0) return undefined;
  const html = frontchannelLogoutPage({ frames, ...(continueTo !== undefined ? { continueTo } : {}) });
  const scripts = continueTo !== undefined ? [CONTINUE_AFTER_FRAMES.hash] : [];
  return sendPage(reply, 200, html, [], scripts, [], [...new Set(frames.map((f) => f.origin))]);
}
