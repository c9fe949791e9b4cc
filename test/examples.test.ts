/**
 * The examples as a person starts them: each `server.js` as its own process, before the IdP is
 * up. Each must wait for the IdP with one line per attempt and then serve; give up after its wait
 * with one readable line, no stack trace; fail at once, in one line, on what waiting cannot cure.
 * `call.js` then gets a DPoP-bound token and calls the resource server as its README says, with
 * the IdP configured from the README's own `resourceServers` block. And every environment
 * variable an example's code reads is in its README's table, and the table names no other.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Idp, registerClient } from '../idp/src/app.ts';
import { documentedVariables, envReads, localModules } from './helpers/env-reads.ts';
import { FetchBrowser, signIn } from './helpers/fetch-browser.ts';
import { createLocalIdp } from './helpers/idp.ts';
import { freePort } from './helpers/net.ts';
import { cleanEnv, repo } from './helpers/npm.ts';

const EXAMPLES = ['oidc-rp', 'resource-server', 'saml-sp'] as const;

describe('every environment variable an example reads is in its README', () => {
  for (const name of EXAMPLES)
    it(`examples/${name}`, () => {
      const dir = join(repo, 'examples', name);
      const files = new Set(
        readdirSync(dir)
          .filter((f) => f.endsWith('.js'))
          .flatMap((f) => localModules(join(dir, f))),
      );
      const read = new Set([...files].flatMap((f) => [...envReads(readFileSync(f, 'utf8'), f)]));
      expect(read.size).toBeGreaterThan(0);
      const documented = documentedVariables(readFileSync(join(dir, 'README.md'), 'utf8'));
      expect([...documented].sort(), `examples/${name}/README.md`).toEqual([...read].sort());
    });

  it('the check names every kind of read, and refuses one it cannot name', () => {
    const code = `// process.env.IN_A_COMMENT
      const env = process.env;
      const a = process.env.A ?? env.B;
      const c = process.env['C'] ?? env["D"];
      /* env.E */`;
    expect([...envReads(code)].sort()).toEqual(['A', 'B', 'C', 'D']);
    expect(() => envReads('const k = "X"; process.env[k];')).toThrow(/cannot name/);
    expect(() => envReads('const { X } = process.env;')).toThrow(/cannot name/);
    expect(() => envReads('const env = process.env; use(env);')).toThrow(/cannot name/);
    expect([
      ...documentedVariables('| variable | default |\n| --- | --- |\n| `A` | `B` |\n\n| x |\n| `C` |'),
    ]).toEqual(['A']);
  });
});

/** A running example: its output lines as they come, and a way to wait for one. */
class Proc {
  readonly lines: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private waiters: Array<() => void> = [];

  constructor(script: string, env: Record<string, string>) {
    this.child = spawn(process.execPath, [join(repo, script)], {
      cwd: repo,
      env: { ...cleanEnv(process.env.PATH ?? ''), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      let rest = '';
      stream?.setEncoding('utf8').on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop() ?? '';
        this.lines.push(...parts);
        for (const w of this.waiters) w();
      });
    }
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
    this.exited.then(() => this.waiters.forEach((w) => void w()));
  }

  /** The first line matching `re`, waiting up to `ms` for it. */
  async line(re: RegExp, ms = 15_000): Promise<string> {
    const deadline = Date.now() + ms;
    for (;;) {
      const hit = this.lines.find((l) => re.test(l));
      if (hit) return hit;
      if (this.child.exitCode !== null || Date.now() > deadline)
        throw new Error(`no line matching ${re} (exit ${this.child.exitCode}):\n${this.lines.join('\n')}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 250);
      });
      this.waiters = [];
    }
  }

  stop(): void {
    if (this.child.exitCode === null) this.child.kill();
  }
}

/** The resourceServers entry the resource server's README tells the reader to configure. */
function readmeResourceServer(): Record<string, unknown> {
  const readme = readFileSync(join(repo, 'examples/resource-server/README.md'), 'utf8');
  const json = /```json\n([\s\S]*?)```/.exec(readme)?.[1];
  const entries = Object.values(JSON.parse(json ?? '{}').resourceServers ?? {});
  expect(entries).toHaveLength(1);
  return entries[0] as Record<string, unknown>;
}

const noStackTrace = (lines: string[]) => {
  expect(lines.filter((l) => /^\s+at |TypeError|Error:/.test(l))).toEqual([]);
};

