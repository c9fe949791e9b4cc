/**
 * The load report's reading aids, without k6: the spread of repeated measurements (an outlier
 * loop is flagged, a single sample is marked) and the per-plot choice of a log axis, on a
 * synthetic run written by the real report writer (load/lib/report/).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: load/ is plain JavaScript with JSDoc types, checked by `tsc -p load`.
import { writeReport } from '../load/lib/report/index.mjs';
// @ts-expect-error: as above
import { barChart } from '../load/lib/report/plots.mjs';
// @ts-expect-error: as above
import { LARGE_SPREAD, spreadOf } from '../load/lib/spread.mjs';
import type { Results, SignCost, Spread, ThroughputRow } from '../load/lib/types.d.ts';

const out = mkdtempSync(join(tmpdir(), 'pqid-load-report-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const cost = (samples: number[]): SignCost => {
  const spread: Spread = spreadOf(samples);
  return { usPerOp: spread.median, wallUsPerOp: spread.median, ops: 40, samples, spread };
};

/** Two phases of one (target, grant, alg): `ms` server CPU per token, `p99` latency at 70% load. */
function phases(target: string, grant: string, alg: string, ms: number, p99: number): ThroughputRow[] {
  return ['saturate', 'steady'].map((phase) => ({
    target,
    grant,
    alg,
    phase,
    offeredRate: phase === 'steady' ? 700 : null,
    tokens: 1000,
    tokensPerSecond: phase === 'steady' ? 700 : 1000,
    errorRate: 0,
    errorBudgetCrossed: false,
    p50: p99 / 3,
    p95: p99 / 1.5,
    p99,
    max: p99 * 1.2,
    avg: p99 / 3,
    jwtAccessTokens: 1000,
    serverCpuSeconds: ms,
    wallSeconds: 1,
    responseBytes: 900,
  }));
}

function run(): Results {
  return {
    meta: {
      started: '2026-01-01T00:00:00.000Z',
      finished: '2026-01-01T00:01:00.000Z',
      elapsedSeconds: 60,
      mode: 'smoke',
      scenarios: ['throughput', 'tls'],
      algs: ['ES256', 'ML-DSA-65', 'ML-DSA-65-ES256'],
      duration: 1,
      vus: 4,
      pricePerVcpuHour: 0.04,
      budgets: { cookie: 4096, headerLine: 8190, nodeHeaders: 16384, urlConservative: 2048, url: 8000 },
      machine: {
        cpus: 2,
        cpuModel: 'test CPU',
        cpuFlags: 'avx2',
        memoryGiB: 4,
        loadavgAtStart: [0, 0, 0],
        kernel: 'test',
        node: 'v24',
        openssl: '3.5',
      },
      loadavgAtEnd: [0, 0, 0],
      k6: 'k6',
    },
    throughput: [
      ...phases('pqid', 'refresh_token', 'ES256', 0.3, 5),
      ...phases('pqid', 'refresh_token', 'ML-DSA-65', 0.45, 6),
      ...phases('pqid', 'refresh_token', 'ML-DSA-65-ES256', 0.5, 7),
      // A slow signer: three orders of magnitude above the others.
      ...phases('pqid', 'refresh_token', 'SLH-DSA-SHA2-128s', 800, 980),
    ],
    // ML-DSA-65-ES256 once took 11,934 µs in one loop among ~330 µs ones.
    signCost: {
      ES256: cost([35, 34, 36, 35, 34]),
      'ML-DSA-65': cost([110, 112, 111, 109, 113]),
      'ML-DSA-65-ES256': cost([327, 11_934, 330, 325, 329]),
    },
    tls: {
      negotiated: { X25519MLKEM768: 'X25519MLKEM768', X25519: 'X25519' },
      rounds: ['X25519MLKEM768', 'X25519'].map((group) => ({
        group,
        ecdhCurve: group,
        handshakes: 2000,
        handshakesPerSecond: 1000,
        handshakeP50: 1,
        handshakeP95: 2,
        handshakeP99: 3,
        requestP99: 3,
        errorRate: 0,
        serverCpuSeconds: 1,
        serverCpuMsPerHandshake: 0.5,
      })),
    },
  };
}

