/**
 * What the fault script runs against: its own PostgreSQL cluster with a fresh schema, two IdP
 * instances (idp/dist/main.js on one database, one KEK, one issuer) behind a round-robin
 * balancer (load/lib/balancer.mjs), the test clients and users registered once through the
 * library, and an RSS sampler. `stop()` undoes all of it, also after a failed start.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { outOfRotationMs, startBalancer } from '../balancer.mjs';
import { freePort } from '../proc.mjs';
import { Instance, rssMiB } from './instance.mjs';
import { pgCtl } from './postgres.mjs';

/** @typedef {import('./types.d.ts').FaultOptions} FaultOptions */
/** @typedef {import('./types.d.ts').RssSample} RssSample */

export const REDIRECT_URI = 'http://127.0.0.1:9/cb';
export const CC_CLIENT = 'faults-cc';
export const RP_CLIENT = 'faults-rp';

/**
 * The clients (client_credentials and a public refresh_token client, both signing with `alg`) and
 * four users, registered through the library on the shared database before any instance starts.
 * @param {{ issuer: string, databaseUrl: string, kek: string, alg: string, dir: string }} where
 */
async function register({ issuer, databaseUrl, kek, alg, dir }) {
  const { createIdp, loadConfig, registerClient } = await import('@pqid/idp');
  mkdirSync(dir);
  const config = loadConfig({
    env: {},
    cwd: dir,
    overrides: { issuer, dataDir: dir, databaseUrl, logLevel: 'silent', demo: { enabled: false } },
  });
  const setup = await createIdp(config, { env: { PQID_KEK: kek }, warn: () => {} });
  /** @type {Partial<import('@pqid/idp').ClientInput>} */
  const common = {
    id_token_signed_response_alg: alg,
    access_token_format: 'jwt',
    access_token_signed_response_alg: alg,
  };
  const { clientSecret } = await registerClient(setup.ctx, {
    ...common,
    client_id: CC_CLIENT,
    token_endpoint_auth_method: 'client_secret_basic',
    redirect_uris: [],
    grant_types: ['client_credentials'],
    scope: 'api',
  });
  await registerClient(setup.ctx, {
    ...common,
    client_id: RP_CLIENT,
    token_endpoint_auth_method: 'none',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
    scope: 'openid profile email offline_access',
  });
  const password = randomBytes(12).toString('base64url');
  const users = [];
  for (let i = 0; i < 4; i++) {
    const username = `faults-${i}`;
    await setup.ctx.accounts.create({
      username,
      password,
      name: `Faults ${i}`,
      email: `${username}@example.com`,
      emailVerified: true,
    });
    users.push(username);
  }
  await setup.close();
  return { clientSecret: clientSecret ?? '', password, users };
}

/** How often the balancer checks /healthz. */
const HEALTH_INTERVAL_MS = 250;
/**
 * The instances' shutdown delay: longer than the balancer can take to see /healthz say draining
 * (one interval, plus a check that times out), so that no request is sent to an instance after
 * its listener closes, and a SIGTERM resets no connection.
 */
export const SHUTDOWN_DELAY_MS = outOfRotationMs(HEALTH_INTERVAL_MS) + 500;

/**
 * The two instances' environment: production, one database, one KEK, the balancer as issuer.
 * @param {string} issuer
 * @param {string} databaseUrl
 * @param {string} kek
 */
const instanceEnv = (issuer, databaseUrl, kek) => ({
  PATH: process.env.PATH ?? '',
  NODE_ENV: 'production',
  PQID_HOST: '127.0.0.1',
  PQID_ISSUER: issuer,
  PQID_DATABASE_URL: databaseUrl,
  PQID_KEK: kek,
  PQID_DEMO: 'false',
  PQID_LOG_LEVEL: 'info',
  PQID_SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
  // /healthz names the signing backend (for the report) only to the operator token
  PQID_METRICS_TOKEN: randomBytes(16).toString('base64url'),
});

