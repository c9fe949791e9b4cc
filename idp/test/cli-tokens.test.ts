/**
 * The `pqid` CLI, end to end: the built dist/cli.js is spawned under the pinned Node
 * (`npm test` runs `tsc -b` first, so dist is current).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type EncryptionKey,
  encryptJwt,
  generateEncryptionKeyPair,
  importEncryptionKey,
  inspectJwe,
  inspectToken,
} from '@pqid/jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenCpu } from '../src/cli/token-cost.ts';
import type { CpuSource, TokenFitRow } from '../src/cli/token-fit-command.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NODE = join(ROOT, 'node_modules/.bin/node');
const CLI = join(ROOT, 'idp/dist/cli.js');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `pqid …`; stdin gets `input`, or is closed empty. Never rejects: the exit code is the result. */
function pqid(args: string[], input = '', env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    const child = execFile(
      NODE,
      [CLI, ...args],
      {
        cwd: ROOT,
        env: { ...process.env, PQID_DEBUG: '', PQID_BACKEND: '', PQID_NATIVE_COMPOSITES: '', ...env },
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

const NO_STACK = /^\s+at /m;

let dir: string;
beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`tsc -b\` first (npm test does)`);
  dir = await mkdtemp(join(tmpdir(), 'pqid-cli-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const ISS = 'https://idp.example.com';
const AUD = 'client-1';

interface Keys {
  priv: string;
  pub: string;
  privJwk: Record<string, unknown>;
  pubJwk: Record<string, unknown>;
}

async function keygen(alg: string, tag = alg): Promise<Keys> {
  const priv = join(dir, `${tag}.priv.json`);
  const pub = join(dir, `${tag}.pub.json`);
  const r = await pqid(['keygen', '--alg', alg, '--public-out', pub]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  await writeFile(priv, r.stdout);
  const privJwk = JSON.parse(r.stdout);
  const pubJwk = JSON.parse(await readFile(pub, 'utf8'));
  return { priv, pub, privJwk, pubJwk };
}

async function sign(keys: Keys, claims: object = { sub: 'alice', name: 'Alice' }): Promise<string> {
  const r = await pqid(
    ['sign', '--key', keys.priv, '--iss', ISS, '--aud', AUD, '--exp', '10m'],
    JSON.stringify(claims),
  );
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const token = r.stdout.trim();
  expect(token.split('.')).toHaveLength(3);
  return token;
}

describe.each(['ML-DSA-65', 'ML-DSA-65-ES256', 'ES256'])('keygen → sign → verify: %s', (alg) => {
  let keys: Keys;
  let token: string;
  beforeAll(async () => {
    keys = await keygen(alg);
    token = await sign(keys);
  });

  it('keygen prints the private JWK and writes the public one', () => {
    expect(keys.privJwk.alg).toBe(alg);
    expect(keys.pubJwk.alg).toBe(alg);
    expect(keys.pubJwk.kid).toBe(keys.privJwk.kid);
    for (const m of ['priv', 'd']) expect(keys.pubJwk).not.toHaveProperty(m);
    expect(keys.privJwk.priv ?? keys.privJwk.d).toBeTypeOf('string');
  });

  it('verifies against the public JWK file, token as argument', async () => {
    const r = await pqid(['verify', '--jwks', keys.pub, '--alg', alg, '--iss', ISS, '--aud', AUD, token]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.header).toMatchObject({ alg, kid: keys.pubJwk.kid, typ: 'JWT' });
    expect(out.claims).toMatchObject({ sub: 'alice', name: 'Alice', iss: ISS, aud: AUD });
    expect(out.claims.exp - out.claims.iat).toBe(600);
    expect(out.key).toEqual({ alg, kid: keys.pubJwk.kid });
    // Verification output never carries private key material.
    const secret = (keys.privJwk.priv ?? keys.privJwk.d) as string;
    expect(r.stdout).not.toContain(secret);
  });

  it('verifies against a JWKS file, token on stdin, among several allowed algorithms', async () => {
    const jwks = join(dir, `${alg}.jwks.json`);
    const other = await keygen('ML-DSA-44', `${alg}-other`);
    await writeFile(jwks, JSON.stringify({ keys: [other.pubJwk, keys.pubJwk] }));
    const r = await pqid(['verify', '--jwks', jwks, '--alg', `ML-DSA-44,${alg}`, '--aud', AUD], `${token}\n`);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).claims.sub).toBe('alice');
  });

  it('fails with exit 1 and ERR_ALG_NOT_ALLOWED when --alg does not list the token algorithm', async () => {
    const wrong = alg === 'ES256' ? 'ML-DSA-65' : 'ES256';
    const r = await pqid(['verify', '--jwks', keys.pub, '--alg', wrong, token]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('ERR_ALG_NOT_ALLOWED');
    expect(r.stderr).not.toMatch(NO_STACK);
  });

  it('fails with exit 1 on a tampered payload', async () => {
    const [h, p, s] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'mallory' })).toString('base64url')}.${s}`;
    const r = await pqid(['verify', '--jwks', keys.pub, '--alg', alg, forged]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('ERR_JWS_SIGNATURE_VERIFICATION_FAILED');
    expect(r.stderr).not.toMatch(NO_STACK);
  });

  it('fails with exit 1 on a wrong audience', async () => {
    const r = await pqid(['verify', '--jwks', keys.pub, '--alg', alg, '--aud', 'someone-else', token]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ERR_JWT_CLAIM_VALIDATION_FAILED');
  });
});

describe('verify usage errors', () => {
  let keys: Keys;
  let token: string;
  beforeAll(async () => {
    keys = await keygen('ML-DSA-44', 'usage');
    token = await sign(keys);
  });

  it('without --alg is a usage error (exit 2), whatever the token says', async () => {
    const r = await pqid(['verify', '--jwks', keys.pub, token]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('ERR_USAGE');
    expect(r.stderr).toContain('--alg');
  });

  it('--alg none and unknown algorithms are usage errors', async () => {
    for (const alg of ['none', 'HS256', 'ML-DSA-65,nope']) {
      const r = await pqid(['verify', '--jwks', keys.pub, '--alg', alg, token]);
      expect(r.code, alg).toBe(2);
    }
    // An unknown one is answered with the choices, here and in keygen.
    const typo = await pqid(['verify', '--jwks', keys.pub, '--alg', 'ML-DSA-66', token]);
    expect(typo.stderr).toMatch(/unknown algorithm "ML-DSA-66" in --alg; choose from ML-DSA-44, ML-DSA-65, /);
    const gen = await pqid(['keygen', '--alg', 'ML-DSA-66']);
    expect(gen.code).toBe(2);
    expect(gen.stderr).toMatch(
      /unknown algorithm "ML-DSA-66"; choose one of ML-DSA-44, ML-DSA-65, .*SLH-DSA-SHA2-128s/,
    );
  });

  it('without --jwks, or with an unknown option, is a usage error', async () => {
    expect((await pqid(['verify', '--alg', 'ML-DSA-44', token])).code).toBe(2);
    expect((await pqid(['verify', '--jwks', keys.pub, '--alg', 'ML-DSA-44', '--bogus', token])).code).toBe(2);
  });

  it('refuses a --jwks file holding a private key, without echoing it', async () => {
    const r = await pqid(['verify', '--jwks', keys.priv, '--alg', 'ML-DSA-44', token]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ERR_JWKS_HAS_PRIVATE_KEY');
    expect(r.stderr).not.toContain(keys.privJwk.priv as string);
  });

  it('a malformed token fails with exit 1 and a PqidError code, no stack', async () => {
    const r = await pqid(['verify', '--jwks', keys.pub, '--alg', 'ML-DSA-44', 'not-a-jwt']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ERR_JWS_INVALID');
    expect(r.stderr).not.toMatch(NO_STACK);
  });

  it('a key that did not sign the token fails', async () => {
    const other = await keygen('ML-DSA-44', 'usage-other');
    const r = await pqid(['verify', '--jwks', other.pub, '--alg', 'ML-DSA-44', token]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ERR_JWKS_NO_MATCHING_KEY|ERR_JWS_SIGNATURE_VERIFICATION_FAILED/);
  });
});

describe('sign', () => {
  it('refuses a public key, bad claims and bad spans', async () => {
    const keys = await keygen('ML-DSA-44', 'sign');
    const pub = await pqid(['sign', '--key', keys.pub], '{}');
    expect(pub.code).toBe(1);
    expect(pub.stderr).toContain('ERR_NOT_A_PRIVATE_KEY');
    const arr = await pqid(['sign', '--key', keys.priv], '[1,2]');
    expect(arr.code).toBe(1);
    expect(arr.stderr).toContain('ERR_CLAIMS_INVALID');
    const junk = await pqid(['sign', '--key', keys.priv], '{not json');
    expect(junk.code).toBe(1);
    expect(junk.stderr).toContain('ERR_INPUT_NOT_JSON');
    expect((await pqid(['sign', '--key', keys.priv, '--exp', '10 parsecs'], '{}')).code).toBe(2);
    expect((await pqid(['sign'], '{}')).code).toBe(2);
    // Empty stdin is an empty claims set.
    const empty = await pqid(['sign', '--key', keys.priv, '--sub', 'bob']);
    expect(empty.code).toBe(0);
    for (const r of [pub, arr, junk]) expect(r.stderr + r.stdout).not.toContain(keys.privJwk.priv as string);
  });
});

describe('inspect', () => {
  let token: string;
  beforeAll(async () => {
    token = await sign(await keygen('ML-DSA-65', 'inspect'));
  });

  it('prints header, claims, segment sizes and where the token fits', async () => {
    const r = await pqid(['inspect', token]);
    expect(r.code).toBe(0);
    const i = inspectToken(token);
    expect(r.stdout).toContain('"alg": "ML-DSA-65"');
    expect(r.stdout).toContain('"sub": "alice"');
    expect(r.stdout).toMatch(new RegExp(`signature\\s+${i.bytes.signature}\\s+${i.bytes.signatureRaw}`));
    expect(r.stdout).toMatch(new RegExp(`token \\(with dots\\)\\s+${i.bytes.token}\\b`));
    expect(r.stdout).toMatch(/one cookie .*\s4096\s+does not fit/);
    expect(r.stdout).toMatch(/Authorization: Bearer .*\s8190\s+fits/);
    expect(r.stdout).toMatch(/URL, conservative .*\s2048\s+does not fit/);
    expect(r.stdout).toMatch(/8000\s+fits/);
  });

  it('--json is exactly inspectToken(token), token from stdin', async () => {
    const r = await pqid(['inspect', '--json'], `${token}\n`);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(inspectToken(token))));
  });

  it('a non-JWS fails with exit 1 and a code, no stack', async () => {
    for (const bad of ['abc', 'bm90anNvbg.e30.AA', '!!.e30.AA']) {
      const r = await pqid(['inspect', bad]);
      expect(r.code, bad).toBe(1);
      expect(r.stderr).toContain('ERR_JWS_INVALID');
      expect(r.stderr).not.toMatch(NO_STACK);
    }
  });
});

describe('keygen', () => {
  const SEED = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

  it('--seed is deterministic (ML-DSA), and different seeds give different keys', async () => {
    const a = await pqid(['keygen', '--alg', 'ML-DSA-65', '--seed', SEED]);
    const b = await pqid(['keygen', '--alg', 'ML-DSA-65', '--seed', SEED]);
    const c = await pqid(['keygen', '--alg', 'ML-DSA-65', '--seed', SEED.replace(/^00/, 'ff')]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).not.toBe(c.stdout);
    expect(JSON.parse(a.stdout).priv).toBe(Buffer.from(SEED, 'hex').toString('base64url'));
  });

  it('--seed with --traditional-secret is deterministic for composites', async () => {
    const args = ['keygen', '--alg', 'ML-DSA-44-Ed25519', '--seed', SEED, '--traditional-secret', SEED];
    const [a, b] = await Promise.all([pqid(args), pqid(args)]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
  });

  it('--out writes the private JWK with mode 0600 and never overwrites', async () => {
    const out = join(dir, 'out.priv.json');
    const r = await pqid(['keygen', '--alg', 'ML-DSA-44', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    const again = await pqid(['keygen', '--alg', 'ML-DSA-44', '--out', out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('EEXIST');
  });

  it('rejects bad input as usage errors', async () => {
    expect((await pqid(['keygen', '--alg', 'ML-DSA-65', '--seed', 'abcd'])).code).toBe(2);
    expect((await pqid(['keygen', '--alg', 'ML-DSA-65', '--seed', 'zz'])).code).toBe(2);
    expect((await pqid(['keygen', '--alg', 'ES256', '--seed', SEED])).code).toBe(2);
    expect((await pqid(['keygen', '--alg', 'NOPE'])).code).toBe(2);
    expect((await pqid(['keygen'])).code).toBe(2);
  });
});

describe('listings and help', () => {
  it('algorithms and backends print tables, --json parses', async () => {
    const a = await pqid(['algorithms']);
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/ML-DSA-65\s+ml-dsa\s+yes\s+AKP\s+1952\s+32\s+3309/);
    const aj = JSON.parse((await pqid(['algorithms', '--json'])).stdout);
    expect(aj.map((e: { alg: string }) => e.alg)).toContain('ML-DSA-87-Ed448');
    const b = await pqid(['backends']);
    expect(b.code).toBe(0);
    expect(b.stdout).toMatch(/^noble\s+yes/m);
    expect(b.stdout).toMatch(/SLH-DSA\s+external μ/);
    expect(a.stdout).toMatch(/SLH-DSA-SHA2-128s\s+slh-dsa\s+yes\s+AKP\s+32\s+64\s+7856/);
    const bj = JSON.parse((await pqid(['backends', '--json'])).stdout);
    expect(bj.map((e: { name: string }) => e.name)).toEqual(['native', 'node', 'noble', 'native-ref']);
  });

  it('--help works for the tool and every command; unknown commands are usage errors', async () => {
    const top = await pqid(['--help']);
    expect(top.code).toBe(0);
    for (const cmd of ['keygen', 'sign', 'verify', 'inspect', 'algorithms', 'backends']) {
      expect(top.stdout).toContain(cmd);
      const h = await pqid([cmd, '--help']);
      expect(h.code, cmd).toBe(0);
      expect(h.stdout).toContain(`pqid ${cmd}`);
    }
    expect((await pqid(['frobnicate'])).code).toBe(2);
    expect((await pqid([])).code).toBe(2);
  });
});

describe('token-fit', () => {
  const COOKIE = (t: string) => Buffer.byteLength(`id_token=${t}; Path=/; Secure; HttpOnly; SameSite=Lax`);

  /** The byte length a fresh encryption of `jws` with (alg, enc) gives, computed here, not by the CLI. */
  async function encryptedLength(jws: string, alg: string, enc: string | null): Promise<number> {
    const { publicJwk } = await generateEncryptionKeyPair(alg);
    const key = (await importEncryptionKey(publicJwk)) as EncryptionKey;
    return Buffer.byteLength(await encryptJwt(jws, key, enc ? { enc } : {}));
  }

  it('measures the signed ID token and the JWEs it produced, X-Wing, the NIST hybrids and classical', async () => {
    const r = await pqid(['token-fit', '--json', '--no-cpu']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const { alg, rows } = JSON.parse(r.stdout) as { alg: string; rows: TokenFitRow[] };
    expect(alg).toBe('ML-DSA-65');
    const [signed, ...encrypted] = rows as [TokenFitRow, ...TokenFitRow[]];
    expect(inspectToken(signed.token).header.alg).toBe('ML-DSA-65');
    expect(signed.bytes).toBe(Buffer.byteLength(signed.token));
    expect(encrypted.map((e) => [e.alg, e.enc, e.quantumSafe])).toEqual([
      ['HPKE-9', null, 'PQ/T'],
      ['HPKE-8', null, 'PQ/T'],
      ['HPKE-10', null, 'PQ/T'],
      ['ECDH-ES+A256KW', 'A256GCM', 'no'],
      ['RSA-OAEP-256', 'A256GCM', 'no'],
    ]);
    expect(encrypted.map((e) => e.kem)).toEqual([
      'MLKEM768-X25519',
      'MLKEM768-P256',
      'MLKEM1024-P384',
      null,
      null,
    ]);
    for (const e of encrypted) {
      const jwe = inspectJwe(e.token);
      expect(jwe.header).toMatchObject({ alg: e.alg, cty: 'JWT', ...(e.enc ? { enc: e.enc } : {}) });
      expect(e.bytes).toBe(Buffer.byteLength(e.token));
      expect(e.overhead).toBe(e.bytes - signed.bytes);
      expect(e.fits).toEqual(jwe.fits);
      expect(e.fits.cookie).toEqual({ bytes: COOKIE(e.token), limit: 4096, fits: COOKIE(e.token) <= 4096 });
      // The same signed token encrypted here, to another key, is exactly as long.
      expect(await encryptedLength(signed.token, e.alg, e.enc)).toBe(e.bytes);
    }
    // The post-quantum KEMs carry their encapsulated secret: more than a kilobyte over classical.
    const by = (a: string) => encrypted.find((e) => e.alg === a)?.bytes ?? 0;
    expect(by('HPKE-9') - by('ECDH-ES+A256KW')).toBeGreaterThan(1000);
  });

  it('--alg and --encrypt pick what is measured; the table shows the measured bytes', async () => {
    const r = await pqid([
      'token-fit',
      '--alg',
      'ES256',
      '--encrypt',
      'HPKE-12,HPKE-9-KE:A128CBC-HS256',
      '--json',
      '--no-cpu',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const { rows } = JSON.parse(r.stdout) as { rows: TokenFitRow[] };
    expect(rows.map((x) => [x.alg, x.enc])).toEqual([
      ['ES256', null],
      ['HPKE-12', null],
      ['HPKE-9-KE', 'A128CBC-HS256'],
    ]);
    const table = await pqid(['token-fit', '--alg', 'ES256', '--encrypt', 'RSA-OAEP-256', '--no-cpu']);
    expect(table.code, table.stderr).toBe(0);
    const signed = inspectToken(rows[0]?.token ?? '').bytes.token;
    const rsa = await encryptedLength(rows[0]?.token ?? '', 'RSA-OAEP-256', 'A256GCM');
    expect(table.stdout).toMatch(new RegExp(`ES256 JWS\\s+signed only\\s+${signed}\\s`));
    expect(table.stdout).toMatch(
      new RegExp(
        `in RSA-OAEP-256 / A256GCM\\s+no\\s+${rsa.toLocaleString('en-US')}\\s+${(rsa - signed).toLocaleString('en-US')}\\s+fits`,
      ),
    );
  });

  // A measurement, not a timed test: shape, positive figures and ratios that are the figures'
  // quotients — never an absolute time.
  it('--json gives each row its CPU per token and ratios to signing alone, and names the CPU', async () => {
    const r = await pqid(['token-fit', '--encrypt', 'HPKE-9,RSA-OAEP-256', '--cpu-ms', '300', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { rows, cpu } = JSON.parse(r.stdout) as { rows: TokenFitRow[]; cpu: CpuSource };
    expect(cpu).toMatchObject({ rounds: expect.any(Number), budgetMs: 300, hpkeBackend: expect.any(String) });
    expect(cpu.machine).toContain(`${os.cpus()[0]?.model.trim()} (`);
    expect(cpu.machine).toContain(`Node ${process.versions.node}`);
    expect(cpu.mldsa).toMatch(/ backend, /);
    const [signed, ...encrypted] = rows.map((x) => x.cpu) as [TokenCpu, ...TokenCpu[]];
    expect(encrypted).toHaveLength(2);
    expect(signed).toMatchObject({ ratio: 1, decryptUs: null, decryptRatio: null });
    for (const c of [signed, ...encrypted]) {
      expect(c.us).toBeGreaterThan(0);
      expect(Number.isFinite(c.us)).toBe(true);
      expect(c.spread).toBeGreaterThanOrEqual(0);
    }
    for (const c of encrypted) {
      expect(c.ratio).toBeCloseTo(c.us / signed.us, 12);
      expect(c.decryptUs).toBeGreaterThan(0);
      expect(c.decryptRatio).toBeCloseTo((c.decryptUs as number) / signed.us, 12);
    }
    // ES256 is no ML-DSA: no ML-DSA backend is named for it.
    const es = await pqid([
      'token-fit',
      '--alg',
      'ES256',
      '--encrypt',
      'HPKE-12',
      '--cpu-ms',
      '100',
      '--json',
    ]);
    expect(es.code, es.stderr).toBe(0);
    expect((JSON.parse(es.stdout) as { cpu: CpuSource }).cpu.mldsa).toBeNull();
  });

  it('the table shows the CPU beside signing alone, with ratios that are the shown figures divided', async () => {
    const r = await pqid(['token-fit', '--encrypt', 'HPKE-9,ECDH-ES+A256KW', '--cpu-ms', '300']);
    expect(r.code, r.stderr).toBe(0);
    const cpuPart = r.stdout.slice(r.stdout.indexOf('CPU per token'));
    expect(cpuPart).toMatch(
      /^CPU per token, measured here: process CPU time, median of \d+ rounds in 0\.3 s\./,
    );
    expect(cpuPart).toContain(`Machine: ${os.cpus()[0]?.model.trim()} (`);
    expect(cpuPart).toMatch(/token\s+IdP µs\s+× sign\s+RP decrypt µs\s+× sign\s+spread/);
    const num = (s: string) => Number(s.replaceAll(',', ''));
    const signed = /ML-DSA-65 JWS\s+([\d,]+)\s+1\.00×\s+-\s+-\s+\d+%/.exec(cpuPart);
    expect(signed, cpuPart).not.toBeNull();
    const sign = num(signed?.[1] ?? '');
    expect(sign).toBeGreaterThan(0);
    // Each printed ratio is the printed µs ÷ the signing µs, up to their rounding.
    const close = (ratio: string, us: string) => {
      const [a, b, x] = [num(us), sign, Number(ratio)];
      expect(a).toBeGreaterThan(0);
      expect(x).toBeGreaterThanOrEqual((a - 0.5) / (b + 0.5) - 0.005);
      expect(x).toBeLessThanOrEqual((a + 0.5) / (b - 0.5) + 0.005);
    };
    for (const label of ['in HPKE-9 \\(MLKEM768-X25519\\)', 'in ECDH-ES\\+A256KW / A256GCM']) {
      const m = new RegExp(`${label}\\s+([\\d,]+)\\s+([\\d.]+)×\\s+([\\d,]+)\\s+([\\d.]+)×\\s+\\d+%`).exec(
        cpuPart,
      );
      expect(m, `${label}\n${cpuPart}`).not.toBeNull();
      close(m?.[2] ?? '', m?.[1] ?? '');
      close(m?.[4] ?? '', m?.[3] ?? '');
    }
  });

  it('--no-cpu shows sizes only; a bad --cpu-ms is a usage error', async () => {
    const sizes = await pqid(['token-fit', '--encrypt', 'HPKE-12', '--no-cpu']);
    expect(sizes.code, sizes.stderr).toBe(0);
    expect(sizes.stdout).toContain('in HPKE-12');
    expect(sizes.stdout).not.toContain('CPU per token');
    const j = JSON.parse(
      (await pqid(['token-fit', '--encrypt', 'HPKE-12', '--no-cpu', '--json'])).stdout,
    ) as {
      rows: TokenFitRow[];
      cpu: unknown;
    };
    expect(j.cpu).toBeNull();
    expect(j.rows.every((x) => x.cpu === undefined)).toBe(true);
    for (const [args, why] of [
      [['--cpu-ms', '10'], /--cpu-ms: expected whole milliseconds from 50 to 600000, got "10"/],
      [['--cpu-ms', '2s'], /--cpu-ms: expected whole milliseconds/],
      [['--no-cpu', '--cpu-ms', '500'], /--cpu-ms sets the CPU measurement that --no-cpu turns off/],
    ] as const) {
      const bad = await pqid(['token-fit', ...args]);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toMatch(why);
      expect(bad.stderr).not.toMatch(NO_STACK);
    }
  });

  it('an unknown alg or enc is a usage error that lists the choices', async () => {
    const alg = await pqid(['token-fit', '--encrypt', 'HPKE-9,MLKEM-768']);
    expect(alg.code).toBe(2);
    expect(alg.stdout).toBe('');
    expect(alg.stderr).toMatch(
      /ERR_USAGE: --encrypt: unknown JWE alg "MLKEM-768"; choose one of HPKE-0, .*HPKE-9, .*RSA-OAEP-256, .*ECDH-ES\+A256KW/,
    );
    const enc = await pqid(['token-fit', '--encrypt', 'RSA-OAEP-256:A256CTR']);
    expect(enc.code).toBe(2);
    expect(enc.stderr).toContain(
      'unknown JWE enc "A256CTR"; choose one of A128GCM, A192GCM, A256GCM, A128CBC-HS256',
    );
    const integrated = await pqid(['token-fit', '--encrypt', 'HPKE-9:A256GCM']);
    expect(integrated.code).toBe(2);
    expect(integrated.stderr).toContain(
      'HPKE-9 is HPKE Integrated Encryption and takes no enc; use HPKE-9-KE:A256GCM',
    );
    const sig = await pqid(['token-fit', '--alg', 'ML-DSA-66']);
    expect(sig.code).toBe(2);
    expect(sig.stderr).toMatch(/unknown signing alg "ML-DSA-66"; choose one of .*ML-DSA-65/);
    for (const x of [alg, enc, integrated, sig]) expect(x.stderr).not.toMatch(NO_STACK);
  });
});

describe('backend settings from the environment', () => {
  it('PQID_BACKEND prefers a backend; a bad value is a configuration error, not a crash', async () => {
    const b = await pqid(['backends'], '', { PQID_BACKEND: 'noble' });
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toMatch(/^noble\s+yes\s+\*/m);
    expect(b.stdout).toContain('PQID_BACKEND=noble is set');
    const bad = await pqid(['backends'], '', { PQID_BACKEND: 'fast' });
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toBe(
      'pqid: ERR_CONFIG: PQID_BACKEND must be one of native, node, noble, native-ref; got "fast"\n',
    );
    const composites = await pqid(['algorithms'], '', { PQID_NATIVE_COMPOSITES: 'sometimes' });
    expect(composites.code).toBe(1);
    expect(composites.stderr).toContain('ERR_CONFIG: PQID_NATIVE_COMPOSITES must be auto, whole or split');
    expect(composites.stderr).not.toMatch(NO_STACK);
  });

  it('PQID_DEBUG=1 adds the stack trace to an error, PQID_DEBUG=0 does not', async () => {
    const on = await pqid(['backends'], '', { PQID_BACKEND: 'fast', PQID_DEBUG: '1' });
    expect(on.code).toBe(1);
    expect(on.stderr).toMatch(NO_STACK);
    const off = await pqid(['backends'], '', { PQID_BACKEND: 'fast', PQID_DEBUG: '0' });
    expect(off.stderr).toBe(
      'pqid: ERR_CONFIG: PQID_BACKEND must be one of native, node, noble, native-ref; got "fast"\n',
    );
  });

  it('PQID_SIGN_SLOTS and PQID_SIGN_BATCH are read here, for the native backend, and a typo is refused', async () => {
    const bad = await pqid(['algorithms'], '', { PQID_SIGN_BATCH: 'eight' });
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toBe('pqid: ERR_CONFIG: PQID_SIGN_BATCH must be an integer ≥ 1, got "eight"\n');
  });
});
