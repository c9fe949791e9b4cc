/**
 * A resource server for the pqid IdP, on fastify: it accepts pqid's RFC 9068 JWT access tokens
 * signed with ML-DSA, a composite or a classical algorithm, and verifies them itself with
 * @pqid/jose against the IdP's JWKS — no introspection round trip per request.
 *
 * Each request is checked the way RFC 9068 §4 and RFC 9449 §7 ask:
 *   - `Authorization: Bearer <jwt>` or `Authorization: DPoP <jwt>`;
 *   - the signature, with an algorithm this server accepts (`algorithms`), from the IdP's keys;
 *   - `typ` at+jwt, `iss` the IdP, `aud` this resource, `exp`;
 *   - a token with `cnf.jkt` is DPoP-bound: only with the DPoP scheme and a `DPoP` proof for
 *     this method and URL, signed by that key, carrying the token's hash (`ath`), seen once;
 *   - the scope the route needs.
 * Tokens for this resource come from the IdP's `resourceServers` configuration (RFC 8707),
 * which can pin the algorithm to one this server verifies.
 */
import {
  createRemoteJWKSet,
  DpopProofInvalid,
  PqidError,
  registry,
  algorithms as registryAlgorithms,
  verifyDpopProof,
  verifyJwt,
} from '@pqid/jose';
import Fastify from 'fastify';
import { fetchOk } from '../shared/wait-for-idp.js';

/**
 * @typedef {object} ResourceServerOptions
 * @property {string} issuer        the pqid IdP, e.g. http://localhost:3000
 * @property {number} [port]        0 picks a free port (default 4000)
 * @property {string} [host]        default 127.0.0.1
 * @property {string} [baseUrl]     this server's public URL (default http://localhost:<port>); DPoP proofs name it
 * @property {string} [resource]    its resource indicator, exactly as in the IdP's resourceServers (default baseUrl + '/')
 * @property {string[]} [algorithms]  access-token and DPoP algorithms accepted (default: every @pqid/jose algorithm)
 * @property {number} [proofMaxAge]   seconds a DPoP proof stays acceptable (default 300)
 */

/** @typedef {{ sub: string, client_id: string, scope: string, alg: string, dpop: boolean }} Caller */

class Refusal extends Error {
  /** @param {number} status @param {string} error @param {string} description @param {'Bearer' | 'DPoP'} scheme @param {string} [scope] */
  constructor(status, error, description, scheme, scope) {
    super(description);
    this.status = status;
    this.error = error;
    this.scheme = scheme;
    this.scope = scope;
  }
}