export class Cluster {
  /**
   * @param {FaultOptions} opts
   * @param {string} work a temporary directory (the instances' data, the setup)
   * @param {string} outDir where the instances' logs go
   * @param {(line: string) => void} say
   */
  constructor(opts, work, outDir, say) {
    this.opts = opts;
    this.work = work;
    this.outDir = outDir;
    this.say = say;
    /** @type {Instance[]} */
    this.instances = [];
    /** @type {import('../balancer.mjs').Balancer | undefined} */
    this.balancer = undefined;
    /** @type {pg.Pool | undefined} */
    this.pool = undefined;
    this.pgPort = 0;
    this.pgStarted = false;
    this.schema = `faults_${randomBytes(4).toString('hex')}`;
    this.issuer = '';
    this.clientSecret = '';
    this.password = '';
    /** @type {string[]} */
    this.users = [];
    /** @type {RssSample[]} */
    this.rss = [];
    /** @type {NodeJS.Timeout | undefined} */
    this.rssTimer = undefined;
  }

  /** PostgreSQL (own cluster, fresh schema), the balancer, the clients and users, both instances. */
  async start() {
    const t0 = Date.now();
    this.pgPort = this.opts.pgPort ?? (await freePort());
    this.pgStarted = true; // our own directory: destroyed at the end even if start fails half-way
    const baseUrl = pgCtl(this.pgPort, 'start');
    // Fail fast when the database is unreachable: 2 s to connect or to get a pooled connection.
    const databaseUrl = `${baseUrl}?schema=${this.schema}&connect_timeout_ms=2000&statement_timeout_ms=5000`;
    this.pool = new pg.Pool({ connectionString: baseUrl, max: 2 });
    this.pool.on('error', () => {});
    this.say(
      `PostgreSQL on 127.0.0.1:${this.pgPort} (own cluster), schema ${this.schema} (${Date.now() - t0} ms)`,
    );
    // The balancer first: its URL is the issuer of both instances.
    const ports = [await freePort(), await freePort()];
    this.balancer = await startBalancer({
      upstreams: ports.map((port, i) => ({ name: i ? 'B' : 'A', port })),
      healthIntervalMs: HEALTH_INTERVAL_MS,
    });
    this.issuer = this.balancer.url;
    const kek = randomBytes(32).toString('base64');
    const dir = join(this.work, 'setup');
    Object.assign(this, await register({ issuer: this.issuer, databaseUrl, kek, alg: this.opts.alg, dir }));
    const env = instanceEnv(this.issuer, databaseUrl, kek);
    for (const [i, name] of ['A', 'B'].entries()) {
      mkdirSync(join(this.work, name));
      this.instances.push(
        new Instance(name, ports[i] ?? 0, { ...env, PQID_DATA_DIR: join(this.work, name) }, this.outDir),
      );
    }
    return Promise.all(this.instances.map((i) => i.start()));
  }

  /** Sample every live instance's RSS every 2 s (the soak averages it per window). */
  sampleRss() {
    this.rssTimer = setInterval(() => {
      const t = Date.now();
      for (const i of this.instances) {
        const v = i.alive() && i.pid !== undefined ? rssMiB(i.pid) : undefined;
        if (v !== undefined) this.rss.push({ t, instance: i.name, rssMiB: v });
      }
    }, 2000);
  }

  /** Requests served per instance, and the balancer's counters. */
  stats() {
    const served = Object.fromEntries((this.balancer?.upstreams ?? []).map((u) => [u.name, u.served]));
    return { ...this.balancer?.stats, served };
  }

  /** Everything started, stopped; the cluster's directory destroyed. Best effort throughout. */
  async stop() {
    clearInterval(this.rssTimer);
    // together: each waits out its shutdown delay
    await Promise.all(this.instances.map((i) => i.stop().catch(() => {})));
    await this.balancer?.close().catch(() => {});
    await this.pool?.end().catch(() => {});
    if (this.pgStarted) {
      try {
        pgCtl(this.pgPort, 'destroy');
      } catch {
        // best effort
      }
    }
  }
}