describe('load report: spread and scales', () => {
  it('takes the median of repeated loops and flags a large spread', () => {
    const s: Spread = spreadOf([327, 11_934, 330, 325, 329]);
    expect(s).toMatchObject({ n: 5, min: 325, median: 329, max: 11_934, large: true });
    expect(spreadOf([110, 112, 111]).large).toBe(false);
    expect(spreadOf([100, 100 * (1 + LARGE_SPREAD) + 1]).large).toBe(true);
    expect(spreadOf([]).n).toBe(0);
  });

  it('draws bars on a log axis only when they span orders of magnitude, or when asked', () => {
    const axis = (spec: Record<string, unknown>) => JSON.stringify(spec);
    const close = barChart(
      [
        { alg: 'a', v: 1 },
        { alg: 'b', v: 15 },
      ],
      { title: 't', y: 'v', yTitle: 'ms' },
    );
    const wide = barChart(
      [
        { alg: 'a', v: 1 },
        { alg: 'b', v: 980 },
      ],
      { title: 't', y: 'v', yTitle: 'ms' },
    );
    const forced = barChart(
      [
        { alg: 'a', v: 1 },
        { alg: 'b', v: 980 },
      ],
      {
        title: 't',
        y: 'v',
        yTitle: 'ms',
        scale: 'linear',
      },
    );
    expect(axis(close)).not.toContain('"type":"log"');
    expect(axis(wide)).toContain('"type":"log"');
    expect(axis(wide)).toContain('ms (log scale)');
    expect(axis(forced)).not.toContain('"type":"log"');
  });

  it('writes the spread into the report, marks single samples, and uses a log axis for p99', async () => {
    await writeReport(out, run());
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/\| ML-DSA-65-ES256 \| 329 \| 325–11,934 \(n=5\) \*\*⚠ spread \d+%\*\* \|/);
    expect(md).toMatch(/\| ML-DSA-65 \| 111 \| 109–113 \(n=5\) \|/);
    expect(md).toMatch(/hybrid 1000 \(\*\*1 sample: no spread\*\*\)/);
    expect(readFileSync(join(out, 'p99.svg'), 'utf8')).toContain('ms (log scale)');
    expect(md).toContain('p99.svg');
    expect(md).toMatch(/p99 latency at 70% of each algorithm's own peak \(steady phase\)\. \(Log scale/);
    expect(readFileSync(join(out, 'tls.svg'), 'utf8')).not.toContain('(log scale)');
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    expect(results.signCost?.['ML-DSA-65-ES256']?.usPerOp).toBe(329);
  });

  it('sets encrypted-ID-token refreshes against the signed row: CPU and bytes per response, as ratios', async () => {
    const sample = (alg: string, enc?: string) => ({
      alg,
      ...(enc ? { enc } : {}),
      sample: { alg, enc, signedWith: 'ML-DSA-65', jweBytes: 8048, signedBytes: 4816 },
    });
    const bytes = (
      rows: ThroughputRow[],
      response: number,
      idToken: number,
      jwe?: ThroughputRow['idTokenEncryption'],
    ) =>
      rows.map((r) => ({
        ...r,
        responseBytes: response,
        idTokenBytes: idToken,
        ...(jwe ? { idTokenEncryption: jwe } : {}),
      }));
    const r = run();
    r.throughput = [
      ...bytes(phases('pqid', 'refresh_token', 'ML-DSA-65', 1.0, 6), 9909, 4807),
      ...bytes(phases('pqid-id-xwing', 'refresh_token', 'ML-DSA-65', 1.5, 7), 13160, 8048, sample('HPKE-9')),
      ...bytes(
        phases('pqid-id-ecdh', 'refresh_token', 'ML-DSA-65', 1.25, 7),
        11970,
        6848,
        sample('ECDH-ES+A256KW', 'A256GCM'),
      ),
    ];
    const dir = mkdtempSync(join(out, 'enc-'));
    await writeReport(dir, r);
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    const section = md.slice(md.indexOf('## Encrypted ID tokens on the running IdP'));
    expect(section).toMatch(
      /\| ML-DSA-65 signed only \| – \| 1\.000 \| 1\.000 \/ 1\.000 \| 1\.00× \| 1000 \| 9,909 \| – \| 4,807 \|/,
    );
    expect(section).toMatch(
      /\| in HPKE-9 \| PQ\/T \| 1\.500 \| [^|]+ \| 1\.50× \| 667 \| 13,160 \| 3,251 \| 8,048 \|.*HPKE-9 → ML-DSA-65 verified \|/,
    );
    expect(section).toMatch(
      /\| in ECDH-ES\+A256KW \/ A256GCM \| no \| 1\.250 \| [^|]+ \| 1\.25× \| 800 \| 11,970 \| 2,061 \| 6,848 \|/,
    );
    // Not a provider of its own: no retained capacity or cost bars (no ES256 of its own).
    expect(readFileSync(join(dir, 'retained.svg'), 'utf8')).not.toContain('pqid-id-xwing');
    // Without the signed row to compare with, the section is left out rather than half filled.
    r.throughput = r.throughput.filter((x) => x.target !== 'pqid');
    const alone = mkdtempSync(join(out, 'alone-'));
    await writeReport(alone, r);
    expect(readFileSync(join(alone, 'report.md'), 'utf8')).not.toContain(
      '## Encrypted ID tokens on the running IdP',
    );
  });
});