describe('the examples, started before the IdP', () => {
  const procs: Proc[] = [];
  const run = (script: string, env: Record<string, string>) => {
    const p = new Proc(script, env);
    procs.push(p);
    return p;
  };
  let dir: string;
  let idp: Idp | undefined;
  let idpPort: number;
  let issuer: string;
  const ports = { rp: 0, rs: 0, sp: 0 };
  let clientSecret = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pqid-examples-'));
    idpPort = await freePort();
    issuer = `http://localhost:${idpPort}`;
    for (const k of Object.keys(ports) as (keyof typeof ports)[]) ports[k] = await freePort();
  });
  afterAll(async () => {
    for (const p of procs) p.stop();
    await Promise.all(procs.map((p) => p.exited));
    await idp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('wait for it with one line per attempt, then serve; call.js gets a DPoP-bound token and calls the API', async () => {
    const rp = run('examples/oidc-rp/server.js', { RP_ISSUER: issuer, RP_PORT: String(ports.rp) });
    const rs = run('examples/resource-server/server.js', { RS_ISSUER: issuer, RS_PORT: String(ports.rs) });
    const sp = run('examples/saml-sp/server.js', { IDP_URL: issuer, SP_PORT: String(ports.sp) });
    const waiting = (label: string) =>
      new RegExp(
        `^${label}: waiting for the IdP at ${issuer} \\(connection refused\\) — start it with \`npm start\`.*; \\d+ s left$`,
      );
    await rp.line(waiting('example RP'));
    await rs.line(waiting('example resource server'));
    await sp.line(waiting('example SAML SP'));

    ({ idp } = await createLocalIdp(dir, idpPort, {
      resourceServers: { [`http://localhost:${ports.rs}/`]: readmeResourceServer() },
    }));
    await idp.app.listen({ port: idpPort, host: '127.0.0.1' });

    await rp.line(new RegExp(`^example RP on http://localhost:${ports.rp} `));
    await rs.line(new RegExp(`^example resource server on http://localhost:${ports.rs} `));
    await sp.line(new RegExp(`^example SAML SP \\(ML-DSA-65\\) on http://localhost:${ports.sp}$`));
    for (const p of [rp, rs, sp]) noStackTrace(p.lines);
    expect(await (await fetch(`http://127.0.0.1:${ports.rp}/`)).text()).toContain('Not signed in');
    expect(await (await fetch(`http://127.0.0.1:${ports.sp}/`)).text()).toContain('id="signed-out"');
    const prm = await fetch(`http://127.0.0.1:${ports.rs}/.well-known/oauth-protected-resource`);
    expect(await prm.json()).toMatchObject({ authorization_servers: [issuer] });

    // The README's steps: a client_credentials client, then `npm run call` with its secret.
    ({ clientSecret } = (await registerClient(idp.ctx, {
      client_id: 'orders-client',
      redirect_uris: [],
      grant_types: ['client_credentials'],
      scope: 'orders:read',
    })) as { clientSecret: string });
    const call = run('examples/resource-server/call.js', {
      RS_ISSUER: issuer,
      RS_URL: `http://localhost:${ports.rs}`,
      CALL_CLIENT_SECRET: clientSecret,
    });
    expect(await call.exited, call.lines.join('\n')).toBe(0);
    const out = call.lines.join('\n');
    expect(out).toContain(`access token: ${readmeResourceServer().accessTokenSigningAlg}, `);
    expect(out).toMatch(/^DPoP proof: ML-DSA-65, \d+ bytes$/m);
    expect(out).toContain(`GET http://localhost:${ports.rs}/api/orders -> 200`);
    expect(out).toContain('"dpop": true');
  }, 60_000);

  it('the RP signs a user in with an encrypted ML-DSA ID token, and prints no WebCrypto ExperimentalWarning', async () => {
    if (!idp) return expect.unreachable('the IdP did not start');
    const port = await freePort();
    const url = `http://localhost:${port}`;
    const { clientSecret: secret } = (await registerClient(idp.ctx, {
      client_id: 'enc-rp',
      redirect_uris: [`${url}/callback`],
      id_token_signed_response_alg: 'ML-DSA-65',
      jwks_uri: `${url}/jwks`,
      id_token_encrypted_response_alg: 'HPKE-9',
    })) as { clientSecret: string };
    await idp.ctx.accounts.create({ username: 'reader', password: 'a reader password' });
    // The README's encrypted-ID-token steps: ML-KEM, SHA-3 and cSHAKE at start, ML-DSA at login.
    const rp = run('examples/oidc-rp/server.js', {
      RP_ISSUER: issuer,
      RP_PORT: String(port),
      RP_CLIENT_ID: 'enc-rp',
      RP_CLIENT_SECRET: secret,
      RP_ID_TOKEN_ENCRYPTION: 'HPKE-9',
      RP_ENCRYPTION_KEY_FILE: join(dir, 'rp-hpke.jwk.json'),
    });
    await rp.line(new RegExp(`^example RP on ${url} `));
    const browser = new FetchBrowser();
    const login = await browser.get(`${url}/login`);
    const callback = await signIn(browser, issuer, login.headers.get('location') as string, {
      username: 'reader',
      password: 'a reader password',
    });
    expect((await browser.get(callback.href)).status).toBe(303);
    const page = await (await browser.get(`${url}/`)).text();
    expect(page).toContain('Signed in as reader');
    expect(page).toMatch(/HPKE-9 \(\d+ bytes as received/);
    expect(rp.lines.filter((l) => /Warning/.test(l))).toEqual([]);
  }, 30_000);

  it('the RP binds the code and its access token to a DPoP key per login (RP_DPOP_ALG)', async () => {
    if (!idp) return expect.unreachable('the IdP did not start');
    const port = await freePort();
    const url = `http://localhost:${port}`;
    const { clientSecret: secret } = (await registerClient(idp.ctx, {
      client_id: 'dpop-rp',
      redirect_uris: [`${url}/callback`],
      id_token_signed_response_alg: 'ML-DSA-65',
      // Refuses every token request without a proof: the RP cannot log in unless it sends them.
      dpop_bound_access_tokens: true,
    })) as { clientSecret: string };
    await idp.ctx.accounts.create({ username: 'holder', password: 'a holder password' });
    const rp = run('examples/oidc-rp/server.js', {
      RP_ISSUER: issuer,
      RP_PORT: String(port),
      RP_CLIENT_ID: 'dpop-rp',
      RP_CLIENT_SECRET: secret,
      RP_DPOP_ALG: 'ML-DSA-44',
    });
    expect(await rp.line(new RegExp(`^example RP on ${url} `))).toContain(
      'access tokens DPoP-bound, one ML-DSA-44 key per login',
    );
    const browser = new FetchBrowser();
    const login = await browser.get(`${url}/login`);
    const authorize = new URL(login.headers.get('location') as string);
    const jkt = authorize.searchParams.get('dpop_jkt');
    expect(jkt).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const callback = await signIn(browser, issuer, authorize.href, {
      username: 'holder',
      password: 'a holder password',
    });
    const done = await browser.get(callback.href);
    expect(done.status, rp.lines.join('\n')).toBe(303);
    const page = await (await browser.get(`${url}/`)).text();
    expect(page).toContain('Signed in as holder');
    // The IdP answered token_type DPoP for the key the authorization request named (the RP
    // refuses a bearer answer), and userinfo took its proof (a session login calls it).
    expect(page).toContain(`DPoP-bound to this login's ML-DSA-44 key (jkt <code>${jkt}</code>)`);
    // Another login, another key.
    const again = new URL((await new FetchBrowser().get(`${url}/login`)).headers.get('location') as string);
    expect(again.searchParams.get('dpop_jkt')).not.toBe(jkt);
    expect(rp.lines.filter((l) => /Warning|failed/.test(l))).toEqual([]);
  }, 30_000);

  it('fail at once, in one line, on what waiting will not cure', async () => {
    if (!idp) return expect.unreachable('the IdP did not start');
    const wrongIssuer = run('examples/oidc-rp/server.js', {
      RP_ISSUER: `http://127.0.0.1:${idpPort}`,
      RP_PORT: String(await freePort()),
    });
    const portTaken = run('examples/resource-server/server.js', {
      RS_ISSUER: issuer,
      RS_PORT: String(ports.rs),
    });
    const noCert = run('examples/saml-sp/server.js', {
      IDP_URL: issuer,
      SP_ALG: 'ML-DSA-87',
      SP_PORT: String(await freePort()),
    });
    const apiDown = run('examples/resource-server/call.js', {
      RS_ISSUER: issuer,
      RS_URL: `http://localhost:${await freePort()}`, // nothing there
      RS_RESOURCE: `http://localhost:${ports.rs}/`, // a resource the IdP knows
      CALL_CLIENT_SECRET: clientSecret,
      CALL_DPOP_ALG: 'none',
    });
    const misspeltAlgs = run('examples/resource-server/server.js', {
      RS_ISSUER: issuer,
      RS_PORT: String(await freePort()),
      RS_ALGS: 'ML-DSA-65,MLDSA-44',
    });
    const unknownDpopAlg = run('examples/resource-server/call.js', {
      RS_ISSUER: issuer,
      CALL_CLIENT_SECRET: clientSecret,
      CALL_DPOP_ALG: 'ML-DSA-66',
    });
    const rpAlg = run('examples/oidc-rp/server.js', {
      RP_ISSUER: issuer,
      RP_PORT: String(await freePort()),
      RP_ALG: 'ML-DSA65',
    });
    const rpEncryption = run('examples/oidc-rp/server.js', {
      RP_ISSUER: issuer,
      RP_PORT: String(await freePort()),
      RP_ID_TOKEN_ENCRYPTION: 'X-Wing',
    });
    const rpDpop = run('examples/oidc-rp/server.js', {
      RP_ISSUER: issuer,
      RP_PORT: String(await freePort()),
      RP_DPOP_ALG: 'ML-DSA-44-Ed25519', // the IdP takes composite proofs, openid-client makes no such key
    });
    const spPort = run('examples/saml-sp/server.js', { IDP_URL: issuer, SP_PORT: '30o2' });
    const started = Date.now();
    for (const p of [
      spPort,
      wrongIssuer,
      portTaken,
      noCert,
      apiDown,
      misspeltAlgs,
      unknownDpopAlg,
      rpAlg,
      rpEncryption,
      rpDpop,
    ])
      expect(await p.exited).toBe(1);
    expect(spPort.lines).toEqual([
      'example SAML SP: SP_PORT must be a whole number from 0 to 65535, not "30o2"',
    ]);
    expect(rpAlg.lines).toEqual([
      expect.stringMatching(/^example RP: RP_ALG "ML-DSA65": choose one of ML-DSA-44, /),
    ]);
    expect(rpEncryption.lines).toEqual([
      expect.stringMatching(/^example RP: RP_ID_TOKEN_ENCRYPTION "X-Wing": choose one of .*HPKE-9, /),
    ]);
    expect(rpDpop.lines).toEqual([
      expect.stringMatching(/^example RP: RP_DPOP_ALG "ML-DSA-44-Ed25519": choose one of ML-DSA-44, .*ES256/),
    ]);
    expect(Date.now() - started).toBeLessThan(15_000); // no minute of waiting
    expect(wrongIssuer.lines).toEqual([expect.stringMatching(/^example RP: .*issuer/)]);
    expect(portTaken.lines).toEqual([
      `example resource server: port ${ports.rs} is already in use: stop what listens there, or set RS_PORT to another port`,
    ]);
    expect(noCert.lines).toEqual(['example SAML SP: the IdP metadata has no ML-DSA-87 signing certificate']);
    expect(misspeltAlgs.lines).toEqual([
      expect.stringMatching(
        /^example resource server: algorithms \(RS_ALGS\): unknown "MLDSA-44"; choose from ML-DSA-44, /,
      ),
    ]);
    expect(unknownDpopAlg.lines).toEqual([
      expect.stringMatching(/^call: CALL_DPOP_ALG "ML-DSA-66": choose none or one of ML-DSA-44, .*ES256/),
    ]);
    expect(unknownDpopAlg.lines[0]).not.toContain('SLH-DSA');
    expect(apiDown.lines.at(-1)).toMatch(
      /^call: cannot reach the resource server at http:\/\/localhost:\d+ \(connection refused\): start it with `npm run example:resource-server`, or set RS_URL$/,
    );
  }, 30_000);

  it('give up after their wait with one line saying what to do', async () => {
    const nobody = `http://localhost:${await freePort()}`;
    const cases = [
      run('examples/oidc-rp/server.js', {
        RP_ISSUER: nobody,
        RP_PORT: String(await freePort()),
        RP_WAIT_SECONDS: '3',
      }),
      run('examples/resource-server/server.js', {
        RS_ISSUER: nobody,
        RS_PORT: String(await freePort()),
        RS_WAIT_SECONDS: '3',
      }),
      run('examples/saml-sp/server.js', {
        IDP_URL: nobody,
        SP_PORT: String(await freePort()),
        SP_WAIT_SECONDS: '3',
      }),
    ];
    const variables = ['RP_ISSUER', 'RS_ISSUER', 'IDP_URL'];
    for (const [i, p] of cases.entries()) {
      expect(await p.exited).toBe(1);
      noStackTrace(p.lines);
      expect(p.lines.length).toBeGreaterThanOrEqual(2); // at least one attempt was announced
      expect(p.lines.slice(0, -1).every((l) => l.includes(`waiting for the IdP at ${nobody}`))).toBe(true);
      expect(p.lines.at(-1)).toMatch(
        new RegExp(
          `^example [\\w ]+: the IdP at ${nobody} did not answer within 3 s \\(connection refused\\): start it with \`npm start\`.*, or set ${variables[i]} to where it runs$`,
        ),
      );
    }
  }, 30_000);
});
