/**
 * SAML end to end over real HTTP on 127.0.0.1: the examples/saml-sp app (unmodified
 * @node-saml/passport-saml, plus installNodeSamlIntegration for ML-DSA) logs in SP-initiated
 * against the running IdP and logs out again, for ML-DSA-44/65/87 and for a legacy RSA-SHA256
 * SP that also signs its requests. The "browser" is fetch with a cookie jar driving the login form.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import {
  createRootCertificate,
  DEFAULT_MAX_SAML_MESSAGE_BYTES,
  parseCertificate,
  verifySamlResponse,
  verifyXml,
} from '@pqid/xmldsig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the example is plain JavaScript
import { createSp, idpCertificateFromMetadata } from '../examples/saml-sp/sp.js';
import { createIdp, type Idp } from '../idp/src/app.ts';
import { loadConfig } from '../idp/src/config/index.ts';
import { SamlCertificates, type SamlSigner } from '../idp/src/saml/certificates.ts';
import { signedLoginResponse } from '../idp/src/saml/response.ts';
import { samlSizes } from '../idp/src/saml/sizes.ts';
import { registerSamlSp } from '../idp/src/saml/sps.ts';
import { CookieBrowser as Browser } from './helpers/cookie-browser.ts';
import { freePort } from './helpers/net.ts';

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
  it('metadata is signed by the root key: SLH-DSA-SHA2-128s, the cold path of a new store', async () => {
    const xml = await (await fetch(`${issuer}/saml/metadata`)).text();
    const root = /<ds:Signature[\s\S]*?<ds:X509Certificate>([^<]+)</.exec(xml)?.[1] as string;
    expect(parseCertificate(root).publicKey.alg).toBe('SLH-DSA-SHA2-128s');
    const v = verifyXml(xml, { trustedCertificates: [root], allowedAlgorithms: ['SLH-DSA-SHA2-128s'] });
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

/**
 * The example SP's protocol layer (recommendedNodeSamlOptions + decodeSamlMessage in front of
 * node-saml) against responses the real IdP produced: one captured from a login over HTTP, and
 * others from the IdP's own response builder (signedLoginResponse) with the IdP's own ML-DSA-65
 * key and certificate, built with a shifted clock or for another audience so they are validly
 * signed. verifySamlResponse accepts those (the signature layer is fine); the SP refuses them.
 */
