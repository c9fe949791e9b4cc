/**
 * GET / (the issuer URL): the landing page for browsers, its links as JSON for a client that
 * asks for JSON. A person who types the issuer into a browser learns what the server is instead
 * of reading a JSON 404.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoints, type IdpContext } from './context.ts';
import { signedJwksUrl } from './oidc/jwks.ts';
import { samlEndpoints } from './saml/endpoints.ts';
import { sendPage } from './ui/html.ts';
import { type LandingLinks, landingJson, landingPage } from './ui/landing.ts';

/** JSON only when asked for it and HTML is not: browsers, curl and unknown clients get the page. */
export function wantsJson(req: FastifyRequest): boolean {
  const accept = String(req.headers.accept ?? '').toLowerCase();
  return /\bapplication\/([\w.+-]*\+)?json\b/.test(accept) && !accept.includes('text/html');
}

export function landingLinks(ctx: IdpContext): LandingLinks {
  const { config } = ctx;
  const { origin } = new URL(config.issuer);
  return {
    issuer: config.issuer,
    discovery: `${config.issuer}/.well-known/openid-configuration`,
    jwks: endpoints(config.issuer).jwks,
    ...(config.keys.signedJwks ? { signedJwks: signedJwksUrl(config.issuer) } : {}),
    ...(config.saml.enabled ? { samlMetadata: samlEndpoints(config).metadata } : {}),
    health: `${origin}/healthz`,
    account: `${config.issuer}/account`,
  };
}

export async function landingRoutes(app: FastifyInstance, { ctx }: { ctx: IdpContext }): Promise<void> {
  const links = landingLinks(ctx);
  app.get('/', async (req, reply) => {
    reply.header('vary', 'accept');
    if (wantsJson(req)) return reply.header('cache-control', 'no-store').send(landingJson(links));
    return sendPage(reply, 200, landingPage(links));
  });
}
