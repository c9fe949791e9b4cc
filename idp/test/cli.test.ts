/** `pqid keys …` and `pqid clients …` against the same storage a running server uses. */
import { spawnSync } from 'node:child_process';
import { randomBytes, type webcrypto } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateEncryptionKeyPair } from '@pqid/jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdp, type Idp } from '../src/app.ts';
import { clients } from '../src/cli/clients.ts';
import { keys } from '../src/cli/keys.ts';
import { runCli } from '../src/cli/run.ts';
import { kekId } from '../src/crypto/kek.ts';
import { createKeyProvider } from './fixtures/test-kms.ts';
import { captureOutput, KEK, tempDir, testConfig } from './helpers.ts';

async function pqid(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { result: code, stdout, stderr } = await captureOutput(() => runCli(argv, [keys, clients]));
  return { code, stdout, stderr };
}
const addClient = (...argv: string[]) => pqid('clients', 'add', ...argv);

describe('pqid CLI (keys, clients)', () => {
  const t = tempDir();
  const saved = { ...process.env };
  let idp: Idp;
  beforeAll(async () => {
    process.env.PQID_DATA_DIR = t.dir;
    process.env.PQID_KEK = KEK;
    process.env.PQID_DEMO = 'false';
    delete process.env.PQID_CONFIG;
    delete process.env.PQID_DATABASE_URL;
    idp = await createIdp(testConfig(t.dir, { demo: { enabled: false } }), {
      env: { PQID_KEK: KEK },
      warn: () => {},
    });
  });
  afterAll(async () => {
    await idp?.close();
    process.env = saved;
    t.cleanup();
  });

  it('clients add prints the client once with its secret, warns when tokens will not fit a cookie', async () => {
    const args = [
      'clients',
      'add',
      '--id',
      'web',
      '--name',
      'Web app',
      '--redirect-uri',
      'https://app.example/cb',
    ];
    const r = await pqid(
      ...args,
      '--alg',
      'ML-DSA-87',
      '--access-token-format',
      'jwt',
      '--access-token-storage',
      'stateless',
      '--yes',
    );
    expect(r.code).toBe(0);
    const client = JSON.parse(r.stdout);
    expect(client).toMatchObject({
      client_id: 'web',
      id_token_signed_response_alg: 'ML-DSA-87',
      access_token_format: 'jwt',
      access_token_storage: 'stateless',
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(client.client_secret).toMatch(/^[\w-]{43}$/);
    expect(client).not.toHaveProperty('client_secret_hash');
    expect(r.stderr).toMatch(/ML-DSA-87 ID token is ~[\d,]+ bytes; as a cookie it needs [\d,]+ > 4,096/);
    // The server sees the client (same storage) and the secret works; the key is published.
    const stored = await idp.ctx.clients.find('web');
    expect(stored && (await idp.ctx.clients.checkSecret(stored, client.client_secret))).toBe(true);
    await idp.ctx.keys.load();
    expect(idp.ctx.keys.jwks().keys.map((k) => k.alg)).toContain('ML-DSA-87');

    const again = await pqid('clients', 'add', '--id', 'web', '--redirect-uri', 'https://app.example/cb');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/ERR_CLIENT_EXISTS/);
  });

  it('clients add creates and activates a signing key only when told to (--yes), and says so', async () => {
    // Not a terminal here (captured output): the command explains and names the flag.
    const before = idp.ctx.keys.list('oidc').length;
    const ed448 = ['--id', 'ed448', '--redirect-uri', 'https://a.example/cb', '--alg', 'ML-DSA-87-Ed448'];
    const r = await addClient(...ed448);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'adding this client creates and activates a new oidc signing key for ML-DSA-87-Ed448 (none exists yet)',
    );
    expect(r.stderr).toContain('--yes');
    expect(await idp.ctx.clients.find('ed448')).toBeUndefined();
    await idp.ctx.keys.load();
    expect(idp.ctx.keys.list('oidc')).toHaveLength(before);
    // With --yes it is created and published; a client of an algorithm that has a key needs no flag.
    const yes = await addClient(...ed448, '--yes');
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stderr).toMatch(
      /^note: adding this client creates and activates a new oidc signing key for ML-DSA-87-Ed448 \(none exists yet\); it is published at once \(--yes\)$/m,
    );
    await idp.ctx.keys.load();
    expect(
      idp.ctx.keys.list('oidc').filter((k) => k.alg === 'ML-DSA-87-Ed448' && k.status === 'active'),
    ).toHaveLength(1);
    const second = await addClient('--redirect-uri', 'https://b.example/cb', '--alg', 'ML-DSA-87-Ed448');
    expect(second.code, second.stderr).toBe(0);
  });

  it('clients add answers an unknown encryption alg with the choices', async () => {
    const r = await addClient('--redirect-uri', 'https://e.example/cb', '--id-token-encryption', 'HPKE-99');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /id_token_encrypted_response_alg HPKE-99 is not a JWE algorithm this provider has; choose one of HPKE-0, .*\bHPKE-9\b.*\bRSA-OAEP-256\b/,
    );
  });

  it('on a terminal, clients add asks before creating a key; "n" adds nothing', async (ctx) => {
    if (spawnSync('script', ['--version']).status !== 0) {
      if (process.env.CI) throw new Error('util-linux `script` is needed for this test');
      return ctx.skip('util-linux `script` (a pseudo-terminal) is not installed');
    }
    // The built CLI on a pseudo-terminal (`npm test` builds first), typing the answer.
    const repo = fileURLToPath(new URL('../..', import.meta.url));
    const add = (id: string, alg: string, answer: string) =>
      spawnSync(
        'script',
        [
          '-qec',
          `'${process.execPath}' idp/dist/cli.js clients add --id ${id} --redirect-uri https://t.example/cb --alg ${alg}`,
          '/dev/null',
        ],
        { cwd: repo, input: `${answer}\n`, encoding: 'utf8', timeout: 60_000 },
      );
    const no = add('asked-no', 'ML-DSA-44-ES256', 'n');
    expect(no.stdout).toContain('creates and activates a new oidc signing key for ML-DSA-44-ES256');
    expect(no.stdout).toContain('Create it? [y/N]');
    expect(no.stdout).toContain('ERR_NOT_CONFIRMED');
    expect(no.status).toBe(1);
    expect(await idp.ctx.clients.find('asked-no')).toBeUndefined();
    const yes = add('asked-yes', 'ML-DSA-44-ES256', 'y');
    expect(yes.status, yes.stdout).toBe(0);
    expect(yes.stdout).toContain('"client_id": "asked-yes"');
  });

  it('clients add --grant client_credentials: machine defaults, no ID-token warning', async () => {
    // ML-DSA-87 has a key (the first test made it): no --yes needed.
    const r = await addClient('--id', 'm2m', '--grant', 'client_credentials', '--alg', 'ML-DSA-87');
    expect(r.code, r.stderr).toBe(0);
    const c = JSON.parse(r.stdout);
    expect(c).toMatchObject({ grant_types: ['client_credentials'], response_types: [], require_pkce: false });
    expect(c.redirect_uris).toEqual([]);
    expect(r.stderr).not.toMatch(/ID token|id_token_hint/);
    // No user signs in through it: no login or consent page shows its name.
    expect(r.stderr).not.toMatch(/--name/);
    // A client that signs users in keeps the code flow's defaults.
    const web = await addClient('--redirect-uri', 'https://c.example/cb', '--alg', 'ML-DSA-87');
    expect(JSON.parse(web.stdout)).toMatchObject({ response_types: ['code'], require_pkce: true });
    expect(web.stderr).toMatch(/ML-DSA-87 ID token is ~[\d,]+ bytes/);
    expect(web.stderr).toContain('warning: no --name');
  });

  it('clients add judges an encrypted ID token on the JWE the client receives', async () => {
    const { publicJwk } = await generateEncryptionKeyPair('HPKE-9');
    const jwks = join(t.dir, 'xwing-jwks.json');
    writeFileSync(jwks, JSON.stringify({ keys: [publicJwk] }));
    const enc = ['--id-token-encryption', 'HPKE-9', '--jwks', jwks];
    // Signed only, a typical ML-DSA-44 ID token (~3.6 kB) fits one cookie: no warning.
    const signed = await addClient('--redirect-uri', 'https://e.example/cb', '--alg', 'ML-DSA-44', '--yes');
    expect(signed.code, signed.stderr).toBe(0);
    expect(signed.stderr).not.toMatch(/ID token/);
    // Inside X-Wing it is base64url-encoded again, next to the 1,088-byte encapsulated secret.
    const sealed = await addClient('--redirect-uri', 'https://e.example/cb', '--alg', 'ML-DSA-44', ...enc);
    expect(sealed.code, sealed.stderr).toBe(0);
    const m =
      /ML-DSA-44 ID token encrypted with HPKE-9 is ~([\d,]+) bytes as received \(signed only ~([\d,]+)\); as a cookie it needs ([\d,]+) > 4,096 bytes.*store the decrypted signed token \(it fits\)/.exec(
        sealed.stderr,
      );
    expect(m, sealed.stderr).not.toBeNull();
    const num = (s: string | undefined) => Number(s?.replaceAll(',', ''));
    expect(num(m?.[1])).toBeGreaterThan(num(m?.[2]) + 1088);
    expect(num(m?.[3])).toBeGreaterThan(num(m?.[1]));
    // A logout URL carries the decrypted, signed token (OIDC Core §3.1.2.1): an EdDSA one fits,
    // though its JWE (over 2,048 bytes) would not. (Not ES256: the key tests below age its key.)
    const es = await addClient(
      '--redirect-uri',
      'https://e.example/cb',
      '--alg',
      'EdDSA',
      '--fits',
      'url',
      '--yes',
      ...enc,
    );
    expect(es.code, es.stderr).toBe(0);
    expect(es.stderr).not.toMatch(/id_token_hint|ID token/);
    const big = await addClient(
      '--redirect-uri',
      'https://e.example/cb',
      '--alg',
      'ML-DSA-44',
      '--fits',
      'url',
      ...enc,
    );
    expect(big.stderr).toMatch(
      /logout URL carrying an ML-DSA-44 id_token_hint \(the decrypted, signed token\)/,
    );
    // A machine client gets no ID tokens, encrypted or not: nothing to warn about.
    const m2m = await addClient('--grant', 'client_credentials', '--alg', 'ML-DSA-44', ...enc);
    expect(m2m.code, m2m.stderr).toBe(0);
    expect(m2m.stderr).not.toMatch(/ID token|id_token_hint/);
  });

  it('offers exactly the algorithms it accepts, and names the choices when one is unknown', async () => {
    const help = await pqid('clients', '--help');
    const offered = help.stdout.slice(help.stdout.indexOf('--alg ALG'), help.stdout.indexOf('--auth-method'));
    // SLH-DSA is refused per token unless the operator allows it: the help offers it only so.
    for (const alg of ['ML-DSA-44', 'ML-DSA-65-ES256', 'ES256', 'PS256']) expect(offered).toContain(alg);
    expect(offered).not.toMatch(/SLH-DSA-SHA2|SLH-DSA-SHAKE/);
    expect(offered).toContain('SLH-DSA only with keys.allowSlhDsaHotPath');
    const slh = await addClient('--redirect-uri', 'https://a.example/cb', '--alg', 'SLH-DSA-SHA2-128s');
    expect(slh.code).toBe(2);
    expect(slh.stderr).toContain('keys.allowSlhDsaHotPath');
    const typo = await addClient('--redirect-uri', 'https://a.example/cb', '--alg', 'ML-DSA-66');
    expect(typo.code).toBe(2);
    const listed = /choose one of ([^\n(]+)/
      .exec(typo.stderr)?.[1]
      ?.split(', ')
      .map((s) => s.trim());
    expect(listed).toContain('ML-DSA-65');
    expect(listed?.some((a) => a.startsWith('SLH-DSA'))).toBe(false);
    // So do unknown subcommands.
    expect((await pqid('clients', 'frobnicate')).stderr).toContain(
      'unknown clients command "frobnicate"; choose add, list or remove',
    );
    expect((await pqid('keys')).stderr).toContain('keys needs list, rotate, remove, rekey or import');
    // keys rotate names its choices too.
    const rotate = await pqid('keys', 'rotate', '--alg', 'ML-DSA-66');
    expect(rotate.code).not.toBe(0);
    expect(rotate.stderr).toMatch(/ML-DSA-66 is not available here; choose one of ML-DSA-44, ML-DSA-65/);
    // A first token-signing SLH-DSA key is refused as a client choosing SLH-DSA is; the root is named.
    const slow = await pqid('keys', 'rotate', '--alg', 'SLH-DSA-SHA2-128f');
    expect(slow.code).toBe(2);
    expect(slow.stderr).toMatch(
      /SLH-DSA-SHA2-128f is refused: SLH-DSA signs at tens to hundreds of milliseconds/,
    );
    expect(slow.stderr).toContain('pqid keys rotate --set root --alg SLH-DSA-SHA2-128f');
    await idp.ctx.keys.load();
    expect(idp.ctx.keys.list().filter((k) => k.alg === 'SLH-DSA-SHA2-128f')).toEqual([]);
  });

  it('clients add --auth-alg pins the alg of a private_key_jwt client; an unknown one lists the choices', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'ML-DSA-65' }, true, [
      'sign',
      'verify',
    ])) as unknown as webcrypto.CryptoKeyPair;
    const file = join(t.dir, 'pkjwt-jwks.json');
    writeFileSync(file, JSON.stringify({ keys: [await crypto.subtle.exportKey('jwk', pair.publicKey)] }));
    const base = ['--grant', 'client_credentials', '--auth-method', 'private_key_jwt', '--jwks', file];
    const r = await addClient('--id', 'pkjwt-svc', ...base, '--auth-alg', 'ML-DSA-65');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ML-DSA-65',
    });
    const unknown = await addClient(...base, '--auth-alg', 'ML-DSA-66');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/token_endpoint_auth_signing_alg.*\bML-DSA-65\b/);
    const missing = await addClient(...base);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('private_key_jwt needs token_endpoint_auth_signing_alg');
  });

  it('clients add --acr sets the minimum class; an unknown one is refused', async () => {
    const r = await pqid(
      'clients',
      'add',
      '--id',
      'mfa-app',
      '--redirect-uri',
      'https://mfa.example/cb',
      '--acr',
      'urn:pqid:acr:mfa',
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).default_acr_values).toEqual(['urn:pqid:acr:mfa']);
    const bad = await pqid('clients', 'add', '--redirect-uri', 'https://x.example/cb', '--acr', 'gold');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('default_acr_values must be a non-empty array of');
  });

  it('ES256 and public clients: no cookie warning, no secret', async () => {
    const r = await pqid(
      'clients',
      'add',
      '--redirect-uri',
      'https://spa.example/cb',
      '--public',
      '--alg',
      'ES256',
      '--yes',
    );
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout);
    expect(c).toMatchObject({ token_endpoint_auth_method: 'none', require_pkce: true });
    expect(c).not.toHaveProperty('client_secret');
    // No cookie warning; the only warning is the missing name, which defaults to the client_id.
    expect(c.client_name).toBe(c.client_id);
    expect(r.stderr.match(/warning.*/g)).toEqual([
      'warning: no --name: the login and consent pages name this application by its client_id',
    ]);
    const named = await pqid(
      'clients',
      'add',
      '--redirect-uri',
      'https://spa.example/cb',
      '--public',
      '--alg',
      'ES256',
      '--name',
      'Spa',
    );
    expect(named.code).toBe(0);
    expect(JSON.parse(named.stdout).client_name).toBe('Spa');
    expect(named.stderr).not.toMatch(/warning/);
  });

  it('rejects bad input with usage errors (exit 2)', async () => {
    expect((await pqid('clients', 'add')).code).toBe(2);
    expect((await pqid('clients', 'add', '--redirect-uri', 'x', '--alg', 'HS256')).code).toBe(2);
    expect(
      (await pqid('clients', 'add', '--redirect-uri', 'https://a/cb', '--access-token-format', 'big')).code,
    ).toBe(2);
    expect(
      (await pqid('clients', 'add', '--redirect-uri', 'https://a/cb', '--access-token-storage', 'none')).code,
    ).toBe(2);
    expect((await pqid('clients', 'frobnicate')).code).toBe(2);
    expect((await pqid('keys', 'list', '--nope')).code).toBe(2);
  });

  it('clients list and remove', async () => {
    const list = await pqid('clients', 'list', '--json');
    const ids = JSON.parse(list.stdout).map((c: { client_id: string }) => c.client_id);
    expect(ids).toContain('web');
    expect(list.stdout).not.toMatch(/"client_secret(_hash)?"/);
    expect((await pqid('clients', 'list')).stdout).toMatch(
      /web\s+Web app\s+client_secret_basic\s+ML-DSA-87\s+jwt/,
    );
    const removed = await pqid('clients', 'remove', 'web');
    expect(removed.code).toBe(0);
    // It says what ended with the client (client-removal.test.ts proves each).
    expect(removed.stdout).toMatch(/^removed client web: on every instance its access tokens are inactive/);
    // Gone from the store; a running instance's cache sees it within clientCacheTtl (client-cache.test.ts).
    expect(await idp.ctx.storage.adapter('Client').find('web')).toBeUndefined();
    const gone = await pqid('clients', 'remove', 'web');
    expect(gone).toMatchObject({ code: 1 });
    expect(gone.stderr).toMatch(/ERR_NO_SUCH_CLIENT/);
  });

  it('keys rotate stages a next key, refuses a second one, --now activates it; the server follows', async () => {
    const before = await idp.ctx.keys.signingKey('ML-DSA-65');
    const staged = await pqid('keys', 'rotate', '--alg', 'ML-DSA-65', '--json');
    expect(staged.code).toBe(0);
    const [next] = JSON.parse(staged.stdout);
    expect(next).toMatchObject({ alg: 'ML-DSA-65', status: 'next' });
    const pending = await pqid('keys', 'rotate', '--alg', 'ML-DSA-65');
    expect(pending.code).toBe(1);
    expect(pending.stderr).toMatch(/ERR_ROTATION_PENDING/);

    await idp.ctx.keys.load(); // what the server's refresh timer does
    expect(idp.ctx.keys.jwks().keys.map((k) => k.kid)).toContain(next.kid);
    expect((await idp.ctx.keys.signingKey('ML-DSA-65')).kid).toBe(before.kid);

    expect((await pqid('keys', 'rotate', '--alg', 'ML-DSA-65', '--now')).code).toBe(0);
    await idp.ctx.keys.load();
    expect((await idp.ctx.keys.signingKey('ML-DSA-65')).kid).toBe(next.kid);
    const listed = JSON.parse((await pqid('keys', 'list', '--json')).stdout);
    expect(listed.find((k: { kid: string }) => k.kid === before.kid)).toMatchObject({ status: 'retired' });
    // Listing needs no KEK; rotating does.
    delete process.env.PQID_KEK;
    expect((await pqid('keys', 'list')).code).toBe(0);
    process.env.PQID_KEK = KEK;
  });

  it('keys list shows each key’s set; rotate --alg never touches the root, --set root does', async () => {
    const listed = JSON.parse((await pqid('keys', 'list', '--json')).stdout) as Array<{
      set: string;
      kid: string;
      alg: string;
      status: string;
    }>;
    expect(new Set(listed.map((k) => k.set))).toEqual(new Set(['oidc', 'saml', 'root', 'enc']));
    expect((await pqid('keys', 'list')).stdout).toMatch(/^set\s+kid\s+alg\s+status/m);
    const root = () => idp.ctx.keys.list('root').find((k) => k.status === 'active');
    await idp.ctx.keys.load();
    const rootBefore = root()?.kid;
    expect(rootBefore).toBeTruthy();
    const rootAlg = root()?.alg as string;
    const byAlg = await pqid('keys', 'rotate', '--alg', rootAlg, '--now', '--json');
    expect(byAlg.code).toBe(0);
    expect(JSON.parse(byAlg.stdout).map((k: { set: string }) => k.set)).not.toContain('root');
    expect((await pqid('keys', 'rotate', '--now')).code).toBe(0);
    await idp.ctx.keys.load();
    expect(root()?.kid).toBe(rootBefore);
    const rotated = await pqid('keys', 'rotate', '--set', 'root', '--now', '--json');
    expect(JSON.parse(rotated.stdout)).toMatchObject([{ set: 'root', alg: rootAlg, status: 'active' }]);
    await idp.ctx.keys.load();
    expect(root()?.kid).not.toBe(rootBefore);
    const only = JSON.parse((await pqid('keys', 'list', '--set', 'saml', '--json')).stdout) as Array<{
      set: string;
    }>;
    expect(only.length).toBeGreaterThan(0);
    expect(only.every((k) => k.set === 'saml')).toBe(true);
    const bad = await pqid('keys', 'rotate', '--set', 'everything');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--set must be one of oidc, saml, root, enc/);
    // The encryption keys: rotated by --set enc (and by --alg naming one of their algorithms).
    const enc = JSON.parse((await pqid('keys', 'rotate', '--set', 'enc', '--json')).stdout);
    expect(
      enc.map((k: { set: string; alg: string; status: string }) => [k.set, k.alg, k.status]).sort(),
    ).toEqual([
      ['enc', 'ECDH-ES+A256KW', 'next'],
      ['enc', 'HPKE-9', 'next'],
    ]);
    const byEncAlg = await pqid('keys', 'rotate', '--alg', 'HPKE-9', '--now', '--json');
    expect(byEncAlg.code, byEncAlg.stderr).toBe(0);
    expect(JSON.parse(byEncAlg.stdout)).toMatchObject([{ set: 'enc', alg: 'HPKE-9', status: 'active' }]);
  });

  it('keys remove: refuses the active key, removes a retired one and explains; every operation leaves an audit line', async () => {
    await idp.ctx.keys.load();
    const active = (await idp.ctx.keys.signingKey('ES256')).kid;
    // A kid is base64url and may start with '-': after '--' it is never taken for an option.
    const dashed = await pqid('keys', 'remove', '-abc');
    expect(dashed.code).toBe(2);
    expect(dashed.stderr).toMatch(
      /Unknown option '-a'\. An argument that starts with '-' .* goes after '--'/,
    );
    expect((await pqid('keys', 'remove', '--', '-abc')).stderr).toMatch(/ERR_KEY_UNKNOWN: no key -abc/);
    const refused = await pqid('keys', 'remove', '--', active);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/ERR_KEY_ACTIVE.*rotate first/);
    expect(refused.stderr).toMatch(/"audit":"keys".*"op":"key\.refused"/);
    expect((await pqid('keys', 'rotate', '--alg', 'ES256', '--now')).code).toBe(0);
    const r = await pqid('keys', 'remove', '--', active);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/retired/);
    expect(r.stdout).toMatch(/nothing it signed verifies/);
    const line = JSON.parse(r.stderr.trim().split('\n').at(-1) as string);
    expect(line).toMatchObject({ audit: 'keys', op: 'key.remove', kid: active, alg: 'ES256', actor: 'cli' });
    await idp.ctx.keys.load();
    expect(idp.ctx.keys.jwks().keys.map((k) => k.kid)).not.toContain(active);
    expect((await pqid('keys', 'remove', 'no-such-kid')).stderr).toMatch(/ERR_KEY_UNKNOWN/);
    expect((await pqid('keys', 'remove')).code).toBe(2);
    for (const out of [refused, r]) expect(out.stderr + out.stdout).not.toContain(KEK);
  });

  it('keys rekey: with the old KEK as previous, re-seals everything under the new one; the server keeps working', async () => {
    const newKek = randomBytes(32).toString('base64');
    process.env.PQID_KEK = newKek;
    process.env.PQID_KEK_PREVIOUS = KEK;
    try {
      const r = await pqid('keys', 'rekey', '--json');
      expect(r.code).toBe(0);
      const result = JSON.parse(r.stdout);
      expect(result.resealed).toBeGreaterThan(0);
      expect(result.to).toBe(kekId(Buffer.from(newKek, 'base64')));
      expect(r.stderr).toMatch(/"op":"keys\.rekey"/);
      for (const secret of [newKek, KEK]) expect(r.stderr + r.stdout).not.toContain(secret);
      delete process.env.PQID_KEK_PREVIOUS;
      const listed = JSON.parse((await pqid('keys', 'list', '--json')).stdout) as Array<{ custody: string }>;
      expect(new Set(listed.map((k) => k.custody))).toEqual(new Set([`sealed:${result.to}`]));
      // The new KEK alone is enough now (a rotation opens the store with it).
      expect((await pqid('keys', 'rotate', '--alg', 'ES256', '--now')).code).toBe(0);
      // The running server, started with the old KEK, still signs with what it opened.
      await expect(idp.ctx.keys.signingKey('ML-DSA-65')).resolves.toBeTruthy();
      // The old KEK alone is refused with a clear code.
      process.env.PQID_KEK = KEK;
      const old = await pqid('keys', 'rotate', '--alg', 'ES256', '--now');
      expect(old.code).toBe(1);
      expect(old.stderr).toMatch(/ERR_KEK_MISMATCH/);
    } finally {
      process.env.PQID_KEK = KEK;
      delete process.env.PQID_KEK_PREVIOUS;
    }
  });
});