describe('the example SP refuses replayed, unsolicited, expired, misaddressed and malformed responses', () => {
  const ALG = 'ML-DSA-65';
  let spBase: string;
  let entityId: string;
  let idpCert: string;
  let sp: { app: { listen: (...a: unknown[]) => Server }; close: () => void };
  let signer: SamlSigner;

  beforeAll(async () => {
    const spPort = await freePort();
    spBase = `http://127.0.0.1:${spPort}`;
    entityId = `${spBase}/saml/metadata`;
    await registerSamlSp(idp.ctx, {
      entityId,
      acsUrls: [`${spBase}/saml/acs`],
      sloUrl: `${spBase}/saml/slo`,
      signatureAlgorithm: ALG,
      sign: 'both',
      nameIdFormat: 'persistent',
    });
    idpCert = await idpCertificateFromMetadata(await (await fetch(`${issuer}/saml/metadata`)).text(), ALG);
    sp = createSp({
      baseUrl: spBase,
      entityId,
      idpSsoUrl: `${issuer}/saml/sso`,
      idpSloUrl: `${issuer}/saml/slo`,
      idpEntityId: `${issuer}/saml/metadata`,
      idpCert,
    });
    servers.push(
      await new Promise<Server>((r) => {
        const s = sp.app.listen(spPort, '127.0.0.1', () => r(s));
      }),
    );
    signer = await new SamlCertificates(idp.ctx).signer(ALG);
    // The builder signs with the same key and certificate the metadata publishes.
    expect(signer.certificate.replace(/\s/g, '')).toBe(idpCert.replace(/\s/g, ''));
  }, 60_000);
  afterAll(() => sp?.close());

  /** The SP sends an AuthnRequest (and remembers its ID, validateInResponseTo: 'always'). */
  async function authnRequestId(b = new Browser()): Promise<string> {
    const to = new URL((await b.get(`${spBase}/login`)).headers.get('location') as string);
    const xml = inflateRawSync(
      Buffer.from(to.searchParams.get('SAMLRequest') as string, 'base64'),
    ).toString();
    return /\bID="([^"]+)"/.exec(xml)?.[1] as string;
  }

  /** A Response from the IdP's own builder and key, for this SP unless told otherwise. */
  function build(o: { inResponseTo?: string; now?: number; audience?: string; keyInfo?: 'keyName' }) {
    return signedLoginResponse(
      {
        idpEntityId: `${issuer}/saml/metadata`,
        spEntityId: o.audience ?? entityId,
        acsUrl: `${spBase}/saml/acs`,
        ...(o.inResponseTo ? { inResponseTo: o.inResponseTo } : {}),
        nameId: { format: 'persistent', value: 'p-demo' },
        account: { sub: 's', uid: 'demo', passwordHash: '', email: 'demo@example.com' },
        authTime: Math.floor((o.now ?? Date.now()) / 1000),
        sessionIndex: '_s1',
        authnContext: 'urn:oasis:names:tc:SAML:2.0:ac:classes:Password',
        now: o.now ?? Date.now(),
        lifetime: idp.ctx.config.saml.assertionLifetime,
      },
      signer,
      { sign: 'both', ...(o.keyInfo ? { keyInfo: o.keyInfo } : {}) },
    );
  }
  const postAcs = (b: Browser, SAMLResponse: string) => b.postForm(`${spBase}/saml/acs`, { SAMLResponse });
  const b64 = (xml: string) => Buffer.from(xml).toString('base64');
  const signatureLayer = (xml: string) =>
    verifySamlResponse(xml, { trustedCertificates: [idpCert], allowedAlgorithms: [ALG] });

  it('baseline: a fresh Response from the builder, answering the SP’s request, signs in', async () => {
    const b = new Browser();
    const res = await postAcs(b, b64(await build({ inResponseTo: await authnRequestId(b) })));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/');
  });

  it('passport-saml signs in with a Response whose KeyInfo only names the key (keyInfo: keyName)', async () => {
    const b = new Browser();
    const xml = await build({ inResponseTo: await authnRequestId(b), keyInfo: 'keyName' });
    expect(xml).not.toContain('X509Certificate');
    expect(xml).toContain(`<ds:KeyName>${signer.kid}</ds:KeyName>`);
    const res = await postAcs(b, b64(xml));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/');
  });

  it('a Response captured from a real login, posted again, is refused (replay)', async () => {
    const b = new Browser();
    const { url: loginUrl } = await b.follow(
      (await b.get(`${spBase}/login`)).headers.get('location') as string,
    );
    const login = await b.get(loginUrl);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await login.text())?.[1] as string;
    const posted = await b.postForm(`${loginUrl}/login`, { csrf, username: 'demo', password: 'demo' });
    const { url: formUrl, res: formPage } = await b.follow(
      new URL(posted.headers.get('location') as string, issuer).href,
    );
    const form = formOf(await formPage.text(), formUrl);
    const first = await b.postForm(form.action, form.fields);
    expect(first.status).toBe(302);
    // An attacker who captured the form (another browser) and the user's own browser: both refused.
    for (const again of [new Browser(), b]) {
      const replay = await again.postForm(form.action, form.fields);
      expect(replay.status).toBe(401);
      expect(await replay.text()).toMatch(/InResponseTo is not valid/);
    }
    const xml = Buffer.from(form.fields.SAMLResponse as string, 'base64').toString();
    expect(signatureLayer(xml).nameId).toBeTruthy(); // still validly signed: the refusal is protocol
  }, 60_000);

  it('an unsolicited Response (no InResponseTo) is refused', async () => {
    const res = await postAcs(new Browser(), b64(await build({})));
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/InResponseTo is missing/);
  });

  it('a Response to a request the SP never sent is refused', async () => {
    const res = await postAcs(new Browser(), b64(await build({ inResponseTo: '_not-from-this-sp' })));
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/InResponseTo is not valid/);
  });

  it('expired Conditions (assertion built 10 minutes ago) are refused', async () => {
    const b = new Browser();
    const xml = await build({ inResponseTo: await authnRequestId(b), now: Date.now() - 10 * 60_000 });
    expect(signatureLayer(xml).nameId).toBe('p-demo');
    const res = await postAcs(b, b64(xml));
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/No valid subject confirmation|SAML assertion expired/);
  });

  it('not-yet-valid Conditions (assertion built 10 minutes ahead) are refused', async () => {
    const b = new Browser();
    const xml = await build({ inResponseTo: await authnRequestId(b), now: Date.now() + 10 * 60_000 });
    expect(signatureLayer(xml).nameId).toBe('p-demo');
    const res = await postAcs(b, b64(xml));
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/SAML assertion not yet valid/);
  });

  it('a Response for another SP’s Audience is refused', async () => {
    const b = new Browser();
    const xml = await build({
      inResponseTo: await authnRequestId(b),
      audience: 'https://another-sp.example.test/saml/metadata',
    });
    expect(signatureLayer(xml).nameId).toBe('p-demo');
    const res = await postAcs(b, b64(xml));
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/audience mismatch/);
  });

  it('malformed or oversized SAMLResponse: a clear 400/413, and the SP keeps serving', async () => {
    const b = new Browser();
    const cases: Array<[string, number, RegExp]> = [
      ['!!! not base64 !!!', 400, /not valid base64/],
      [b64('<html>not SAML</html>'), 400, /not a SAML protocol message/],
      [b64((await build({})).slice(0, 5000)), 400, /does not parse/],
      [b64(' '.repeat(150 * 1024)), 400, /larger than/], // under the body limit, over the XML cap
      ['A'.repeat(300 * 1024), 413, /too large/], // over express's 256 KB body limit
    ];
    for (const [value, status, message] of cases) {
      const res = await postAcs(b, value);
      expect(res.status, value.slice(0, 20)).toBe(status);
      expect(await res.text()).toMatch(message);
    }
    const slo = await b.postForm(`${spBase}/saml/slo`, { SAMLResponse: '%%%' });
    expect(slo.status).toBe(400);
    // The SLO endpoint (which cannot require InResponseTo, see sp.js) takes no login Response.
    const login = await b.postForm(`${spBase}/saml/slo`, { SAMLResponse: b64(await build({})) });
    expect(login.status).toBe(400);
    expect(await login.text()).toMatch(/takes samlp:LogoutResponse or samlp:LogoutRequest/);
    expect(b.jar.has('sp_session')).toBe(false);
    expect((await b.get(`${spBase}/`)).status).toBe(200);
  });
});

