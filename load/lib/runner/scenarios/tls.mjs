/**
 * The `tls` scenario: new TLS 1.3 handshakes against the IdP's hybrid (X25519MLKEM768) and
 * classical (X25519) listeners, alternating A B (smoke) or A B B A, with server CPU per handshake.
 */
import { connect } from 'node:tls';
import { cpuSeconds } from '../../proc.mjs';
import { k6run, metric } from '../k6.mjs';
import { fmt } from '../progress.mjs';

/** @typedef {import('../../types.d.ts').Server<import('../../types.d.ts').IdpInfo>} Idp */
/** @typedef {import('../../types.d.ts').TlsRound} TlsRound */
/** @typedef {import('../context.mjs').RunContext} RunContext */

/**
 * What a Node client negotiates with each listener (k6's Go client is configured alike).
 * @param {Record<string, { port: number }>} tls
 */
async function negotiatedGroups(tls) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const [name, { port }] of Object.entries(tls)) {
    out[name] = await new Promise((resolve) => {
      const s = connect(
        { host: '127.0.0.1', port, rejectUnauthorized: false, ecdhCurve: 'X25519MLKEM768:X25519' },
        () => {
          const info = /** @type {{ name?: string, type?: string } | null} */ (s.getEphemeralKeyInfo());
          s.end();
          resolve(info?.name ?? info?.type ?? 'unknown');
        },
      );
      s.once('error', (e) => resolve(`error: ${e.message}`));
    });
  }
  return out;
}

/**
 * One round against one listener.
 * @param {RunContext} ctx
 * @param {Idp} idp
 * @param {string} name the listener
 * @param {number} i the round
 * @param {number} duration seconds
 * @returns {Promise<TlsRound>}
 */
async function round(ctx, idp, name, i, duration) {
  const listener = idp.info.tls[name];
  if (!listener) throw new Error(`the IdP has no ${name} listener`);
  const cpu0 = cpuSeconds(idp.info.pid);
  const { summary } = await k6run(ctx, 'tls', `tls-${i}-${name}`, {
    url: `https://127.0.0.1:${listener.port}/__load/ping`,
    duration,
    vus: ctx.opts.smoke ? 2 : 4,
    maxErrorRate: 0.01,
  });
  const cpu = cpuSeconds(idp.info.pid) - cpu0;
  const hs = metric(summary, 'http_req_tls_handshaking')?.values ?? {};
  const dur = metric(summary, 'http_req_duration')?.values ?? {};
  const ok = metric(summary, 'handshakes_ok')?.values?.count ?? 0;
  return {
    group: name,
    ecdhCurve: listener.ecdhCurve,
    handshakes: ok,
    handshakesPerSecond: ok / duration,
    handshakeP50: hs.med,
    handshakeP95: hs['p(95)'],
    handshakeP99: hs['p(99)'],
    requestP99: dur['p(99)'],
    errorRate: metric(summary, 'handshake_errors')?.values?.rate ?? 0,
    serverCpuSeconds: cpu,
    serverCpuMsPerHandshake: (cpu / Math.max(ok, 1)) * 1000,
  };
}

/**
 * @param {RunContext} ctx
 * @param {Idp} idp
 */
export async function tls(ctx, idp) {
  const { opts } = ctx;
  const t = { rounds: /** @type {TlsRound[]} */ ([]), negotiated: await negotiatedGroups(idp.info.tls) };
  ctx.results.tls = t;
  const order = opts.smoke
    ? ['X25519MLKEM768', 'X25519']
    : ['X25519MLKEM768', 'X25519', 'X25519', 'X25519MLKEM768'];
  const duration = opts.smoke ? 2 : 10;
  for (const [i, name] of order.entries()) {
    const row = await round(ctx, idp, name, i, duration);
    t.rounds.push(row);
    ctx.progress.step(
      `tls ${name}: ${fmt(row.handshakesPerSecond)} handshakes/s, handshake p50 ${fmt(row.handshakeP50, 2)} ms, server CPU ${fmt(row.serverCpuMsPerHandshake, 3)} ms/handshake`,
    );
  }
}
