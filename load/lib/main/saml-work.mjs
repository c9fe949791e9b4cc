/** The body of load/saml-work.mjs (its header says what it does), loaded once pqid is built. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { SAML } from '@node-saml/node-saml';
import { generateKeyPair } from '@pqid/jose';
import {
  checkSamlHttpMessage,
  checkXmlLimits,
  createRootCertificate,
  DEFAULT_MAX_SAML_MESSAGE_BYTES,
  DEFAULT_SAML_LIMITS,
  installNodeSamlIntegration,
  issueCertificate,
  recommendedNodeSamlOptions,
  signXml,
} from '@pqid/xmldsig';
import { positive, startScript } from '../args.mjs';
import { REPO_DIR } from '../paths.mjs';

const { values, REPS } = await startScript({
  script: 'saml-work.mjs',
  usage: 'usage: node load/saml-work.mjs [--reps N] [--before] [--write]',
  options: { reps: { type: 'string' }, before: { type: 'boolean' }, write: { type: 'boolean' } },
  read: (values) => ({ values, REPS: positive(values.reps, 'reps') ?? 15 }),
});
// After the check: the IdP needs node:sqlite.
const { createIdp, loadConfig, registerSamlSp } = await import('@pqid/idp');
const L = DEFAULT_SAML_LIMITS;

/** @param {NodeJS.CpuUsage} start */
const cpuMs = (start) => {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
};
/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
/** @param {number} ms */
const t = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
/** @param {string} s */
const b64 = (s) => Buffer.from(s).toString('base64');
/** @param {string} s */
const deflated = (s) => deflateRawSync(Buffer.from(s)).toString('base64');

/**
 * CPU per run of `f(i)`; `f` may be async.
 * @param {(i: number) => unknown} f
 */
async function measure(f) {
  for (let i = 0; i < 2; i++) await f(-1 - i);
  const runs = [];
  for (let i = 0; i < REPS; i++) {
    const start = process.cpuUsage();
    await f(i);
    runs.push(cpuMs(start));
  }
  return { median: median(runs), max: Math.max(...runs) };
}

// ---- shapes the limits admit -----------------------------------------------------------------

/**
 * `count` elements in full groups of maxChildren siblings: the quadratic worst case.
 * @param {number} count
 */
function siblingGroups(count) {
  const groups = [];
  let left = count;
  while (left > 0) {
    const n = Math.min(L.maxChildren - 1, left - 1); // the group element plus its children
    groups.push(`<g>${'<a/>'.repeat(n)}</g>`);
    left -= n + 1;
  }
  return groups.join('');
}
/**
 * Chains as deep as the limit allows below a parent at depth `under`, until `count` elements.
 * @param {number} count
 * @param {number} under
 */
function deepChains(count, under) {
  const d = L.maxDepth - under;
  const chain = `${'<d>'.repeat(d)}${'</d>'.repeat(d)}`;
  return chain.repeat(Math.floor(count / d));
}
/**
 * Elements with maxAttributes attributes each, as many as `bytes` and `attributes` allow.
 * @param {number} bytes
 * @param {number} attributes
 */
function attributeFlood(bytes, attributes) {
  const el = `<e ${Array.from({ length: L.maxAttributes }, (_, i) => `a${i}="${i}"`).join(' ')}/>`;
  return el.repeat(Math.min(Math.floor(bytes / el.length), Math.floor(attributes / L.maxAttributes)));
}

const IDP = 'https://idp.example.test/saml/metadata';
const SP = 'https://sp.example.test/saml/metadata';
const ACS = 'https://sp.example.test/saml/acs';
const SLO = 'https://sp.example.test/saml/slo';

/**
 * An unsigned Response with its Assertion's ID, padded inside the AttributeStatement or at the root.
 * @param {{ padding?: string, rootPadding?: string }} [pad]
 */