describe('pqid keys import: a key that lives in a KMS', () => {
  const t = tempDir();
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
    t.cleanup();
  });

  it('registers it as the next key of its set; the store keeps only the reference', async () => {
    const kmsFile = join(t.dir, 'kms.json');
    const configFile = join(t.dir, 'config.json');
    const kms = {
      type: 'module',
      module: join(import.meta.dirname, 'fixtures', 'test-kms.ts'),
      options: { file: kmsFile },
    };
    writeFileSync(configFile, JSON.stringify({ keys: { signers: { kms } }, demo: { enabled: false } }));
    process.env.PQID_DATA_DIR = t.dir;
    process.env.PQID_KEK = KEK;
    process.env.PQID_CONFIG = configFile;
    delete process.env.PQID_DATABASE_URL;
    const provider = createKeyProvider({ file: kmsFile });
    const ref = await provider.generate?.('ML-DSA-65');
    const first = await pqid(
      'keys',
      'import',
      '--signer',
      'kms',
      '--ref',
      ref as string,
      '--alg',
      'ML-DSA-65',
      '--json',
    );
    expect(first.code).toBe(0);
    // No key of the algorithm yet: it signs at once. A second import is staged.
    expect(JSON.parse(first.stdout)).toMatchObject([
      { set: 'oidc', alg: 'ML-DSA-65', status: 'active', custody: 'external:kms' },
    ]);
    const ref2 = await provider.generate?.('ML-DSA-65');
    const second = await pqid('keys', 'import', '--ref', `kms:${ref2}`, '--alg', 'ML-DSA-65', '--json');
    expect(JSON.parse(second.stdout)).toMatchObject([{ status: 'next', custody: 'external:kms' }]);
    expect(second.stderr).toMatch(/"op":"key\.import"/);
    // Composite halves as two KMS keys.
    const [m, e] = [await provider.generate?.('ML-DSA-44'), await provider.generate?.('Ed25519')];
    const comp = await pqid(
      'keys',
      'import',
      '--signer',
      'kms',
      '--ref',
      `mldsa=${m}`,
      '--ref',
      `traditional=${e}`,
      '--alg',
      'ML-DSA-44-Ed25519',
      '--json',
    );
    expect(comp.code).toBe(0);
    // A reference the KMS does not know, or a malformed one, is refused.
    expect(
      (await pqid('keys', 'import', '--signer', 'kms', '--ref', 'nope', '--alg', 'ML-DSA-65')).code,
    ).toBe(1);
    expect(
      (await pqid('keys', 'import', '--signer', 'kms', '--ref', 'mldsa=x', '--alg', 'ML-DSA-44-Ed25519'))
        .code,
    ).toBe(2);
    // The database and its write-ahead log: nothing of the KMS's keys in either.
    const store = ['pqid.sqlite', 'pqid.sqlite-wal']
      .map((f) => (existsSync(join(t.dir, f)) ? readFileSync(join(t.dir, f)).toString('latin1') : ''))
      .join('');
    expect(store).toContain('external');
    const kmsKeys = JSON.parse(readFileSync(kmsFile, 'utf8')) as Record<
      string,
      { priv?: string; d?: string }
    >;
    for (const k of Object.values(kmsKeys))
      for (const secret of [k.priv, k.d]) if (secret) expect(store).not.toContain(secret);
  });
});
