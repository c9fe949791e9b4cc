/**
 * SAML end to end over real HTTP on 127.0.0.1: the examples/saml-sp app (unmodified
 * @node-saml/passport-saml, plus installNodeSamlIntegration for ML-DSA) logs in SP-initiated
 * against the running IdP and logs out again, for ML-DSA-44/65/87 and for a legacy RSA-SHA256
 * SP that also signs its requests. The "browser" is fetch with a cookie jar driving the login form.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRootCertificate, verifyXml } from '@pqid/xmldsig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the example is plain JavaScript
import { createSp, idpCertificateFromMetadata } from '../examples/saml-sp/sp.js';
import { createIdp, type Idp } from '../idp/src/app.ts';
import { loadConfig } from '../idp/src/config.ts';
import { registerSamlSp } from '../idp/src/saml/sps.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Cookies are per host, not per port, exactly as in a browser (IdP and SP share 127.0.0.1). */
class Browser {
  readonly jar = new Map<string, string>();
  get(url: string) {
    return this.send(url, { method: 'GET' });
  }
  postForm(url: string, data: Record<string, string>) {
    return this.send(url, {
      method: 'POST',
      body: new URLSearchParams(data),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }
  async send(url: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set('cookie', [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const r = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of r.headers.getSetCookie()) {
      const pair = c.split(';')[0] as string;
      const i = pair.indexOf('=');
      const [name, value] = [pair.slice(0, i), pair.slice(i + 1)];
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return r;
  }
  /** Follow redirects (GET), resolving relative locations. */
  async follow(url: string, max = 10): Promise<{ url: string; res: Response }> {
    let current = url;
    for (let i = 0; i < max; i++) {
      const res = await this.get(current);
      if (res.status < 300 || res.status >= 400) return { url: current, res };
      current = new URL(res.headers.get('location') as string, current).href;
    }
    throw new Error('too many redirects');
  }
}

function formOf(html: string, base: string): { action: string; fields: Record<string, string> } {
  const action = new URL(
    (/<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '').replace(/&amp;/g, '&'),
    base,
  ).href;
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[m[1] as string] = (m[2] as string)
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  return { action, fields };
}

const ALGS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'RS256'] as const;

let idp: Idp;
let issuer: string;
let dir: string;
const servers: Server[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pqid-saml-e2e-'));
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    env: {},
    cwd: dir,
    overrides: { dataDir: dir, logLevel: 'silent', issuer, port, host: '127.0.0.1' },
  });
  idp = await createIdp(config, { env: { PQID_KEK: randomBytes(32).toString('base64') }, warn: () => {} });
  await idp.app.listen({ port, host: '127.0.0.1' });
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  await idp?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function rsaRequestSigning() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), alg: 'RS256' };
  const cert = await createRootCertificate({ subject: 'legacy SP request signing', key: jwk as never });
  return { privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, certificate: cert.pem };
}

describe('passport-saml SP against the pqid IdP', () => {
  it('metadata is signed by the root key', async () => {
    const xml = await (await fetch(`${issuer}/saml/metadata`)).text();
    const root = /<ds:Signature[\s\S]*?<ds:X509Certificate>([^<]+)</.exec(xml)?.[1] as string;
    const v = verifyXml(xml, { trustedCertificates: [root], allowedAlgorithms: ['ML-DSA-87'] });
    expect(v.element.localName).toBe('EntityDescriptor');
  });

  for (const alg of ALGS) {
    it(`SP-initiated login and logout with ${alg}`, async () => {
      const legacy = alg === 'RS256';
      const spPort = await freePort();
      const spBase = `http://127.0.0.1:${spPort}`;
      const entityId = `${spBase}/saml/metadata`;
      const requestSigning = legacy ? await rsaRequestSigning() : undefined;
      await registerSamlSp(idp.ctx, {
        entityId,
        acsUrls: [`${spBase}/saml/acs`],
        sloUrl: `${spBase}/saml/slo`,
        signatureAlgorithm: alg,
        sign: 'both',
        nameIdFormat: 'persistent',
        ...(requestSigning ? { certificate: requestSigning.certificate } : {}),
      });
      const metadata = await (await fetch(`${issuer}/saml/metadata`)).text();
      const sp = createSp({
        baseUrl: spBase,
        entityId,
        idpSsoUrl: `${issuer}/saml/sso`,
        idpSloUrl: `${issuer}/saml/slo`,
        idpEntityId: `${issuer}/saml/metadata`,
        idpCert: await idpCertificateFromMetadata(metadata, alg),
        pq: !legacy,
        ...(requestSigning ? { requestSigning } : {}),
      });
      const server: Server = await new Promise((r) => {
        const s = sp.app.listen(spPort, '127.0.0.1', () => r(s));
      });
      servers.push(server);
      try {
        const b = new Browser();
        // SP → IdP (HTTP-Redirect AuthnRequest) → login page.
        const toIdp = await b.get(`${spBase}/login`);
        expect(toIdp.status).toBe(302);
        const ssoUrl = toIdp.headers.get('location') as string;
        expect(ssoUrl.startsWith(`${issuer}/saml/sso?SAMLRequest=`)).toBe(true);
        if (legacy) expect(ssoUrl).toContain('Signature=');
        const { url: loginUrl, res: loginPage } = await b.follow(ssoUrl);
        expect(loginPage.status).toBe(200);
        const login = formOf(await loginPage.text(), loginUrl);
        const csrf = /name="csrf" value="([^"]+)"/.exec(await (await b.get(loginUrl)).text())?.[1] as string;
        const posted = await b.postForm(login.action, { csrf, username: 'demo', password: 'demo' });
        expect(posted.status).toBe(303);
        // Back to /saml/continue → auto-submitting form to the ACS.
        const { url: formUrl, res: formPage } = await b.follow(
          new URL(posted.headers.get('location') as string, issuer).href,
        );
        expect(formPage.status).toBe(200);
        const form = formOf(await formPage.text(), formUrl);
        expect(form.action).toBe(`${spBase}/saml/acs`);
        const responseXml = Buffer.from(form.fields.SAMLResponse as string, 'base64').toString();
        expect(responseXml).toContain(legacy ? 'rsa-sha256' : alg.toLowerCase());
        const acs = await b.postForm(form.action, form.fields);
        expect(acs.status).toBe(302);
        expect(acs.headers.get('location')).toBe('/');
        const home = await (await b.get(`${spBase}/`)).text();
        expect(home).toContain('id="signed-in"');
        expect(home).toContain('demo@example.com');

        // Logout: SP → IdP (LogoutRequest) → form with LogoutResponse → SP.
        const toSlo = await b.get(`${spBase}/logout`);
        expect(toSlo.status).toBe(302);
        const sloPage = await b.get(toSlo.headers.get('location') as string);
        expect(sloPage.status).toBe(200);
        const slo = formOf(await sloPage.text(), issuer);
        expect(slo.action).toBe(`${spBase}/saml/slo`);
        const back = await b.postForm(slo.action, slo.fields);
        expect(back.status).toBe(302);
        expect(back.headers.get('location')).toBe('/?logged_out=1');
        expect(b.jar.has('pqid_session')).toBe(false);
        // The IdP session is gone: a new login goes to the login page again.
        const again = await b.follow((await b.get(`${spBase}/login`)).headers.get('location') as string);
        expect(again.url).toContain('/interaction/');
      } finally {
        sp.close();
      }
    }, 60_000);
  }
});