function response({ padding = '', rootPadding = '' } = {}) {
  const now = Date.now();
  const until = t(now + 300_000);
  const rid = `_r${randomBytes(8).toString('hex')}`;
  const aid = `_a${randomBytes(8).toString('hex')}`;
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${rid}" Version="2.0" IssueInstant="${t(now)}" Destination="${ACS}">` +
    `<saml:Issuer>${IDP}</saml:Issuer>` +
    '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
    `<saml:Assertion ID="${aid}" Version="2.0" IssueInstant="${t(now)}"><saml:Issuer>${IDP}</saml:Issuer>` +
    '<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">alice-p</saml:NameID>' +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${until}" Recipient="${ACS}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${t(now - 60_000)}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${SP}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${t(now)}" SessionIndex="${aid}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement><saml:Attribute Name="groups">${padding}</saml:Attribute></saml:AttributeStatement>` +
    `</saml:Assertion>${rootPadding}</samlp:Response>`;
  return { xml, aid };
}

/**
 * @param {'LogoutRequest' | 'LogoutResponse'} kind
 * @param {string} [padding]
 */
function logout(kind, padding = '') {
  const body =
    kind === 'LogoutRequest'
      ? '<saml:NameID>alice-p</saml:NameID>'
      : '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>';
  return (
    `<samlp:${kind} xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_l${randomBytes(8).toString('hex')}" Version="2.0" IssueInstant="${t(Date.now())}" Destination="${SLO}">` +
    `<saml:Issuer>${IDP}</saml:Issuer>${body}${padding}</samlp:${kind}>`
  );
}

// ---- the SP: guard, then node-saml ------------------------------------------------------------

/** @typedef {{ side: string, binding: string, name: string, median: number, max: number }} Row */
/** @typedef {Row & { bytes: number, shape: ReturnType<typeof checkXmlLimits>, result: string }} SpRow */

/** An IdP signing certificate under an ML-DSA-87 root, and its key. */
async function spTrust() {
  const root = await generateKeyPair('ML-DSA-87');
  const rootCert = await createRootCertificate({ subject: 'bench root', key: root.privateJwk });
  const hot = await generateKeyPair('ML-DSA-87');
  const cert = (
    await issueCertificate({
      subject: 'bench IdP signing',
      subjectPublicKey: hot.publicJwk,
      issuerKey: root.privateJwk,
      issuerCertificate: rootCert.pem,
      validity: { days: 30 },
    })
  ).pem;
  return { cert, key: { key: hot.privateJwk, certificate: cert } };
}

/**
 * The example SP's path for one HTTP message: the guard, then node-saml as passport-saml calls it.
 * @param {SAML} saml
 * @returns {(req: import('@pqid/xmldsig').SamlHttpRequest, rules: import('@pqid/xmldsig').SamlHttpRules) => Promise<string>}
 */
const spPath = (saml) => async (req, rules) => {
  const m = checkSamlHttpMessage(req, rules);
  try {
    const query = /** @type {Record<string, string>} */ (req.query);
    const body = /** @type {Record<string, string>} */ (req.body);
    if (m?.binding === 'redirect')
      await saml.validateRedirectAsync(query, new URLSearchParams(query).toString());
    else if (m?.parameter === 'SAMLResponse') await saml.validatePostResponseAsync(body);
    else await saml.validatePostRequestAsync(body);
    return 'accepted';
  } catch {
    return 'refused by node-saml';
  }
};

/**
 * The Responses the limits still admit, each as [name, build].
 * @param {(r: { xml: string, aid: string }) => string} sign both the Assertion and the Response
 * @returns {[string, () => string][]}
 */
