/** The fastify instance: each route group is an encapsulated plugin with its own error handling. */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { endpoints, type IdpContext } from './context.ts';
import { healthRoutes } from './health.ts';
import { landingRoutes } from './landing.ts';
import { loggerOptions } from './logging.ts';
import { metricsFor } from './metrics.ts';
import { BackchannelLogout } from './oidc/logout/backchannel.ts';
import { oidcRoutes } from './oidc/routes.ts';
import { Dpop } from './oidc/shared/dpop.ts';
import { jsonErrorHandler, OAuthError, sendOAuthError } from './oidc/shared/errors.ts';
import { operatorTokenCheck } from './operator-token.ts';
import { samlRoutes } from './saml/routes.ts';
import { applySecurityHeaders, securityHeaders } from './security/headers.ts';
import { accountRoutes } from './signin/account.ts';
import { signInRoutes } from './signin/routes.ts';
import { SignIn } from './signin/sign-in.ts';
import { acceptsHtml, sendPage } from './ui/html.ts';
import { notFoundPage } from './ui/pages.ts';

export interface ServerOptions {
  /** Where logs go instead of stdout (tests). */
  logStream?: { write(msg: string): void };
  /** HMAC key of DPoP nonces, the same on every instance (createIdp derives it from the KEK). */
  dpopNonceKey?: Buffer;
  /** Whether the process is shutting down: /healthz says `draining` (health.ts). */
  draining?: () => boolean;
}

export async function buildServer(ctx: IdpContext, opts: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(ctx.config.logLevel, opts.logStream),
    bodyLimit: ctx.config.bodyLimit,
    // Post-quantum DPoP proofs (ML-DSA-87: 11 KB) with a PQ access token beside them pass
    // Node's 16 KiB default; the DPoP check then applies its own, smaller, per-proof limit.
    http: { maxHeaderSize: ctx.config.maxHeaderBytes },
    clientErrorHandler: headerOverflowAnswer(ctx.config.maxHeaderBytes),
    // Only the operator's proxies may name the client (X-Forwarded-For); it is what login limits count.
    trustProxy: ctx.config.trustProxy.length > 0 ? [...ctx.config.trustProxy] : false,
    // Unknown parameters are ignored rather than rejected, as OAuth requires.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Malformed or over-long paths are refused by the router before any hook or handler: answer
    // them like every other error (an OAuth body with the security headers), not fastify's default.
    frameworkErrors: (err, _req, reply) => {
      applySecurityHeaders(reply, { issuer: ctx.config.issuer });
      const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
      return sendOAuthError(
        reply,
        new OAuthError(
          'invalid_request',
          tooLong ? 'a path segment is too long' : 'malformed URL',
          tooLong ? 414 : 400,
        ),
      );
    },
  });
  await app.register(cookie);
  await app.register(formbody);
  // First, so every response gets them: routes, error and not-found handlers, /metrics, /healthz.
  await app.register(securityHeaders, { issuer: ctx.config.issuer });
  if (opts.draining) closeConnectionsWhileDraining(app, opts.draining);
  app.setErrorHandler(jsonErrorHandler);
  // A browser gets a page with the way home; every other client the OAuth error body.
  app.setNotFoundHandler((req, reply) =>
    req.method === 'GET' && acceptsHtml(req)
      ? sendPage(reply, 404, notFoundPage(`${ctx.config.issuer}/`))
      : sendOAuthError(reply, new OAuthError('not_found', 'no such endpoint', 404)),
  );

  // Before the route plugins, so their requests are timed too.
  metricsRoutes(app, ctx);
  const { prefix } = endpoints(ctx.config.issuer);
  // Beneath both protocols: OIDC and SAML send the browser here to sign in.
  const signIn = new SignIn(ctx);
  const dpop = new Dpop(ctx, opts.dpopNonceKey ?? randomBytes(32));
  const backchannel = new BackchannelLogout(ctx, app.log);
  // Sessions ended without a sign-out (a passkey removed here) are announced by this instance at once.
  ctx.sessionsEnded = (sessions) => backchannel.sessionsEnded(sessions);
  app.decorate('backchannelLogout', backchannel);
  app.addHook('onReady', async () => backchannel.start());
  app.addHook('onClose', () => backchannel.close());
  await app.register(
    async (scope) => {
      await scope.register(landingRoutes, { ctx });
      await scope.register(signInRoutes, { ctx, signIn });
      await scope.register(accountRoutes, { ctx, signIn });
      await oidcRoutes(scope, { ctx, signIn, dpop, backchannel });
      await scope.register(samlRoutes, { ctx, signIn });
    },
    { prefix },
  );
  await app.register(healthRoutes, { ctx, ...(opts.draining ? { draining: opts.draining } : {}) });
  return app;
}

/**
 * While the process is stopping, every answer ends its connection (`Connection: close`, as Go's
 * `http.Server.Shutdown` stops keep-alives): a client or balancer holding a keep-alive connection
 * opens a new one, through the balancer to another instance, instead of reusing this one until
 * it is closed under it when the listener closes.
 */
function closeConnectionsWhileDraining(app: FastifyInstance, draining: () => boolean): void {
  // A callback hook, not an async one: every response passes here, and an async hook costs each
  // of them a promise for a flag that is false until the process stops.
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (draining()) reply.header('connection', 'close');
    done(null, payload);
  });
}

/** Request latency per route pattern, and the Prometheus scrape endpoint (not logged: scraped often). */
function metricsRoutes(app: FastifyInstance, ctx: IdpContext): void {
  const m = metricsFor(ctx);
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url;
    if (route === '/metrics') return;
    m.requestSeconds.observe(
      { method: req.method, route: route ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  const authorized = operatorTokenCheck(ctx.config.metricsToken);
  app.get('/metrics', { logLevel: 'silent' }, async (req, reply) => {
    if (authorized !== undefined) {
      if (!authorized(req)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send({ error: 'invalid_token', error_description: 'metrics need the configured bearer token' });
      }
    }
    return reply.header('content-type', m.registry.contentType).send(await m.registry.metrics());
  });
}

/**
 * Node refuses oversized headers before fastify sees the request: answer those with an OAuth
 * error that names the limit instead of a bare 431, and everything else as fastify would.
 */
function headerOverflowAnswer(limit: number) {
  return function (this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, body] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [
            '431 Request Header Fields Too Large',
            {
              error: 'invalid_request',
              error_description: `the request line and headers exceed ${limit} bytes (maxHeaderBytes)`,
            },
          ]
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? ['408 Request Timeout', { error: 'invalid_request', error_description: 'request timeout' }]
          : ['400 Bad Request', { error: 'invalid_request', error_description: 'malformed HTTP request' }];
    this.log.debug({ code: err.code }, 'refused a malformed request');
    const text = JSON.stringify(body);
    if (socket.writable)
      socket.write(
        `HTTP/1.1 ${status}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${text}`,
      );
    socket.destroy(err);
  };
}
