/**
 * What a load run measures, as tables: the algorithms, the server variants driven through the
 * token endpoint, and the k6 phases each variant runs per (grant, algorithm). The runner
 * (lib/runner/) schedules from these tables and counts its progress steps from them; the report
 * (lib/report/) reads the rows they produce by `target`. Adding a server variant is one row in
 * VARIANTS (plus a row in lib/runner/servers.mjs SERVERS when it needs its own server process);
 * adding a phase is one row in PHASES.
 */

/** @typedef {import('./types.d.ts').RunOptions} RunOptions */
/** @typedef {import('./types.d.ts').ThroughputRow} ThroughputRow */
/** @typedef {import('./types.d.ts').JweConfig} JweConfig */

export const ALL_ALGS = [
  'ES256',
  'EdDSA',
  'RS256',
  'ML-DSA-44',
  'ML-DSA-65',
  'ML-DSA-87',
  'ML-DSA-44-Ed25519',
  'ML-DSA-44-ES256',
  'ML-DSA-65-Ed25519',
  'ML-DSA-65-ES256',
  'ML-DSA-87-ES384',
  'ML-DSA-87-Ed448',
];

/** node-oidc-provider's algorithms (load/lib/oidc-provider-server.mjs). */
export const COMPARE_ALGS = ['ES256', 'ML-DSA-65'];

/** The algorithms whose token responses the HTTP-floor phases replay (see `pqid-floor`). */
export const FLOOR_ALGS = ['ES256', 'ML-DSA-65'];

/**
 * The placement study's hot-path algorithms, on an IdP whose cold-path root is SLH-DSA-SHA2-128s
 * (SAML certificates and metadata, a signed JWKS) and which accepts SLH-DSA clients
 * (keys.allowSlhDsaHotPath): the baseline, the recommended hot algorithm, and SLH-DSA per token.
 */
export const PLACEMENT_ALGS = ['ES256', 'ML-DSA-65', 'SLH-DSA-SHA2-128f', 'SLH-DSA-SHA2-128s'];

/**
 * The algorithms the SAML IdP signs with (idp/src/policy/algorithms.ts).
 * @type {import('@pqid/idp').SamlSizeRow['alg'][]}
 */