function responseShapes(sign) {
  // Elements and attributes left for padding once the Response itself is counted (two Signatures).
  const baseShape = checkXmlLimits(sign(response()));
  const spare = L.maxElements - baseShape.elements;
  const spareAttributes = L.maxTotalAttributes - baseShape.totalAttributes;
  const bytesLeft = DEFAULT_MAX_SAML_MESSAGE_BYTES - Buffer.byteLength(sign(response())) - 512;
  return [
    ['Response, ML-DSA-87, both signed (real shape)', () => sign(response())],
    [
      `Response signed by the IdP, ${spare} elements in groups of ${L.maxChildren} (AttributeValues)`,
      () => sign(response({ padding: siblingGroups(spare) })),
    ],
    [
      `Response, forged, ${L.maxChildren - 4} extra root children + groups`,
      () =>
        response({
          rootPadding: '<a/>'.repeat(L.maxChildren - 4),
          padding: siblingGroups(spare - L.maxChildren),
        }).xml,
    ],
    [
      `Response signed by the IdP, chains ${L.maxDepth} deep`,
      () => sign(response({ padding: deepChains(spare, 4) })),
    ],
    [
      `Response signed by the IdP, ${L.maxAttributes} attributes per element, ${spareAttributes} more in all`,
      () => sign(response({ padding: attributeFlood(bytesLeft, spareAttributes) })),
    ],
    [
      'Response signed by the IdP, one text node to 128 KiB',
      () =>
        sign(response({ padding: `<saml:AttributeValue>${'x'.repeat(bytesLeft)}</saml:AttributeValue>` })),
    ],
  ];
}

/**
 * A signed-looking (Signature present, not valid) Redirect LogoutRequest at a route that takes one.
 * @param {ReturnType<typeof spPath>} run
 * @returns {Promise<SpRow>}
 */
async function logoutRedirectRow(run) {
  const slo = { post: ['LogoutResponse', 'LogoutRequest'], redirect: ['LogoutRequest'], required: true };
  const lr = logout('LogoutRequest', siblingGroups(L.maxElements - 4));
  const q = {
    SAMLRequest: deflated(lr),
    SigAlg: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    Signature: b64('not a signature'),
  };
  let result = '';
  const cost = await measure(async () => {
    result = await run({ query: q }, /** @type {import('@pqid/xmldsig').SamlHttpRules} */ (slo));
  });
  return {
    side: 'SP',
    binding: 'Redirect',
    name: `LogoutRequest, ${L.maxElements - 4} elements in groups of ${L.maxChildren}, bad Signature`,
    bytes: Buffer.byteLength(lr),
    shape: checkXmlLimits(lr),
    result,
    ...cost,
  };
}

/**
 * The original 20,000-sibling LogoutRequest through node-saml without the guard, once.
 * @param {SAML} saml
 */
async function withoutLimits(saml) {
  const value = deflated(logout('LogoutRequest', '<a/>'.repeat(20_000)));
  const start = process.cpuUsage();
  await saml
    .validateRedirectAsync({ SAMLRequest: value }, `SAMLRequest=${encodeURIComponent(value)}`)
    .catch(() => {});
  return { deflatedBytes: value.length, ms: cpuMs(start) };
}

async function spCases() {
  const { cert, key } = await spTrust();
  const integration = installNodeSamlIntegration({ trustedCertificates: [cert] });
  /** @param {{ xml: string, aid: string }} r */
  const sign = ({ xml, aid }) => signXml(signXml(xml, { ...key, id: aid }), key);
  const saml = new SAML(
    /** @type {import('@node-saml/node-saml').SamlConfig} */ ({
      ...recommendedNodeSamlOptions({ idpCert: cert, idpIssuer: IDP, issuer: SP, callbackUrl: ACS }),
      entryPoint: `${IDP}/sso`,
      // Measured without the request-ID cache: every Response goes the whole way.
      validateInResponseTo: 'never',
    }),
  );
  const run = spPath(saml);
  /** @type {import('@pqid/xmldsig').SamlHttpRules} */
  const acs = { post: ['Response'], required: true, destination: ACS };
  /** @type {SpRow[]} */
  const out = [];
  for (const [name, build] of responseShapes(sign)) {
    const xml = build();
    let result = '';
    const cost = await measure(async () => {
      result = await run({ body: { SAMLResponse: b64(xml) } }, acs);
    });
    out.push({
      side: 'SP',
      binding: 'POST',
      name,
      bytes: Buffer.byteLength(xml),
      shape: checkXmlLimits(xml),
      result,
      ...cost,
    });
  }
  out.push(await logoutRedirectRow(run));
  const before = values.before ? await withoutLimits(saml) : undefined;
  integration.uninstall();
  return { rows: out, before };
}

