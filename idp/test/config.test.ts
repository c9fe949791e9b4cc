import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SAML_LIMITS } from '@pqid/xmldsig';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, readEnvironment } from '../src/config/index.ts';
import { tempDir } from './helpers.ts';

describe('config', () => {
  const dirs: Array<() => void> = [];
  afterEach(() => {
    for (const c of dirs.splice(0)) c();
  });

  it('has embedded defaults: port 3000, ./data, sqlite, ML-DSA-65', () => {
    const c = loadConfig({ env: {}, cwd: '/srv/x' });
    expect(c.port).toBe(3000);
    expect(c.issuer).toBe('http://localhost:3000');
    expect(c.dataDir).toBe('/srv/x/data');
    expect(c.databaseUrl).toBe('sqlite:/srv/x/data/pqid.sqlite');
    expect(c.defaultSigningAlg).toBe('ML-DSA-65');
    expect(c.ttl.authorizationCode).toBe(60);
  });

  it('reads PQID_PORT, PQID_ISSUER, PQID_DATA_DIR, PQID_DATABASE_URL', () => {
    const c = loadConfig({
      env: {
        PQID_PORT: '4000',
        PQID_ISSUER: 'https://id.example.com/',
        PQID_DATA_DIR: 'd',
        PQID_DATABASE_URL: 'sqlite::memory:',
      },
      cwd: '/srv',
    });
    expect(c).toMatchObject({
      port: 4000,
      issuer: 'https://id.example.com',
      dataDir: '/srv/d',
      databaseUrl: 'sqlite::memory:',
    });
  });

  it('takes port 0 (any free port) with an explicit issuer', () => {
    const c = loadConfig({ env: { PQID_PORT: '0', PQID_ISSUER: 'https://id.example.com' }, cwd: '/srv' });
    expect(c).toMatchObject({ port: 0, issuer: 'https://id.example.com' });
  });

  it('reads a JSON file, with the environment taking precedence', () => {
    const { dir, cleanup } = tempDir();
    dirs.push(cleanup);
    const file = join(dir, 'pqid.json');
    writeFileSync(
      file,
      JSON.stringify({ port: 5000, issuer: 'https://a.example', ttl: { accessToken: 600 } }),
    );
    const c = loadConfig({ env: { PQID_CONFIG: file, PQID_ISSUER: 'https://b.example' }, cwd: dir });
    expect(c.port).toBe(5000);
    expect(c.issuer).toBe('https://b.example');
    expect(c.ttl.accessToken).toBe(600);
  });

  it.each([
    [{ PQID_PORT: 'abc' }, /PQID_PORT must be a port number/],
    [{ PQID_PORT: '70000' }, /PQID_PORT must be a port number/],
    [{ PQID_ISSUER: 'not a url' }, /PQID_ISSUER is not a valid URL/],
    [{ PQID_ISSUER: 'http://id.example.com' }, /must use https/],
    [{ PQID_ISSUER: 'https://id.example.com/?x=1' }, /query or fragment/],
    [{ PQID_DATABASE_URL: 'postgres://u@h/' }, /needs a database name/],
    [
      { PQID_DATABASE_URL: 'postgres://u@h/db?schema=Bad-Name' },
      /schema must be a lower-case SQL identifier/,
    ],
    [{ PQID_DATABASE_URL: 'postgres://u@h/db?pool_max=0' }, /pool_max must be a positive integer/],
    [{ PQID_DATABASE_URL: 'mysql://x' }, /must be sqlite:/],
    [{ PQID_DATABASE_URL: 'sqlite:/x.db?synchronous=off' }, /synchronous must be normal or full/],
    [{ PQID_DATABASE_URL: 'sqlite:/x.db?journal=delete' }, /unknown sqlite option "journal"/],
    [{ PQID_DATABASE_URL: 'sqlite:?synchronous=full' }, /needs a file path/],
    [{ PQID_PORT: '0' }, /port 0 \(any free port\) needs an explicit issuer/],
  ])('rejects %j with a clear message', (env, message) => {
    expect(() => loadConfig({ env, cwd: '/srv' })).toThrow(ConfigError);
    expect(() => loadConfig({ env, cwd: '/srv' })).toThrow(message);
  });

  it('rejects unknown settings and unreadable files', () => {
    const { dir, cleanup } = tempDir();
    dirs.push(cleanup);
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ prot: 1 }));
    expect(() => loadConfig({ env: {}, file, cwd: dir })).toThrow(/unknown setting "prot"/);
    writeFileSync(file, '{nope');
    expect(() => loadConfig({ env: {}, file, cwd: dir })).toThrow(/not valid JSON/);
    expect(() => loadConfig({ env: {}, file: join(dir, 'missing.json'), cwd: dir })).toThrow(
      /cannot read config file/,
    );
  });
  it('trustProxy: addresses and CIDR ranges (no host names), from the file or PQID_TRUST_PROXY', () => {
    const trustProxy = ['10.0.0.5', '10.1.0.0/16', 'fd00:5::/64', '::1'];
    expect(loadConfig({ env: {}, overrides: { trustProxy } }).trustProxy).toEqual(trustProxy);
    expect(loadConfig({ env: { PQID_TRUST_PROXY: '10.0.0.5, fd00:5::/64' } }).trustProxy).toEqual([
      '10.0.0.5',
      'fd00:5::/64',
    ]);
    for (const bad of [['proxy.internal'], ['10.0.0.0/33'], ['0x7f.1'], [''], '10.0.0.5', [3]])
      expect(() => loadConfig({ env: {}, overrides: { trustProxy: bad as never } }), String(bad)).toThrow(
        /trustProxy must be an array of IP addresses or CIDR ranges/,
      );
  });

  it('outbound.allow: host names, addresses and CIDR ranges, from the file or PQID_OUTBOUND_ALLOW', () => {
    expect(loadConfig({ env: {} }).outbound.allow).toEqual([]);
    const allow = ['keys.internal.example', '10.20.0.0/16', 'fd00:1::/64', '127.0.0.1'];
    expect(loadConfig({ env: {}, overrides: { outbound: { allow } } }).outbound.allow).toEqual(allow);
    expect(
      loadConfig({ env: { PQID_OUTBOUND_ALLOW: 'keys.internal.example, 10.20.0.0/16 fd00:1::/64' } }).outbound
        .allow,
    ).toEqual(['keys.internal.example', '10.20.0.0/16', 'fd00:1::/64']);
    for (const bad of [['10.0.0.0/33'], ['*.example.com'], [''], 'x', [3]])
      expect(() => loadConfig({ env: {}, overrides: { outbound: { allow: bad as never } } })).toThrow(
        ConfigError,
      );
    expect(() => loadConfig({ env: {}, overrides: { outbound: { deny: [] } as never } })).toThrow(
      /outbound: unknown setting "deny"/,
    );
  });

  it('requestObjects.requireJti: off by default, a boolean', () => {
    expect(loadConfig({ env: {} }).requestObjects.requireJti).toBe(false);
    expect(
      loadConfig({ env: {}, overrides: { requestObjects: { requireJti: true } } }).requestObjects,
    ).toEqual({
      requireJti: true,
    });
    expect(() =>
      loadConfig({ env: {}, overrides: { requestObjects: { requireJti: 'yes' as never } } }),
    ).toThrow(/requestObjects.requireJti must be true or false/);
  });

  it('saml.requestLimits: partial limits over the defaults; unknown or non-positive ones are refused', () => {
    const c = loadConfig({ env: {}, overrides: { saml: { requestLimits: { maxChildren: 64 } as never } } });
    expect(c.saml.requestLimits).toEqual({ ...DEFAULT_SAML_LIMITS, maxChildren: 64 });
    expect(() =>
      loadConfig({ env: {}, overrides: { saml: { requestLimits: { maxNodes: 5 } as never } } }),
    ).toThrow(/unknown limit "maxNodes"/);
    expect(() =>
      loadConfig({ env: {}, overrides: { saml: { requestLimits: { maxDepth: 0 } as never } } }),
    ).toThrow(/maxDepth must be a positive integer/);
  });
  it('keeps every default of the table', () => {
    expect(loadConfig({ env: {}, cwd: '/srv' })).toEqual({
      port: 3000,
      host: '127.0.0.1',
      trustProxy: [],
      issuer: 'http://localhost:3000',
      dataDir: '/srv/data',
      databaseUrl: 'sqlite:/srv/data/pqid.sqlite',
      defaultSigningAlg: 'ML-DSA-65',
      ttl: {
        authorizationCode: 60,
        accessToken: 3600,
        idToken: 3600,
        refreshToken: 14 * 86400,
        session: 86400,
        interaction: 600,
      },
      bodyLimit: 64 * 1024,
      logLevel: 'info',
      accessTokenHeaderBudget: 8190,
      accessTokenStorage: 'stored',
      purgeInterval: 600,
      clientCacheTtl: 2,
      demo: {
        enabled: true,
        username: 'demo',
        password: 'demo',
        clientId: 'demo-client',
        clientSecret: 'demo-secret',
        redirectUri: 'http://localhost:3001/callback',
        idTokenSignedResponseAlg: 'ML-DSA-65',
      },
      keys: {
        placement: { idToken: 'client', accessToken: 'client', userinfo: 'client', cold: 'auto' },
        prepublish: 3600,
        coldLifetime: 7 * 86400,
        refreshInterval: 60,
        publishRoot: false,
        signedJwks: false,
        allowSlhDsaHotPath: false,
        signers: {},
        custody: {},
        encryptionAlgs: ['HPKE-9', 'ECDH-ES+A256KW'],
      },
      loginLimits: { window: 900, maxFailuresPerAccount: 5, maxFailuresPerAddress: 50 },
      saml: {
        enabled: true,
        metadataAlgs: ['ML-DSA-65', 'RS256'],
        defaultAlg: 'ML-DSA-65',
        assertionLifetime: 300,
        requestMaxAge: 600,
        maxRequestBytes: 64 * 1024,
        requestLimits: { ...DEFAULT_SAML_LIMITS },
        leafCertificateDays: 730,
        rootCertificateDays: 3650,
        metadataValidity: 7 * 86400,
      },
      passkeys: {
        enabled: true,
        rpName: 'pqid',
        challengeTtl: 300,
        algorithms: ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'EdDSA', 'ES256', 'RS256'],
        manageMaxAge: 600,
      },
      maxHeaderBytes: 32 * 1024,
      dpop: { maxProofBytes: 16 * 1024, iatWindow: 300, requireNonce: false, nonceLifetime: 300 },
      par: { required: false, requestUriLifetime: 60 },
      registration: { mode: 'off', maxPerAddress: 20, window: 3600 },
      resourceServers: {},
      backchannelLogout: { concurrency: 8, attempts: 3, timeout: 5, retryDelay: 1, sweepInterval: 30 },
      outbound: { allow: [] },
      requestObjects: { requireJti: false },
    });
  });

  it('reads every setting that has an environment variable', () => {
    const c = loadConfig({
      env: {
        PQID_HOST: '0.0.0.0',
        PQID_DEFAULT_SIGNING_ALG: 'ML-DSA-44',
        PQID_LOG_LEVEL: 'warn',
        PQID_PURGE_INTERVAL: '0',
        PQID_CLIENT_CACHE_TTL: '0',
        PQID_METRICS_TOKEN: 'm'.repeat(16),
        PQID_ACCESS_TOKEN_SIGNING_ALG: 'ML-DSA-87',
        PQID_DEMO: 'off',
        PQID_REGISTRATION: 'token',
        PQID_REGISTRATION_TOKEN: 't'.repeat(16),
      },
      cwd: '/srv',
    });
    expect(c).toMatchObject({
      host: '0.0.0.0',
      defaultSigningAlg: 'ML-DSA-44',
      logLevel: 'warn',
      purgeInterval: 0,
      clientCacheTtl: 0,
      metricsToken: 'm'.repeat(16),
      accessTokenSigningAlg: 'ML-DSA-87',
      demo: { enabled: false },
      registration: { mode: 'token', initialAccessToken: 't'.repeat(16) },
    });
    // The shorthand fills keys.placement.accessToken, unless the placement names one itself.
    expect(c.keys.placement.accessToken).toBe('ML-DSA-87');
    const pinned = loadConfig({
      env: { PQID_ACCESS_TOKEN_SIGNING_ALG: 'ML-DSA-87' },
      cwd: '/srv',
      overrides: { keys: { placement: { accessToken: 'ML-DSA-44' } } },
    });
    expect(pinned.keys.placement.accessToken).toBe('ML-DSA-44');
    for (const v of ['1', 'true', 'yes', 'on'])
      expect(loadConfig({ env: { PQID_DEMO: v } }).demo.enabled).toBe(true);
  });

  it('checks a value in every layer it is given in, naming where it came from', () => {
    expect(() => loadConfig({ env: { PQID_CLIENT_CACHE_TTL: '61' }, cwd: '/srv' })).toThrow(
      /PQID_CLIENT_CACHE_TTL must be at most 60 seconds/,
    );
    expect(() => loadConfig({ env: {}, cwd: '/srv', overrides: { ttl: { nope: 1 } as never } })).toThrow(
      /unknown ttl "nope"/,
    );
    expect(() =>
      loadConfig({ env: {}, cwd: '/srv', overrides: { keys: { placement: { body: 'x' } as never } } }),
    ).toThrow(/keys.placement: unknown object "body"/);
    expect(() => loadConfig({ env: { PQID_REGISTRATION: 'token' }, cwd: '/srv' })).toThrow(
      /needs registration.initialAccessToken/,
    );
  });
});