export const SAML_ALGS = ['ES256', 'RS256', 'ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];

/**
 * Encrypted ID tokens on the running IdP: the recommended signature inside the recommended KEM
 * (X-Wing, docs/CHOOSING-AN-ALGORITHM.md) and the classical one OIDC providers offer today.
 */
export const ENCRYPTED_ID_TOKEN_ALG = 'ML-DSA-65';

/** Relying parties polling the cold objects while tokens are issued: one fetch per this many token requests. */
export const COLD_EVERY = 50;

/**
 * @typedef {object} Variant
 * @property {string} target the rows' `target` in results.json and the report
 * @property {'provider' | 'part' | 'placement' | 'encrypted'} kind how the report reads the rows: a
 *   whole token endpoint (capacity, retained, cost, plots), a part of pqid's token endpoint (the
 *   decomposition; no capacity or cost of its own), the placement study's IdP, or pqid's token
 *   endpoint for a client that asks for encrypted ID tokens (set next to pqid's signed row)
 * @property {'throughput' | 'placement'} scenario the scenario that runs it
 * @property {string} server the server process it is driven against (SERVERS in lib/runner/servers.mjs)
 * @property {string[]} grants
 * @property {(opts: RunOptions) => string[]} algs
 * @property {boolean} warmup an unrecorded phase per grant first: JIT, connection pools and caches
 *   of a fresh server would otherwise penalise whichever algorithm runs first
 * @property {(issuer: string, alg: string) => Record<string, unknown>} [request] additions to
 *   every phase's k6 config (another URL than /token, cold-path traffic)
 * @property {(opts: RunOptions) => boolean} [when] runs only when this holds
 * @property {JweConfig} [idTokenEncryption] its refresh_token client asks for ID tokens signed,
 *   then encrypted with this (the main IdP registers one such client per variant)
 */

/**
 * The token endpoint taken apart: harness routes of the same IdP driven by the same k6 requests
 * (load/lib/idp-server.mjs): a canned response (HTTP floor), + a freshly signed access token,
 * + its storage write. /token itself adds the protocol on top (report: the decomposition).
 * @param {string} target
 * @param {string} path
 * @returns {Variant}
 */
const floor = (target, path) => ({
  target,
  kind: 'part',
  scenario: 'throughput',
  server: 'idp',
  grants: ['client_credentials'],
  algs: (opts) => FLOOR_ALGS.filter((a) => opts.algs.includes(a)),
  warmup: false,
  request: (issuer, alg) => ({ tokenUrl: `${issuer}${path}?alg=${encodeURIComponent(alg)}` }),
});

/**
 * pqid's refresh_token for a client that registered `id_token_encrypted_response_alg`/`_enc`:
 * every response carries a freshly signed ML-DSA-65 ID token encrypted to the client's key, on
 * the same server right after the signed-only rows of `pqid`.
 * @param {string} target
 * @param {JweConfig} idTokenEncryption
 * @returns {Variant}
 */
const encryptedIdTokens = (target, idTokenEncryption) => ({
  target,
  kind: 'encrypted',
  scenario: 'throughput',
  server: 'idp',
  grants: ['refresh_token'],
  algs: (opts) => (opts.algs.includes(ENCRYPTED_ID_TOKEN_ALG) ? [ENCRYPTED_ID_TOKEN_ALG] : []),
  // The first HPKE encryption imports the client's key and warms the KEM's code paths.
  warmup: true,
  idTokenEncryption,
});

/**
 * Run in this order. Rows of one scenario run one after another; a variant on its own server
 * process starts it before its first phase and stops it after its last.
 * @type {Variant[]}
 */
export const VARIANTS = [
  {
    target: 'pqid',
    kind: 'provider',
    scenario: 'throughput',
    server: 'idp',
    grants: ['client_credentials', 'refresh_token'],
    algs: (opts) => opts.algs,
    warmup: true,
  },
  encryptedIdTokens('pqid-id-xwing', { alg: 'HPKE-9' }),
  encryptedIdTokens('pqid-id-ecdh', { alg: 'ECDH-ES+A256KW', enc: 'A256GCM' }),
  floor('pqid-floor', '/__load/floor'),
  floor('pqid-sign-floor', '/__load/sign-floor'),
  floor('pqid-store-floor', '/__load/store-floor'),
  {
    // The same IdP with stateless JWT access tokens (`accessTokenStorage: stateless`): no write
    // per token. Next to the stored mode above and to node-oidc-provider, which stores no JWT.
    target: 'pqid-stateless',
    kind: 'provider',
    scenario: 'throughput',
    server: 'idp-stateless',
    grants: ['client_credentials'],
    algs: (opts) => COMPARE_ALGS.filter((a) => opts.algs.includes(a)),
    warmup: true,
  },
  {
    target: 'oidc-provider',
    kind: 'provider',
    scenario: 'throughput',
    server: 'oidc-provider',
    grants: ['client_credentials'],
    algs: () => COMPARE_ALGS,
    warmup: true,
    when: (opts) => opts.compare,
  },
  {
    target: 'pqid-placement',
    kind: 'placement',
    scenario: 'placement',
    server: 'idp-placement',
    grants: ['refresh_token'],
    algs: () => PLACEMENT_ALGS,
    warmup: true,
    request: (issuer) => ({
      coldUrls: [`${issuer}/jwks.jwt`, `${issuer}/saml/metadata`],
      coldEvery: COLD_EVERY,
    }),
  },
];

/**
 * @typedef {object} Phase
 * @property {string} name the rows' `phase`
 * @property {(previous: ThroughputRow | undefined) => Record<string, unknown>} request additions to
 *   the k6 config, from the row of the phase before it (same variant, grant and algorithm)
 */

/**
 * The k6 phases of every (variant, grant, algorithm), in order (load/scenarios/throughput.js).
 * `saturate`: a ramping arrival rate up to a ceiling the VUs cannot reach, so the achieved rate
 * is the peak. `steady`: a constant arrival rate at 70% of that peak, for latency below
 * saturation. The capacity model pools the server CPU of every phase.
 * @type {Phase[]}
 */
export const PHASES = [
  { name: 'saturate', request: () => ({}) },
  { name: 'steady', request: (previous) => ({ rate: Math.max(1, 0.7 * (previous?.tokensPerSecond ?? 0)) }) },
];

/**
 * The variants a scenario runs with these options.
 * @param {string} scenario
 * @param {RunOptions} opts
 */
export const variantsOf = (scenario, opts) =>
  VARIANTS.filter((v) => v.scenario === scenario && (v.when?.(opts) ?? true) && v.algs(opts).length > 0);

/**
 * The encrypted-ID-token clients the main IdP registers for these options: one per variant that
 * asks for one, for each of its algorithms.
 * @param {RunOptions} opts
 * @returns {{ alg: string, jwe: JweConfig }[]}
 */
export const encryptedIdTokenClients = (opts) =>
  variantsOf('throughput', opts).flatMap((v) =>
    v.idTokenEncryption && v.server === 'idp'
      ? v.algs(opts).map((alg) => ({ alg, jwe: /** @type {JweConfig} */ (v.idTokenEncryption) }))
      : [],
  );

/**
 * The kind of a results row's target (`provider` for a target no variant names).
 * @param {string} target
 */
export const kindOf = (target) => VARIANTS.find((v) => v.target === target)?.kind ?? 'provider';
