/**
 * The server processes a run drives, as a table: the main pqid IdP (sizes, throughput, login,
 * TLS and the harness parts), the same IdP with stateless access tokens, node-oidc-provider for
 * the comparison, and the placement study's IdP. Each is a child process (so its CPU time can be
 * read from /proc) that prints one JSON "ready" line. A variant in lib/variants.mjs names its server here by key.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { preferredBackend } from '@pqid/jose';
import { LOAD_DIR, REPO_DIR } from '../paths.mjs';
import { freePort, startChild, stopChild } from '../proc.mjs';
import { COMPARE_ALGS, encryptedIdTokenClients, FLOOR_ALGS, PLACEMENT_ALGS } from '../variants.mjs';

/** @typedef {import('../types.d.ts').Server} Server */
/** @typedef {import('../types.d.ts').Server<import('../types.d.ts').IdpInfo>} Idp */
/** @typedef {import('./context.mjs').RunContext} RunContext */

/**
 * The placement study's IdP: the cold path the docs recommend (an SLH-DSA-SHA2-128s root
 * signing the SAML certificates, the metadata and a signed JWKS) that also accepts SLH-DSA
 * clients, so every placement regime is served and measured rather than modelled.
 */
export const PLACEMENT_CONFIG = {
  keys: {
    placement: { cold: 'SLH-DSA-SHA2-128s' },
    signedJwks: true,
    allowSlhDsaHotPath: true,
  },
};

/** The stateless IdP: JWT access tokens verified where presented, revoked through a denylist. */
export const STATELESS_CONFIG = { accessTokenStorage: 'stateless' };

/**
 * @typedef {object} ServerSpec
 * @property {string} script in load/lib
 * @property {(ctx: RunContext, port: number) => Record<string, unknown>} args its JSON argument
 * @property {(ctx: RunContext, server: Server) => void} [started] what the results record about it
 */

/** @param {RunContext} ctx */
const users = (ctx) => Math.max(8, ctx.opts.vus * 2);

/** @type {Record<string, ServerSpec>} */
export const SERVERS = {
  'oidc-provider': {
    script: 'oidc-provider-server.mjs',
    args: (_ctx, port) => ({ port, algs: COMPARE_ALGS }),
    started: (ctx) => {
      ctx.results.meta.oidcProvider = JSON.parse(
        readFileSync(join(REPO_DIR, 'node_modules', 'oidc-provider', 'package.json'), 'utf8'),
      ).version;
    },
  },
  'idp-stateless': {
    script: 'idp-server.mjs',
    args: (ctx, port) => ({
      port,
      dataDir: join(ctx.work, 'idp-stateless'),
      algs: COMPARE_ALGS.filter((a) => ctx.opts.algs.includes(a)),
      users: users(ctx),
      config: STATELESS_CONFIG,
    }),
  },
  'idp-placement': {
    script: 'idp-server.mjs',
    args: (ctx, port) => ({
      port,
      dataDir: join(ctx.work, 'idp-placement'),
      algs: PLACEMENT_ALGS,
      users: users(ctx),
      config: PLACEMENT_CONFIG,
    }),
  },
};

/**
 * Start a server of the SERVERS table; it is stopped with the run at the latest.
 * @param {RunContext} ctx
 * @param {string} key
 * @returns {Promise<Server>}
 */
export async function startServer(ctx, key) {
  const spec = SERVERS[key];
  if (!spec) throw new Error(`no server ${key} in SERVERS`);
  const server = await startChild(
    process.execPath,
    join(LOAD_DIR, 'lib', spec.script),
    spec.args(ctx, await freePort()),
  );
  ctx.children.push(server.child);
  spec.started?.(ctx, server);
  return server;
}

/**
 * Run `use` against a server of the SERVERS table, started for it and stopped after.
 * @template T
 * @param {RunContext} ctx
 * @param {string} key
 * @param {(server: Server) => Promise<T>} use
 */
export async function withServer(ctx, key, use) {
  const server = await startServer(ctx, key);
  try {
    return await use(server);
  } finally {
    await stopChild(server.child);
  }
}

/**
 * The main IdP: every algorithm's clients, the users the login flows need, the harness floors,
 * HTTPS listeners for the TLS scenario; optionally under the V8 profiler. Records its backends.
 * @param {RunContext} ctx
 * @returns {Promise<Idp>}
 */
export async function startMainIdp(ctx) {
  const { opts, results } = ctx;
  const port = await freePort();
  const tlsPorts = opts.scenarios.includes('tls') ? [await freePort(), await freePort()] : [];
  const idp = /** @type {Idp} */ (
    await startChild(
      process.execPath,
      join(LOAD_DIR, 'lib', 'idp-server.mjs'),
      {
        port,
        dataDir: join(ctx.work, 'idp'),
        algs: opts.algs,
        floorAlgs: FLOOR_ALGS,
        encryptedIdTokens: encryptedIdTokenClients(opts),
        users: users(ctx),
        tls: tlsPorts.length
          ? [
              { name: 'X25519MLKEM768', ecdhCurve: 'X25519MLKEM768:X25519', port: tlsPorts[0] },
              { name: 'X25519', ecdhCurve: 'X25519', port: tlsPorts[1] },
            ]
          : [],
      },
      { nodeArgs: opts.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProf}`] : [] },
    )
  );
  ctx.children.push(idp.child);
  results.meta.idp = {
    issuer: idp.info.issuer,
    node: idp.info.node,
    openssl: idp.info.openssl,
    // /healthz shows the backends only to the operator token; the harness reports them itself.
    mldsaBackends: idp.info.mldsaBackends ?? [],
  };
  results.meta.runnerMldsaBackend = preferredBackend();
  return idp;
}