describe('readEnvironment: the shutdown timings of npm start', () => {
  it('defaults to a 5 s shutdown delay and a 10 s drain', () => {
    expect(readEnvironment({})).toMatchObject({ shutdownDelayMs: 5000, drainTimeoutMs: 10_000 });
    expect(readEnvironment({ PQID_SHUTDOWN_DELAY_MS: ' ', PQID_DRAIN_TIMEOUT_MS: '' })).toMatchObject({
      shutdownDelayMs: 5000,
      drainTimeoutMs: 10_000,
    });
  });

  it('reads PQID_SHUTDOWN_DELAY_MS, where 0 closes the listener at once', () => {
    expect(readEnvironment({ PQID_SHUTDOWN_DELAY_MS: '0' }).shutdownDelayMs).toBe(0);
    expect(readEnvironment({ PQID_SHUTDOWN_DELAY_MS: ' 2500 ' }).shutdownDelayMs).toBe(2500);
    expect(readEnvironment({ PQID_DRAIN_TIMEOUT_MS: '3000' }).drainTimeoutMs).toBe(3000);
    // a drain of 0 would cut every connection at once: it means the default
    expect(readEnvironment({ PQID_DRAIN_TIMEOUT_MS: '0' }).drainTimeoutMs).toBe(10_000);
  });

  it('refuses anything but a whole number of milliseconds a timer can hold', () => {
    for (const name of ['PQID_SHUTDOWN_DELAY_MS', 'PQID_DRAIN_TIMEOUT_MS'])
      for (const v of ['5s', '-1', '1.5', '1e3', 'five', '2147483648'])
        expect(() => readEnvironment({ [name]: v }), `${name}=${v}`).toThrow(
          new ConfigError(
            `${name} must be a whole number of milliseconds up to 2147483647, got ${JSON.stringify(v)}`,
          ),
        );
    expect(readEnvironment({ PQID_SHUTDOWN_DELAY_MS: '2147483647' }).shutdownDelayMs).toBe(2 ** 31 - 1);
  });
});