/**
 * The size report (idp/src/saml/sizes.ts) against limits that matter, and docs/SAML.md against
 * the report. The bounds are derived from the signature sizes (FIPS 204, RFC 8017) and common
 * URL limits, not from our own previous output.
 */
describe('SAML message sizes', () => {
  let rows: Awaited<ReturnType<typeof samlSizes>>;
  beforeAll(async () => {
    rows = await samlSizes();
  }, 60_000);
  const row = (alg: string) => rows.find((r) => r.alg === alg) as (typeof rows)[number];
  const b64len = (n: number) => 4 * Math.ceil(n / 3);

  it('signature sizes are the FIPS 204 / RSA-2048 / r‖s sizes', () => {
    expect(row('ML-DSA-44').signatureBytes).toBe(ml_dsa44.lengths.signature);
    expect(row('ML-DSA-65').signatureBytes).toBe(ml_dsa65.lengths.signature);
    expect(row('ML-DSA-87').signatureBytes).toBe(ml_dsa87.lengths.signature);
    expect(row('RS256').signatureBytes).toBe(2048 / 8);
    expect(row('ES256').signatureBytes).toBe(64);
  });

  it('Redirect URLs: every URL carries at least its base64 signature; RSA fits 2 KB, ML-DSA-87 does not', () => {
    for (const r of rows) expect(r.redirectUrlBytes).toBeGreaterThan(b64len(r.signatureBytes));
    expect(row('RS256').redirectUrlBytes).toBeLessThan(2048);
    expect(row('RS256').redirectUrlBytes).toBeLessThan(8000);
    for (const alg of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'])
      expect(row(alg).redirectUrlBytes, alg).toBeGreaterThan(2048);
  });

  it('POST: each Response carries two signatures and two certificates; all fit the SP limits', () => {
    for (const r of rows) {
      expect(r.responseXmlBytes).toBeGreaterThan(2 * b64len(r.signatureBytes));
      // The form carries the Response in base64: at least 4/3 of it.
      expect(r.postFormBytes).toBeGreaterThanOrEqual(b64len(r.responseXmlBytes));
      // What the example SP accepts: decodeSamlMessage's cap and its 256 KB body limit.
      expect(r.responseXmlBytes).toBeLessThan(DEFAULT_MAX_SAML_MESSAGE_BYTES);
      expect(r.postFormBytes).toBeLessThan(256 * 1024);
    }
    expect(row('ML-DSA-87').postFormBytes).toBeGreaterThan(row('RS256').postFormBytes);
  });

  it('docs/SAML.md has the table with these numbers (signatures exact, the rest within 3% or 64 B)', () => {
    const doc = readFileSync(new URL('../docs/SAML.md', import.meta.url), 'utf8');
    for (const r of rows) {
      const line = new RegExp(`^\\|\\s*${r.alg}\\s*\\|([^\\n]+)$`, 'm').exec(doc)?.[1];
      expect(line, `docs/SAML.md row for ${r.alg}`).toBeTruthy();
      const [sig, url, xml, form, named] = (line as string)
        .split('|')
        .map((c) => Number(c.trim().replace(/,/g, '')))
        .filter((n) => !Number.isNaN(n) && n > 0);
      expect(sig).toBe(r.signatureBytes);
      // 64 bytes: a Redirect URL varies per message (every '+' and '/' in the base64 of a random
      // signature, ID or RelayState is percent-encoded to three bytes); ±30 B was seen on RS256.
      for (const [documented, actual] of [
        [url, r.redirectUrlBytes],
        [xml, r.responseXmlBytes],
        [form, r.postFormBytes],
        [named, r.responseXmlKeyNameBytes],
      ] as const)
        expect(
          Math.abs((documented as number) - actual),
          `${r.alg}: ${documented} vs ${actual}`,
        ).toBeLessThanOrEqual(Math.max(0.03 * actual, 64));
    }
  });
});
