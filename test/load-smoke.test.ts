/**
 * The load suite's smoke run: `node load/run.mjs all --smoke` against a fresh IdP and
 * node-oidc-provider, then checks that the report exists, its numbers parse, and the size
 * findings are what the transport limits say they must be. Needs k6 (load/bin/k6 from
 * `bash load/scripts/install-k6.sh`, or on PATH): without it the test is skipped locally, and
 * fails in CI (CI=true), where .ci/run installs it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Encryption, ThroughputRow } from '../load/lib/types.d.ts';

const repo = fileURLToPath(new URL('..', import.meta.url));

function findK6(): string | undefined {
  if (process.env.K6 && existsSync(process.env.K6)) return process.env.K6;
  const local = join(repo, 'load', 'bin', 'k6');
  if (existsSync(local)) return local;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'k6'))) return join(dir, 'k6');
  }
  return undefined;
}

const k6 = findK6();
const skip = k6 === undefined && !process.env.CI;
if (skip) {
  console.warn(
    'load-smoke: SKIPPED — k6 is not installed (run `bash load/scripts/install-k6.sh`); in CI this test fails instead',
  );
}

interface SizeRow {
  alg: string;
  profile: string;
  source: string;
  idToken: number;
  setCookie: number;
  authorizationHeader: number;
  logoutUrl: number;
  dpopHeader?: number;
  fitsCookie: boolean;
  fitsHeaderLine: boolean;
  dpopFitsHeaderLine?: boolean;
  dpopAcceptedByIdp?: boolean;
  bearerAcceptedByIdp?: boolean;
  authorizationUrlJar?: number;
  authorizationUrlPar?: number;
  jarFitsUrlConservative?: boolean;
  parFitsUrlConservative?: boolean;
  parAcceptedByIdp?: boolean;
}
interface CapacityRow {
  target: string;
  grant: string;
  alg: string;
  peakTokensPerSecond: number;
  p99: number;
  errorRate: number;
  jwt: boolean;
  cpuMsPerToken: number;
  tokensPerCoreSecond: number;
  retained: number;
  infraMultiplier: number;
  costPerMillion: number;
  responseBytes?: number;
  idTokenBytes?: number;
  idTokenEncryption?: ThroughputRow['idTokenEncryption'];
}
interface Spread {
  n: number;
  min: number;
  median: number;
  max: number;
  large: boolean;
}
interface Results {
  meta: { mode: string; algs: string[]; elapsedSeconds: number };
  encryption?: Encryption;
  signCost: Record<string, { usPerOp: number; samples: number[]; spread: Spread }>;
  slhDsa: Record<string, { usPerOp: number; samples: number[]; spread: Spread }>;
  sizes: {
    rows: SizeRow[];
    jwksLive: number;
    saml: {
      alg: string;
      signature: number;
      redirectUrl: number;
      fitsUrlConservative: boolean;
      postForm: number;
    }[];
  };
  capacity: CapacityRow[];
  placement: {
    regimes: { regime: string; measured: boolean; tokensPerCoreSecond: number; retained: number }[];
    cold: Record<
      'signedJwks' | 'metadata',
      {
        contentType: string;
        bytes: number;
        signatureAlg: string;
        resign: { cpuMs: number; wallMs: number; signatures: number; cpuSpread: Spread };
        cached: { p50Ms: number; cpuMsPerFetch: number };
      }
    >;
  };
  login: { flows: number; errorRate: number; perAlg: { alg: string; flows: number; flowP50: number }[] };
  decomposition: {
    mode: 'stored' | 'stateless';
    alg: string;
    http: { ms: number };
    signature: { ms: number };
    storage: { ms: number };
    protocol: { ms: number };
    target: { ratio: number; budgetMs: number; baseline: string };
  }[];
  tls: {
    rounds: { group: string; handshakes: number; handshakesPerSecond: number }[];
    negotiated: Record<string, string>;
  };
}

describe.skipIf(skip)('load suite smoke run (k6)', () => {
  // Created by the runner (--out), so a skipped suite leaves nothing behind.
  const out = join(tmpdir(), `pqid-load-smoke-${process.pid}-${Date.now()}`);
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  let results: Results;

  it('runs every scenario and writes the report', () => {
    expect(
      k6,
      'k6 is missing: .ci/run must run `bash load/scripts/install-k6.sh` before the tests',
    ).toBeDefined();
    const run = spawnSync(process.execPath, [join(repo, 'load', 'run.mjs'), 'all', '--smoke', '--out', out], {
      cwd: repo,
      encoding: 'utf8',
      timeout: 420_000,
      env: { ...process.env, ...(k6 ? { K6: k6 } : {}) },
    });
    if (run.status !== 0) throw new Error(`load run failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
    for (const f of [
      'report.md',
      'report.html',
      'results.json',
      'throughput.svg',
      'size-cookie.svg',
      'placement.svg',
    ])
      expect(existsSync(join(out, f)), f).toBe(true);
    results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    expect(results.meta.mode).toBe('smoke');
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/## Throughput and capacity/);
    expect(md).toMatch(/## Sizes/);
    expect(md).toMatch(/## Placement study/);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(/<svg[\s\S]*<\/svg>/);
  }, 450_000);

  it('has parseable throughput and capacity numbers for every algorithm', () => {
    const pqid = results.capacity.filter((r) => r.target === 'pqid');
    for (const alg of results.meta.algs) {
      for (const grant of ['client_credentials', 'refresh_token']) {
        const r = pqid.find((x) => x.alg === alg && x.grant === grant);
        expect(r, `${alg} ${grant}`).toBeDefined();
        if (!r) continue;
        expect(r.peakTokensPerSecond, `${alg} ${grant} tokens/s`).toBeGreaterThan(0);
        expect(Number.isFinite(r.p99), `${alg} ${grant} p99`).toBe(true);
        expect(r.tokensPerCoreSecond, `${alg} ${grant} tokens/core-s`).toBeGreaterThan(0);
        expect(Number.isFinite(r.costPerMillion)).toBe(true);
        expect(r.errorRate, `${alg} ${grant} errors`).toBeLessThanOrEqual(0.01);
        expect(r.jwt, `${alg} ${grant} JWT access tokens`).toBe(true);
      }
    }
    const es = pqid.find((r) => r.alg === 'ES256' && r.grant === 'refresh_token');
    expect(es?.retained).toBe(1);
    // node-oidc-provider ran the same k6 script.
    const op = results.capacity.filter((r) => r.target === 'oidc-provider');
    expect(op.map((r) => r.alg).sort()).toEqual(['ES256', 'ML-DSA-65']);
    for (const r of op) expect(r.tokensPerCoreSecond).toBeGreaterThan(0);
    // The stateless IdP (no write per access token) ran the same algorithms, JWTs, no errors.
    const stateless = results.capacity.filter((r) => r.target === 'pqid-stateless');
    expect(stateless.map((r) => r.alg).sort()).toEqual(['ES256', 'ML-DSA-65']);
    for (const r of stateless) {
      expect(r.jwt, `stateless ${r.alg}`).toBe(true);
      expect(r.errorRate, `stateless ${r.alg}`).toBeLessThanOrEqual(0.01);
      expect(r.tokensPerCoreSecond, `stateless ${r.alg}`).toBeGreaterThan(0);
    }
    // The HTTP floor replayed real token responses of the same server, and the sign and store
    // floors answered fresh JWTs (no errors): the token endpoint's parts, measured in this run.
    for (const target of ['pqid-floor', 'pqid-sign-floor', 'pqid-store-floor']) {
      const floor = results.capacity.filter((r) => r.target === target);
      expect(floor.map((r) => r.alg).sort(), target).toEqual(['ES256', 'ML-DSA-65']);
      for (const r of floor) {
        expect(r.jwt, `${target} ${r.alg}`).toBe(true);
        expect(r.errorRate, `${target} ${r.alg}`).toBeLessThanOrEqual(0.01);
        expect(r.tokensPerCoreSecond, `${target} ${r.alg}`).toBeGreaterThan(0);
      }
    }
    // The parts add up to the token endpoint's CPU per token; the budget is node-oidc-provider's.
    const ms = (t: string, a: string) =>
      results.capacity.find((r) => r.target === t && r.grant === 'client_credentials' && r.alg === a)
        ?.cpuMsPerToken as number;
    expect(results.decomposition.map((d) => `${d.mode} ${d.alg}`)).toEqual([
      'stored ES256',
      'stored ML-DSA-65',
      'stateless ES256',
      'stateless ML-DSA-65',
    ]);
    for (const d of results.decomposition) {
      const name = `${d.mode} ${d.alg}`;
      const stored = d.mode === 'stored';
      const sum = d.http.ms + d.signature.ms + d.storage.ms + d.protocol.ms;
      expect(sum, name).toBeCloseTo(ms(stored ? 'pqid' : 'pqid-stateless', d.alg), 9);
      const floor = ms(stored ? 'pqid-store-floor' : 'pqid-sign-floor', d.alg);
      expect(d.http.ms + d.signature.ms + d.storage.ms, name).toBeCloseTo(floor, 9);
      if (!stored) expect(d.storage.ms, name).toBe(0);
      // The tightest target's budget, against the baseline row it names.
      const [target, alg] =
        d.target.baseline === 'node-oidc-provider ES256'
          ? ['oidc-provider', 'ES256']
          : ['oidc-provider', 'ML-DSA-65'];
      expect(d.target.budgetMs * d.target.ratio, name).toBeCloseTo(ms(target, alg), 9);
    }
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/### Targets: what ML-DSA-65 costs against ES256\n/);
    expect(md).toMatch(/### Targets: tokens per core-second against node-oidc-provider\n/);
    // The decomposition, with the budget against node-oidc-provider, one column per algorithm.
    expect(md).toMatch(
      /### Where a client_credentials token goes[\s\S]*\| part \| stored ES256 \| stored ML-DSA-65 \| stateless ES256 \| stateless ML-DSA-65 \|/,
    );
    expect(md).toMatch(
      /- pqid stateless ML-DSA-65 ≥ 1\.1× node-oidc-provider ES256 \(client_credentials\): \d/,
    );
    expect(md).toMatch(
      /- pqid \(stored\) ML-DSA-65 ≥ 3× node-oidc-provider ML-DSA-65 \(client_credentials\): \d/,
    );
    expect(md).toMatch(/\| \+ protocol \(token − store-floor[^\n]*\| -?\d+\.\d{3}/);
    expect(md).toMatch(/\| budget per token[^\n]*(\| \d+\.\d{3} ){4}\|/);
  });

  it('measures refreshes with encrypted ID tokens next to the signed row, each JWE opened by the runner', () => {
    const signed = results.capacity.find(
      (r) => r.target === 'pqid' && r.grant === 'refresh_token' && r.alg === 'ML-DSA-65',
    );
    expect(signed?.idTokenBytes).toBeGreaterThan(0);
    for (const [target, alg, kem] of [
      ['pqid-id-xwing', 'HPKE-9', 1088],
      ['pqid-id-ecdh', 'ECDH-ES+A256KW', 0],
    ] as const) {
      const r = results.capacity.find((x) => x.target === target);
      expect(r, target).toBeDefined();
      if (!r || !signed) continue;
      expect(r).toMatchObject({ grant: 'refresh_token', alg: 'ML-DSA-65', jwt: true });
      // k6 refused any response whose ID token was not a JWE of the alg: no errors means all were.
      expect(r.errorRate, target).toBeLessThanOrEqual(0.01);
      expect(r.tokensPerCoreSecond, target).toBeGreaterThan(0);
      expect(r.idTokenEncryption?.sample).toMatchObject({ alg, signedWith: 'ML-DSA-65' });
      // The whole signed token base64url-encoded again, plus the KEM's encapsulated secret.
      expect(r.idTokenBytes as number).toBeGreaterThan(((signed.idTokenBytes as number) * 4) / 3 + kem);
      expect(r.responseBytes as number).toBeGreaterThan(signed.responseBytes as number);
    }
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/## Encrypted ID tokens on the running IdP/);
    expect(md).toMatch(/\| in HPKE-9 \| PQ\/T \| \d+\.\d{3} \|[^\n]*HPKE-9 → ML-DSA-65 verified \|/);
  });

  it('measures the placement regimes on a running IdP: a slow signer on the hot path collapses capacity', () => {
    const regime = (name: string) => results.placement.regimes.find((r) => r.regime === name);
    const hot = regime('SLH-DSA-128s hot path');
    const fast = regime('SLH-DSA-128f hot path');
    const cold = regime('ML-DSA-65 hot + SLH-DSA-128s cold path');
    for (const r of [hot, fast, cold, regime('ES256 everywhere (baseline)')]) expect(r?.measured).toBe(true);
    expect(hot && cold && cold.tokensPerCoreSecond / hot.tokensPerCoreSecond).toBeGreaterThan(20);
    expect(fast && hot && fast.tokensPerCoreSecond).toBeGreaterThan(hot?.tokensPerCoreSecond ?? 0);
    // The SLH-DSA tokens were really issued by the IdP, under load.
    for (const alg of ['SLH-DSA-SHA2-128f', 'SLH-DSA-SHA2-128s']) {
      const r = results.capacity.find((x) => x.target === 'pqid-placement' && x.alg === alg);
      expect(r?.jwt, alg).toBe(true);
      expect(r?.errorRate, alg).toBeLessThanOrEqual(0.01);
    }
    // The cold objects, served by the IdP and signed by its SLH-DSA-SHA2-128s root.
    const { signedJwks, metadata } = results.placement.cold;
    expect(signedJwks.contentType).toBe('application/jwk-set+jwt');
    expect(signedJwks.signatureAlg).toBe('SLH-DSA-SHA2-128s');
    expect(metadata.signatureAlg).toBe('slh-dsa-sha2-128s');
    expect(signedJwks.bytes).toBeGreaterThan((7856 * 4) / 3); // an SLH-DSA-128s signature, base64url
    for (const o of [signedJwks, metadata]) {
      expect(o.resign.cpuMs).toBeGreaterThan(0);
      // A cached fetch is not re-signed: far cheaper than one that signs.
      expect(o.cached.cpuMsPerFetch).toBeLessThan(o.resign.cpuMs);
    }
  });

  it('sizes encrypted ID tokens in the same bytes k6 measured, and costs them next to signing', () => {
    const e = results.encryption;
    if (!e) throw new Error('no encryption results');
    // The runner's signed-only figures are the very lines k6 measured for the same tokens.
    for (const r of e.sizes.filter((x) => x.jwe === null)) {
      const k6 = results.sizes.rows.find((x) => x.alg === r.alg && x.profile === r.profile);
      expect([r.bytes, r.setCookie, r.logoutUrl], `${r.alg} ${r.profile}`).toEqual([
        k6?.idToken,
        k6?.setCookie,
        k6?.logoutUrl,
      ]);
    }
    const signed = (alg: string, profile: string) =>
      e.sizes.find((x) => x.alg === alg && x.profile === profile && x.jwe === null)?.bytes ?? Number.NaN;
    for (const r of e.sizes.filter((x) => x.jwe !== null))
      expect(r.bytes, `${r.alg} in ${r.jwe?.alg}`).toBeGreaterThan(signed(r.alg, r.profile));
    // Every configuration has encrypt, sign + encrypt and decrypt costs beside signing alone.
    const cost = e.cost.cost;
    expect(cost['sign ML-DSA-65']?.usPerOp).toBeGreaterThan(0);
    for (const c of e.cost.configs) {
      const l = c.enc ? `${c.alg} / ${c.enc}` : c.alg;
      for (const op of ['encrypt', 'sign + encrypt', 'decrypt'])
        expect(cost[`${op} ${l}`]?.usPerOp, `${op} ${l}`).toBeGreaterThan(0);
    }
  });

  it('measures sizes against the real transport limits', () => {
    const row = (alg: string, profile: string) => {
      const r = results.sizes.rows.find((x) => x.alg === alg && x.profile === profile);
      if (!r) throw new Error(`no size row for ${alg}/${profile}`);
      return r;
    };
    for (const r of results.sizes.rows) {
      for (const n of [r.idToken, r.setCookie, r.authorizationHeader, r.logoutUrl])
        expect(n).toBeGreaterThan(0);
    }
    // One 4096-byte cookie holds an ML-DSA-44 ID token (minimal and typical claims), never an ML-DSA-65 one.
    expect(row('ML-DSA-44', 'minimal').fitsCookie).toBe(true);
    expect(row('ML-DSA-44', 'typical').fitsCookie).toBe(true);
    expect(row('ML-DSA-44', 'typical').setCookie).toBeLessThanOrEqual(4096);
    for (const profile of ['minimal', 'typical', 'rich']) {
      expect(row('ML-DSA-65', profile).fitsCookie).toBe(false);
      expect(row('ML-DSA-87', profile).fitsCookie).toBe(false);
      expect(row('ES256', profile).fitsCookie).toBe(true);
    }
    // DPoP proofs carry the client's public key: ML-DSA-44 fits an 8190-byte header line, ML-DSA-87 does not.
    expect(row('ML-DSA-44', 'minimal').dpopFitsHeaderLine).toBe(true);
    expect(row('ML-DSA-87', 'minimal').dpopFitsHeaderLine).toBe(false);
    // Every IdP-issued JWT access token still passes Node's 16 KiB header limit at /userinfo,
    // and the IdP binds a token to every DPoP proof, ML-DSA-87 (11 KB) included.
    for (const r of results.sizes.rows.filter((x) => x.source === 'idp')) {
      expect(r.bearerAcceptedByIdp, r.alg).toBe(true);
      expect(r.dpopAcceptedByIdp, r.alg).toBe(true);
    }
    // A request object signed with any ML-DSA algorithm outgrows a 2048-byte URL; through PAR
    // the URL is ~160 bytes, and the IdP accepted every push.
    for (const alg of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87']) {
      expect(row(alg, 'minimal').jarFitsUrlConservative, alg).toBe(false);
      expect(row(alg, 'minimal').parFitsUrlConservative, alg).toBe(true);
    }
    expect(row('ES256', 'minimal').jarFitsUrlConservative).toBe(true);
    for (const r of results.sizes.rows.filter((x) => x.authorizationUrlJar !== undefined)) {
      expect(r.parAcceptedByIdp, `${r.alg} ${r.profile}`).toBe(true);
      expect(r.authorizationUrlPar, r.alg).toBeLessThan(200);
    }
    expect(results.sizes.jwksLive).toBeGreaterThan(0);
    // SAML: a signed AuthnRequest's Redirect URL outgrows 2048 B with any ML-DSA signature, not
    // with ES256 or RS256; every POST form is bigger than its URL (certificates in KeyInfo).
    const saml = (alg: string) => {
      const r = results.sizes.saml.find((x) => x.alg === alg);
      if (!r) throw new Error(`no SAML size row for ${alg}`);
      return r;
    };
    expect(results.sizes.saml.map((r) => r.alg).sort()).toEqual(
      ['ES256', 'ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'RS256'].sort(),
    );
    for (const alg of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'])
      expect(saml(alg).fitsUrlConservative, alg).toBe(false);
    for (const alg of ['ES256', 'RS256']) expect(saml(alg).fitsUrlConservative, alg).toBe(true);
    for (const r of results.sizes.saml) {
      expect(r.redirectUrl, r.alg).toBeGreaterThan((r.signature * 4) / 3);
      expect(r.postForm, r.alg).toBeGreaterThan(r.redirectUrl);
    }
  });

  it('shows the spread of repeated measurements, and draws wide ranges on a log axis', () => {
    // Every per-operation cost is the median of at least three timed loops, kept with their range.
    for (const [alg, c] of Object.entries({ ...results.signCost, ...results.slhDsa })) {
      expect(c.samples.length, alg).toBeGreaterThanOrEqual(3);
      expect(c.spread.n, alg).toBe(c.samples.length);
      expect(c.usPerOp, alg).toBe(c.spread.median);
      expect(c.samples, alg).toContain(c.usPerOp);
      expect(c.spread.min, alg).toBe(Math.min(...c.samples));
      expect(c.spread.max, alg).toBe(Math.max(...c.samples));
    }
    for (const o of Object.values(results.placement.cold)) expect(o.resign.cpuSpread.n).toBe(3);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    // The sign-cost table gives each median its range (a large one marked ⚠).
    expect(md).toMatch(/\| ML-DSA-65 \| [\d,]+ \| [\d,]+–[\d,]+ \(n=\d+\)( \*\*⚠ spread \d+%\*\*)? \|/);
    // Each capacity row shows the two phases' CPU per token behind its pooled figure.
    expect(md).toMatch(
      /\| pqid \| client_credentials \| ES256 \|[^\n]*\| \d+\.\d{3} \| \d+\.\d{3} \/ \d+\.\d{3}( \*\*⚠ \d+%\*\*)? \|/,
    );
    // SLH-DSA-128s tokens at ~1 s beside ~1 ms ones: p99 and throughput on log axes; retained
    // capacity stays linear, for its 67% line.
    for (const plot of ['p99', 'throughput', 'cost', 'placement'])
      expect(readFileSync(join(out, `${plot}.svg`), 'utf8'), plot).toContain('(log scale)');
    expect(readFileSync(join(out, 'retained.svg'), 'utf8')).not.toContain('(log scale)');
    // The report speaks to its readers: no internal tracker words, sources cited by title.
    expect(md).not.toMatch(/\bissue\b|\bseed\b|shared\/seeds/i);
    expect(md).toContain('Signature Placement in Post-Quantum TLS Certificate Hierarchies');
  });

  it('runs the login flow for every algorithm and both TLS key exchanges', () => {
    expect(results.login.flows).toBeGreaterThan(0);
    expect(results.login.errorRate).toBeLessThanOrEqual(0.05);
    for (const r of results.login.perAlg) expect(r.flows, r.alg).toBeGreaterThan(0);
    const groups = results.tls.rounds.map((r) => r.group);
    expect(groups).toContain('X25519MLKEM768');
    expect(groups).toContain('X25519');
    for (const r of results.tls.rounds) expect(r.handshakesPerSecond, r.group).toBeGreaterThan(0);
    expect(results.tls.negotiated.X25519MLKEM768).toBe('X25519MLKEM768');
  });
});