/** @param {ResourceServerOptions} opts */
export async function createResourceServer(opts) {
  const known = registryAlgorithms();
  const algorithms = opts.algorithms ?? known;
  // A misspelt name would otherwise leave an API that refuses every token.
  const unknown = algorithms.filter((a) => !known.includes(a));
  if (unknown.length || !algorithms.length)
    throw new TypeError(
      `algorithms (RS_ALGS): ${unknown.length ? `unknown ${unknown.map((a) => JSON.stringify(a)).join(', ')}` : 'none given'}; choose from ${known.join(', ')}`,
    );
  const issuer = opts.issuer.replace(/\/+$/, '');
  const meta = await (await fetchOk(`${issuer}/.well-known/openid-configuration`)).json();
  if (meta.issuer !== issuer) throw new Error(`discovery names issuer ${meta.issuer}, expected ${issuer}`);
  // Fetched on first use, cached, refetched on an unknown kid (rotations) at most every 30 s.
  const jwks = createRemoteJWKSet(new URL(meta.jwks_uri));
  // Proofs are signed per request: SLH-DSA (cold path, 10–23 KB signatures) is not for them.
  const slh = new Set(
    registry()
      .filter((e) => e.family === 'slh-dsa')
      .map((e) => e.alg),
  );
  const proofAlgorithms = algorithms.filter((a) => !slh.has(a));
  const proofMaxAge = opts.proofMaxAge ?? 300;

  // An ML-DSA-87 composite DPoP proof (~11 KB) beside an ML-DSA-87 access token (~7 KB) is
  // past Node's default 16 KiB of headers.
  const app = Fastify({ http: { maxHeaderSize: 32 * 1024 } });
  let baseUrl = opts.baseUrl ?? '';
  let resource = opts.resource ?? '';

  /** DPoP proofs seen (thumbprint + jti) until they could no longer be accepted anyway. */
  const seen = new Map();
  const remember = (/** @type {string} */ key, /** @type {number} */ until) => {
    const now = Date.now() / 1000;
    if (seen.size > 10_000) for (const [k, exp] of seen) if (exp < now) seen.delete(k);
    if ((seen.get(key) ?? 0) > now) return false;
    seen.set(key, until);
    return true;
  };

  /**
   * The caller behind a request, or a Refusal.
   * @param {import('fastify').FastifyRequest} req
   * @returns {Promise<Caller>}
   */
  async function authenticate(req) {
    const m = /^(Bearer|DPoP) +([A-Za-z0-9._~+/-]+=*) *$/i.exec(req.headers.authorization ?? '');
    if (!m) throw new Refusal(401, 'invalid_request', 'an access token is required', 'Bearer');
    const scheme = /** @type {'Bearer' | 'DPoP'} */ (m[1]?.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer');
    const token = /** @type {string} */ (m[2]);
    let verified;
    try {
      verified = await verifyJwt(token, jwks, {
        algorithms,
        typ: 'at+jwt',
        issuer,
        audience: resource,
        requiredClaims: ['exp', 'iat', 'sub', 'client_id'],
        clockTolerance: 5,
      });
    } catch (e) {
      if (!(e instanceof PqidError)) throw e;
      throw new Refusal(401, 'invalid_token', `the access token is not valid here: ${e.message}`, scheme);
    }
    const { claims, protectedHeader } = verified;
    const jkt = /** @type {{ jkt?: unknown } | undefined} */ (claims.cnf)?.jkt;
    if (typeof jkt === 'string') {
      if (scheme !== 'DPoP')
        throw new Refusal(
          401,
          'invalid_token',
          'the access token is DPoP-bound: use the DPoP scheme',
          'DPoP',
        );
      const proofs = req.raw.rawHeaders.filter(
        (_, i, a) => i % 2 === 1 && a[i - 1]?.toLowerCase() === 'dpop',
      );
      if (proofs.length !== 1)
        throw new Refusal(401, 'invalid_dpop_proof', 'send exactly one DPoP proof', 'DPoP');
      let proof;
      try {
        proof = await verifyDpopProof(proofs[0], {
          htm: req.method,
          htu: new URL(req.url, baseUrl),
          algorithms: proofAlgorithms,
          accessToken: token,
          maxAge: proofMaxAge,
        });
      } catch (e) {
        if (!(e instanceof DpopProofInvalid)) throw e;
        throw new Refusal(401, 'invalid_dpop_proof', e.message, 'DPoP');
      }
      if (proof.jkt !== jkt)
        throw new Refusal(401, 'invalid_token', 'the access token is bound to another key', 'DPoP');
      if (!remember(`${proof.jkt}\0${proof.claims.jti}`, proof.claims.iat + proofMaxAge + 5))
        throw new Refusal(401, 'invalid_dpop_proof', 'the DPoP proof was already used', 'DPoP');
    } else if (scheme === 'DPoP') {
      throw new Refusal(
        401,
        'invalid_token',
        'the access token is not DPoP-bound: use the Bearer scheme',
        'DPoP',
      );
    }
    return {
      sub: String(claims.sub),
      client_id: String(claims.client_id),
      scope: typeof claims.scope === 'string' ? claims.scope : '',
      alg: protectedHeader.alg,
      dpop: typeof jkt === 'string',
    };
  }

  /** @param {string} [needed] a scope the route requires */
  const protect =
    (needed) =>
    /** @param {import('fastify').FastifyRequest} req */
    async (req) => {
      const caller = await authenticate(req);
      if (needed && !caller.scope.split(' ').includes(needed))
        throw new Refusal(
          403,
          'insufficient_scope',
          `this needs the ${needed} scope`,
          caller.dpop ? 'DPoP' : 'Bearer',
          needed,
        );
      /** @type {any} */ (req).caller = caller;
    };

  app.setErrorHandler((err, _req, reply) => {
    if (!(err instanceof Refusal)) {
      const status = /** @type {{ statusCode?: number }} */ (err).statusCode ?? 500;
      return reply.code(status).send({ error: status < 500 ? 'invalid_request' : 'server_error' });
    }
    // RFC 6750 §3: printable ASCII without quote and backslash (messages may echo input).
    const quote = (/** @type {string} */ s) => s.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '?');
    const params = `error="${err.error}", error_description="${quote(err.message)}"${err.scope ? `, scope="${err.scope}"` : ''}`;
    const algs = `algs="${proofAlgorithms.join(' ')}"`;
    // Without any token, offer both schemes (RFC 9449 §7.1).
    const challenge =
      err.error === 'invalid_request'
        ? `Bearer realm="${resource}", DPoP ${algs}`
        : err.scheme === 'DPoP'
          ? `DPoP ${params}, ${algs}`
          : `Bearer realm="${resource}", ${params}`;
    return reply
      .code(err.status)
      .header('www-authenticate', challenge)
      .header('cache-control', 'no-store')
      .send({ error: err.error, error_description: err.message });
  });

  // RFC 9728: how to get a token for this resource, and that DPoP is welcome.
  app.get('/.well-known/oauth-protected-resource', async () => ({
    resource,
    authorization_servers: [issuer],
    bearer_methods_supported: ['header'],
    scopes_supported: ['orders:read'],
    dpop_signing_alg_values_supported: proofAlgorithms,
    resource_name: 'pqid example resource server',
  }));

  app.get('/api/whoami', { preHandler: protect() }, async (req) => /** @type {any} */ (req).caller);

  app.get('/api/orders', { preHandler: protect('orders:read') }, async (req) => ({
    caller: /** @type {any} */ (req).caller,
    orders: [
      { id: 'o-1001', item: 'post-quantum signatures', quantity: 3 },
      { id: 'o-1002', item: 'composite keys', quantity: 1 },
    ],
  }));

  await app.listen({ port: opts.port ?? 4000, host: opts.host ?? '127.0.0.1' });
  const address = /** @type {import('node:net').AddressInfo} */ (app.server.address());
  baseUrl ||= `http://localhost:${address.port}`;
  resource ||= `${baseUrl}/`;
  return {
    app,
    url: baseUrl,
    resource,
    close: () => app.close(),
  };
}