// ---- the IdP: whole requests through fastify inject -------------------------------------------

const SIGNED = 'https://signed-sp.example.test/saml/metadata';
const SIGNED_ACS = 'https://signed-sp.example.test/saml/acs';

/** A fresh IdP in a temporary directory with two SPs: one plain, one whose AuthnRequests are signed. */
async function benchIdp() {
  const dir = mkdtempSync(join(tmpdir(), 'pqid-saml-work-'));
  const issuer = 'http://127.0.0.1:3999';
  const config = loadConfig({
    env: {},
    cwd: dir,
    overrides: { dataDir: dir, logLevel: 'silent', issuer, demo: { enabled: false } },
  });
  const idp = await createIdp(config, {
    env: { PQID_KEK: randomBytes(32).toString('base64') },
    warn: () => {},
  });
  const spKey = await generateKeyPair('ML-DSA-65');
  const spCert = (await createRootCertificate({ subject: 'bench SP', key: spKey.privateJwk })).pem;
  await registerSamlSp(idp.ctx, { entityId: SP, acsUrls: [ACS], sloUrl: SLO });
  await registerSamlSp(idp.ctx, { entityId: SIGNED, acsUrls: [SIGNED_ACS], certificate: spCert });
  return { dir, issuer, config, idp, spKey, spCert };
}

/**
 * The IdP's SAML messages and how they are sent (HTTP-Redirect GET, or POST form).
 * @param {Awaited<ReturnType<typeof benchIdp>>} bench
 */
function idpMessages({ issuer, idp, spKey, spCert }) {
  const id = () => randomBytes(8).toString('hex');
  const ns =
    'xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"';
  return {
    /** @param {string} issuerId @param {string} acs @param {string} [padding] */
    authn: (issuerId, acs, padding = '') =>
      `<samlp:AuthnRequest ${ns} ID="_q${id()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${issuer}/saml/sso" AssertionConsumerServiceURL="${acs}"><saml:Issuer>${issuerId}</saml:Issuer>${padding}</samlp:AuthnRequest>`,
    /** @param {string} [padding] */
    logout: (padding = '') =>
      `<samlp:LogoutRequest ${ns} ID="_l${id()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${issuer}/saml/slo"><saml:Issuer>${SP}</saml:Issuer><saml:NameID>x</saml:NameID>${padding}</samlp:LogoutRequest>`,
    /** @param {string} padding */
    signedAuthn(padding) {
      return signXml(this.authn(SIGNED, SIGNED_ACS, padding), { key: spKey.privateJwk, certificate: spCert });
    },
    /** @param {string} path @param {string} xml */
    get: (path, xml) =>
      idp.app.inject({
        method: 'GET',
        url: `${path}?${new URLSearchParams({ SAMLRequest: deflated(xml) })}`,
      }),
    /** @param {string} path @param {string} xml */
    post: (path, xml) =>
      idp.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ SAMLRequest: b64(xml) }).toString(),
      }),
  };
}

/**
 * The IdP's cases, each as [name, binding, send].
 * @param {Awaited<ReturnType<typeof benchIdp>>} bench
 * @returns {[string, string, () => Promise<{ statusCode: number }>][]}
 */
