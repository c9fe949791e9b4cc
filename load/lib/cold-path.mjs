/**
 * The cold path measured from the running IdP (placement study): what re-signing the signed JWKS
 * and the SAML metadata costs the server after a rotation (server CPU from /proc around the one
 * fetch that signs, and its wall time), what a cached fetch costs, and what the objects weigh.
 *
 *   signed JWKS   rotate the OIDC ML-DSA-65 key at once, then GET /jwks.jwt: one root signature
 *   metadata      rotate the SAML keys at once, then GET /saml/metadata: a certificate per new SAML
 *                 key (issued by the root) and the metadata signature
 *
 * The rotation itself (key generation) happens before the CPU reading starts: only the signing
 * the fetch triggers is counted. CPU comes from the server's own process.cpuUsage() (the load
 * harness route /__load/cpu, microseconds), finer than /proc's 10 ms ticks.
 */
import { spreadOf } from './spread.mjs';

/** @typedef {import('./types.d.ts').Server} Server */
/** @typedef {import('./types.d.ts').ColdPath} ColdPath */
/** @typedef {import('./types.d.ts').ColdObject} ColdObject */

/**
 * The median of a list (the lower middle one for an even count).
 * @param {number[]} xs
 */
const median = (xs) => spreadOf(xs).median;

/**
 * GET `url` and time it (wall ms).
 * @param {string} url
 */
async function fetchTimed(url) {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = await res.text();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${body.slice(0, 200)}`);
  return { ms, body, type: res.headers.get('content-type') };
}

/**
 * Rotate a key set at once through the harness route.
 * @param {string} issuer
 * @param {string} set `oidc` or `saml`
 * @param {string} [alg]
 * @returns {Promise<{ kid: string, alg: string, set: string }[]>}
 */
async function rotate(issuer, set, alg) {
  const q = new URLSearchParams({ set, ...(alg ? { alg } : {}) });
  const res = await fetch(`${issuer}/__load/rotate?${q}`, { method: 'POST' });
  if (!res.ok) throw new Error(`rotate ${set}: ${res.status} ${await res.text()}`);
  return /** @type {Promise<{ kid: string, alg: string, set: string }[]>} */ (res.json());
}

/**
 * The signature algorithm of a compact JWS, or the last segment of an XML SignatureMethod URI.
 * @param {string} body
 * @returns {string | undefined}
 */
function signatureAlg(body) {
  if (body.startsWith('eyJ'))
    return JSON.parse(Buffer.from(body.split('.')[0] ?? '', 'base64url').toString()).alg;
  const uri = /<(?:\w+:)?SignatureMethod Algorithm="([^"]+)"/.exec(body)?.[1];
  return uri?.split(/[#:/]/).at(-1);
}

/**
 * The server's CPU time so far, in milliseconds.
 * @param {string} issuer
 */
async function serverCpuMs(issuer) {
  const u = /** @type {NodeJS.CpuUsage} */ (await (await fetch(`${issuer}/__load/cpu`)).json());
  return (u.user + u.system) / 1000;
}

/**
 * One cold object: re-signed `rounds` times after a rotation of its keys, then fetched from cache.
 * @param {string} issuer
 * @param {'signedJwks' | 'metadata'} name
 * @param {{ path: string, rotate: [string, string?] }} o
 * @param {number} rounds
 * @param {number} cachedFetches
 * @returns {Promise<ColdObject>}
 */
async function measureObject(issuer, name, o, rounds, cachedFetches) {
  const url = `${issuer}${o.path}`;
  let last = await fetchTimed(url); // signed once already (start-up, or this first fetch)
  const resigns = [];
  let signatures = 1;
  for (let i = 0; i < rounds; i++) {
    const rotated = await rotate(issuer, ...o.rotate);
    // The metadata's new certificates are issued by the root on this fetch, one per SAML key.
    if (name === 'metadata') signatures = 1 + rotated.length;
    const cpu0 = await serverCpuMs(issuer);
    const { ms } = await fetchTimed(url);
    resigns.push({ wallMs: ms, cpuMs: (await serverCpuMs(issuer)) - cpu0 });
  }
  const cached = [];
  const cpu0 = await serverCpuMs(issuer);
  for (let i = 0; i < cachedFetches; i++) {
    last = await fetchTimed(url);
    cached.push(last.ms);
  }
  const cpuPerFetch = ((await serverCpuMs(issuer)) - cpu0) / cachedFetches;
  return {
    path: o.path,
    contentType: last.type,
    bytes: Buffer.byteLength(last.body),
    signatureAlg: signatureAlg(last.body),
    resign: {
      rounds,
      signatures,
      wallMs: median(resigns.map((r) => r.wallMs)),
      cpuMs: median(resigns.map((r) => r.cpuMs)),
      samples: resigns,
      cpuSpread: spreadOf(resigns.map((r) => r.cpuMs)),
    },
    cached: { fetches: cachedFetches, p50Ms: median(cached), cpuMsPerFetch: cpuPerFetch },
  };
}

/**
 * The signed JWKS and the SAML metadata of the placement IdP.
 * @param {Server} server
 * @param {{ rounds?: number, cachedFetches?: number }} [settings]
 * @returns {Promise<ColdPath>}
 */
export async function measureColdPath(server, { rounds = 3, cachedFetches = 50 } = {}) {
  const { issuer } = server.info;
  return {
    objects: {
      signedJwks: await measureObject(
        issuer,
        'signedJwks',
        { path: '/jwks.jwt', rotate: ['oidc', 'ML-DSA-65'] },
        rounds,
        cachedFetches,
      ),
      metadata: await measureObject(
        issuer,
        'metadata',
        { path: '/saml/metadata', rotate: ['saml'] },
        rounds,
        cachedFetches,
      ),
    },
  };
}
