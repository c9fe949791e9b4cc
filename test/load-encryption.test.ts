/**
 * The load suite's encrypted-ID-token part, without k6: the sizes it reports are those of JWEs
 * produced here independently (same signed token, same configuration, another key), the fits are
 * the budgets applied to those bytes, every cost row is measured, and the report section shows
 * the numbers results.json holds.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type EncryptionKey,
  encryptJwt,
  generateEncryptionKeyPair,
  generateKeyPair,
  importEncryptionKey,
  importJWK,
  type PrivateKey,
  signJwt,
} from '@pqid/jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: load/ is plain JavaScript with JSDoc types, checked by `tsc -p load`.
import { carried, encryptedSizes, encryptionCost, JWE_CONFIGS } from '../load/lib/encryption.mjs';
// @ts-expect-error: as above
import { writeReport } from '../load/lib/report/index.mjs';
import type { EncryptedSizeRow, Encryption, JweConfig, Results } from '../load/lib/types.d.ts';

const out = mkdtempSync(join(tmpdir(), 'pqid-load-encryption-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const BUDGETS = { cookie: 4096, headerLine: 8190, nodeHeaders: 16384, urlConservative: 2048, url: 8000 };
const WHERE = {
  endSessionEndpoint: 'https://127.0.0.1:8443/logout',
  postLogoutRedirectUri: 'http://127.0.0.1:9/bye',
};

async function signed(alg: string, extra: Record<string, unknown> = {}): Promise<string> {
  const key = (await importJWK((await generateKeyPair(alg)).privateJwk)) as PrivateKey;
  return signJwt(
    { iss: 'https://127.0.0.1:8443', sub: 'u1', aud: 'rp', nonce: 'n-0S6_WzA2Mj', ...extra },
    key,
    {
      expiresIn: 600,
    },
  );
}

async function encryptedLength(jws: string, c: JweConfig): Promise<number> {
  const { publicJwk } = await generateEncryptionKeyPair(c.alg);
  const key = (await importEncryptionKey(publicJwk)) as EncryptionKey;
  return Buffer.byteLength(await encryptJwt(jws, key, c.enc ? { enc: c.enc } : {}));
}

describe('load suite: encrypted ID tokens', () => {
  let items: { alg: string; profile: string; source: string; idToken: string; accessToken: string }[];
  let encryption: Encryption;

  beforeAll(async () => {
    items = [
      { alg: 'ES256', profile: 'minimal', source: 'idp', idToken: await signed('ES256'), accessToken: '' },
      {
        alg: 'ML-DSA-65',
        profile: 'minimal',
        source: 'idp',
        idToken: await signed('ML-DSA-65'),
        accessToken: '',
      },
      {
        alg: 'ML-DSA-65',
        profile: 'typical',
        source: 'runner',
        idToken: await signed('ML-DSA-65', { name: 'Jane Q. Doe', email: 'jane.doe@example.com' }),
        accessToken: '',
      },
      // Only the minimal and typical profiles are encrypted.
      {
        alg: 'ML-DSA-65',
        profile: 'rich',
        source: 'runner',
        idToken: await signed('ML-DSA-65'),
        accessToken: '',
      },
    ];
    encryption = {
      sizes: await encryptedSizes(items, BUDGETS, WHERE),
      cost: await encryptionCost('ML-DSA-65', { repeats: 2, minOps: 2, minMs: 1 }),
    };
  }, 120_000);

  it('reports the bytes of real JWEs of each configuration, and the budgets applied to them', async () => {
    const rows: EncryptedSizeRow[] = encryption.sizes;
    expect(rows.some((r) => r.profile === 'rich')).toBe(false);
    expect(rows).toHaveLength(3 * (1 + JWE_CONFIGS.length));
    for (const item of items.filter((i) => i.profile !== 'rich')) {
      const mine = rows.filter((r) => r.alg === item.alg && r.profile === item.profile);
      const plain = mine.find((r) => r.jwe === null);
      expect(plain?.bytes).toBe(Buffer.byteLength(item.idToken));
      expect(plain).toMatchObject(carried(item.idToken, WHERE));
      for (const c of JWE_CONFIGS as JweConfig[]) {
        const r = mine.find((x) => x.jwe?.alg === c.alg && x.jwe?.enc === c.enc);
        const bytes = await encryptedLength(item.idToken, c);
        expect(r?.bytes, `${item.alg} ${item.profile} in ${c.alg}`).toBe(bytes);
        // The cookie and the URL add the same bytes to a JWE as to the signed token.
        expect(r?.setCookie).toBe((plain?.setCookie ?? 0) + bytes - (plain?.bytes ?? 0));
        expect(r?.logoutUrl).toBe((plain?.logoutUrl ?? 0) + bytes - (plain?.bytes ?? 0));
        expect(r?.fitsCookie).toBe((r?.setCookie ?? Number.POSITIVE_INFINITY) <= BUDGETS.cookie);
        expect(r?.fitsUrl).toBe((r?.logoutUrl ?? Number.POSITIVE_INFINITY) <= BUDGETS.url);
        expect(r?.fitsUrlConservative).toBe(
          (r?.logoutUrl ?? Number.POSITIVE_INFINITY) <= BUDGETS.urlConservative,
        );
      }
    }
    // An ES256 ID token inside X-Wing still fits a cookie; an ML-DSA-65 one never did.
    const xwing = (alg: string) =>
      rows.find((r) => r.alg === alg && r.profile === 'minimal' && r.jwe?.alg === 'HPKE-9');
    expect(xwing('ES256')?.fitsCookie).toBe(true);
    expect(xwing('ML-DSA-65')?.fitsCookie).toBe(false);
  });

  it('measures encrypt, sign + encrypt and decrypt for every configuration next to signing alone', () => {
    const { cost, configs } = encryption.cost;
    expect(configs.map((c) => [c.alg, c.quantumSafe])).toEqual(
      (JWE_CONFIGS as JweConfig[]).map((c) => [
        c.alg,
        c.alg.startsWith('HPKE-12') ? 'PQ' : c.alg.startsWith('HPKE') ? 'PQ/T' : 'no',
      ]),
    );
    for (const op of ['sign ML-DSA-65', 'sign ES256']) expect(cost[op]?.samples).toHaveLength(2);
    for (const c of configs) {
      const l = c.enc ? `${c.alg} / ${c.enc}` : c.alg;
      for (const op of ['encrypt', 'sign + encrypt', 'decrypt']) {
        expect(cost[`${op} ${l}`]?.usPerOp, `${op} ${l}`).toBeGreaterThan(0);
        expect(cost[`${op} ${l}`]?.samples).toHaveLength(2);
      }
    }
  });

  it('writes both tables into the report with the numbers of results.json', async () => {
    const results = {
      meta: {
        started: '2026-01-01T00:00:00.000Z',
        finished: '2026-01-01T00:01:00.000Z',
        elapsedSeconds: 60,
        mode: 'smoke',
        scenarios: ['sizes'],
        algs: ['ES256', 'ML-DSA-65'],
        duration: 1,
        vus: 1,
        pricePerVcpuHour: 0.04,
        budgets: BUDGETS,
        machine: {
          cpus: 2,
          cpuModel: 'Test CPU 9000',
          cpuFlags: 'avx2 aes',
          memoryGiB: 4,
          loadavgAtStart: [0, 0, 0],
          kernel: 'test',
          node: 'v24',
          openssl: '3.5',
        },
        loadavgAtEnd: [0, 0, 0],
        k6: 'k6',
      },
      encryption,
    } as unknown as Results;
    await writeReport(out, results);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    const int = (n: number) => Math.round(n).toLocaleString('en-US');
    const x = encryption.sizes.find(
      (r) => r.alg === 'ML-DSA-65' && r.profile === 'typical' && r.jwe?.alg === 'HPKE-9',
    );
    expect(md).toContain('### Encrypted ID tokens: sizes');
    expect(md).toContain('in HPKE-9 (PQ/T)');
    expect(md).toContain(`${int(x?.setCookie ?? 0)} (**no**)`);
    expect(md).toContain('### Encrypted ID tokens: CPU per token (runner process)');
    expect(md).toContain('2 × Test CPU 9000 (flags: avx2 aes)');
    const c = encryption.cost.cost;
    const sign = c['sign ML-DSA-65']?.usPerOp ?? 0;
    const both = c['sign + encrypt HPKE-9']?.usPerOp ?? 0;
    const row = md.split('\n').find((l) => l.startsWith('| HPKE-9 | PQ/T |'));
    expect(row).toContain(`| ${int(both)}`);
    expect(row).toContain(`| ${(both / sign).toFixed(2)}× |`);
  });
});