function idpShapes(bench) {
  const m = idpMessages(bench);
  // As many elements as the limits allow next to the signature (and the 64 KiB body limit).
  /** @param {string} xml */
  const fits = (xml) =>
    new URLSearchParams({ SAMLRequest: b64(xml) }).toString().length <= bench.config.bodyLimit;
  let signedCount = L.maxElements - checkXmlLimits(m.signedAuthn('')).elements;
  while (signedCount > 0 && !fits(m.signedAuthn(siblingGroups(signedCount)))) signedCount -= 50;
  const signedPadding = siblingGroups(signedCount);
  return [
    ['AuthnRequest (real shape)', 'Redirect', () => m.get('/saml/sso', m.authn(SP, ACS))],
    [
      `AuthnRequest, ${L.maxElements - 2} elements in groups of ${L.maxChildren}`,
      'Redirect',
      () => m.get('/saml/sso', m.authn(SP, ACS, siblingGroups(L.maxElements - 2))),
    ],
    [
      `AuthnRequest, chains ${L.maxDepth} deep`,
      'Redirect',
      () => m.get('/saml/sso', m.authn(SP, ACS, deepChains(L.maxElements - 2, 1))),
    ],
    [
      'AuthnRequest, ML-DSA-65 enveloped signature (real shape)',
      'POST',
      () => m.post('/saml/sso', m.signedAuthn('')),
    ],
    [
      `AuthnRequest, ML-DSA-65 signed, ${signedCount} elements in groups (the 64 KiB body limit)`,
      'POST',
      () => m.post('/saml/sso', m.signedAuthn(signedPadding)),
    ],
    [
      `LogoutRequest, ${L.maxElements - 3} elements in groups of ${L.maxChildren}`,
      'Redirect',
      () => m.get('/saml/slo', m.logout(siblingGroups(L.maxElements - 3))),
    ],
  ];
}

async function idpCases() {
  const bench = await benchIdp();
  /** @type {(Row & { status: number })[]} */
  const out = [];
  for (const [name, binding, send] of idpShapes(bench)) {
    let status = 0;
    const cost = await measure(async () => {
      status = (await send()).statusCode;
    });
    out.push({ side: 'IdP', binding, name, status, ...cost });
  }
  await bench.idp.close();
  rmSync(bench.dir, { recursive: true, force: true });
  return out;
}

const DOC = join(REPO_DIR, 'docs/SAML.md');
if (values.write && !readFileSync(DOC, 'utf8').includes('<!-- saml-work:start -->'))
  throw new Error('docs/SAML.md has no saml-work markers');
const sp = await spCases();
const idpRows = await idpCases();
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const lines = [
  `_Generated by \`load/saml-work.mjs\` (${REPS} runs per case after 2 warm-ups, CPU time of this process) on ${cpu}, ${cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Limits: ${L.maxElements} elements, depth ${L.maxDepth}, ${L.maxChildren} children, ${L.maxAttributes} attributes per element and ${L.maxTotalAttributes} in all; 128 KiB at the SP, 64 KiB at the IdP._`,
  '',
  '| side | binding | message | result | median CPU (ms) | max CPU (ms) |',
  '| ---- | ------- | ------- | ------ | --------------: | -----------: |',
  ...sp.rows.map(
    (r) =>
      `| SP | ${r.binding} | ${r.name} (${Math.round(r.bytes / 1024)} KiB, ${r.shape.elements} elements) | ${r.result} | ${r.median.toFixed(1)} | ${r.max.toFixed(1)} |`,
  ),
  ...idpRows.map(
    (r) =>
      `| IdP | ${r.binding} | ${r.name} | HTTP ${r.status} | ${r.median.toFixed(1)} | ${r.max.toFixed(1)} |`,
  ),
];
if (sp.before)
  lines.push(
    '',
    `Without the limits: the finding's LogoutRequest (20,000 empty siblings, ${sp.before.deflatedBytes} bytes deflated) through node-saml's validateRedirectAsync: ${Math.round(sp.before.ms)} ms of CPU.`,
  );
const table = lines.join('\n');
console.log(table);
const worst = Math.max(...sp.rows.map((r) => r.max), ...idpRows.map((r) => r.max));
console.log(`\nworst case: ${worst.toFixed(1)} ms of CPU (target: 50 ms)`);
if (values.write) {
  const path = DOC;
  const doc = readFileSync(path, 'utf8');
  const re = /(<!-- saml-work:start -->\n)[\s\S]*?(<!-- saml-work:end -->)/;
  if (!re.test(doc)) throw new Error('docs/SAML.md has no saml-work markers');
  writeFileSync(path, doc.replace(re, `$1${table}\n$2`));
  console.log('docs/SAML.md updated');
}
