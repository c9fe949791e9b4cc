/**
 * Security headers on every response, whichever route (or error or 404 handler) answered:
 *
 *   X-Content-Type-Options: nosniff      browsers never guess a type (a JSON error is no page)
 *   Referrer-Policy: no-referrer          codes and states in URLs never leak to other sites
 *   Strict-Transport-Security             when the issuer is https (see below)
 *   Cache-Control: no-store               unless the route chose a caching policy (discovery,
 *                                         JWKS, SAML metadata): tokens, codes, userinfo,
 *                                         introspection, form_post and SAML forms are never cached
 *   Content-Security-Policy               a locked-down default for anything that set none:
 *                                         nothing loads, nothing frames it
 *
 * UI pages set their own, stricter-in-context CSP (ui/html.ts sendPage: `frame-ancestors 'none'`,
 * `form-action` for the client, script hashes for the auto-submit forms), which is kept as is.
 *
 * HSTS follows the issuer, not the request: the issuer is the URL browsers use, so with an https
 * issuer every browser request arrived over TLS, also when a proxy terminates it in front of us
 * and forwards plain HTTP (no X-Forwarded-Proto needed; browsers ignore HSTS on http anyway).
 * No `includeSubDomains`: an issuer on a path of a shared host must not pin its siblings.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';

export interface SecurityHeadersOptions {
  issuer: string;
  /** HSTS max-age in seconds (default one year). */
  hstsMaxAge?: number;
}

export const DEFAULT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Set the headers on `reply`; also for answers the router gives before any hook runs. */
export function applySecurityHeaders(reply: FastifyReply, opts: SecurityHeadersOptions): void {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  if (opts.issuer.startsWith('https:'))
    reply.header('strict-transport-security', `max-age=${opts.hstsMaxAge ?? 31_536_000}`);
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', DEFAULT_CSP);
  const type = String(reply.getHeader('content-type') ?? '');
  if (type.startsWith('text/html') && !reply.hasHeader('x-frame-options'))
    reply.header('x-frame-options', 'DENY');
}

async function plugin(app: FastifyInstance, opts: SecurityHeadersOptions): Promise<void> {
  app.addHook('onSend', async (_req, reply, payload) => {
    applySecurityHeaders(reply, opts);
    return payload;
  });
}

// Not encapsulated (what fastify-plugin does): the hook must see every route of the server.
(plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

export const securityHeaders = plugin;
