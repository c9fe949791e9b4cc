/**
 * Key sets per purpose: OIDC token-signing keys
 * are published in /jwks, SAML signing certificates only in the SAML metadata, and the SAML root
 * is a key of its own, used only on the cold path (certificates, metadata) and published in
 * neither unless configured. Rotating by algorithm never touches the root. A key store written
 * before key sets keeps working: its keys keep signing what they signed, pinned SAML certificates
 * keep verifying, and the root becomes a key of its own.
 */
import { join } from 'node:path';
import { generateKeyPair, type Jwk } from '@pqid/jose';
import {
  createRootCertificate,
  issueCertificate,
  parseCertificate,
  verifyCertificateSignature,
  verifySamlResponse,
  verifyXml,
} from '@pqid/xmldsig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdp, type Idp } from '../src/app.ts';
import { type Kek, seal } from '../src/crypto/kek.ts';
import { SamlCertificates } from '../src/saml/certificates.ts';
import { registerSamlSp } from '../src/saml/sps.ts';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import { KEK, startTestIdp, tempDir, testConfig } from './helpers.ts';
import { authnRequestXml, formFields, redirectParam, samlLogin } from './saml-helpers.ts';

const SP87 = 'https://sp-87.example.test/metadata';
const ACS87 = 'https://sp-87.example.test/acs';
const ssoUrl = (xml: string) => `/saml/sso?${new URLSearchParams({ SAMLRequest: redirectParam(xml) })}`;
const responseOf = (html: string) =>
  Buffer.from(formFields(html).fields.SAMLResponse as string, 'base64').toString();
const raw = (pem: string) =>
  Buffer.from(parseCertificate(pem).publicKey.raw ?? parseCertificate(pem).publicKey.spki);
const keyInfoCert = (xml: string) => /<ds:X509Certificate>([^<]+)</.exec(xml)?.[1] as string;

async function metadataOf(idp: Idp) {
  const xml = (await idp.app.inject({ method: 'GET', url: '/saml/metadata' })).body;
  const sig = /<ds:Signature[\s\S]*?<\/ds:Signature>/.exec(xml)?.[0] as string;
  const root = keyInfoCert(sig);
  const leaves = [...xml.replace(sig, '').matchAll(/<ds:X509Certificate>([^<]+)</g)].map(
    (m) => m[1] as string,
  );
  verifyXml(xml, {
    trustedCertificates: [root],
    allowedAlgorithms: [parseCertificate(root).publicKey.alg as never],
  });
  return { xml, root, leaves };
}
/** The signing keys /jwks serves (its `use: "enc"` keys are encryption-keys.test.ts's). */
const jwksKids = (idp: Idp) =>
  idp.ctx.keys
    .jwks()
    .keys.filter((k) => k.use !== 'enc')
    .map((k) => String(k.kid));

describe('key sets per purpose', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  beforeAll(async () => {
    // The default cold path: a new store's root is SLH-DSA-SHA2-128s.
    t = await startTestIdp({ keys: { placement: { cold: 'auto' } } });
    await registerSamlSp(t.idp.ctx, { entityId: SP87, acsUrls: [ACS87], signatureAlgorithm: 'ML-DSA-87' });
  }, 120_000);
  afterAll(() => t?.close());

  it('the SAML root is its own key: an ML-DSA-87 SP’s Responses are signed by a hot key the root certified', async () => {
    const certs = new SamlCertificates(t.idp.ctx);
    const root = await certs.root();
    const signer = await certs.signer('ML-DSA-87');
    // A new store's cold-path root is SLH-DSA-SHA2-128s (keys.placement.cold: auto).
    expect(root.alg).toBe('SLH-DSA-SHA2-128s');
    expect(signer.kid).not.toBe(root.kid);
    const login = await samlLogin(t.idp.app, ssoUrl(authnRequestXml({ issuer: SP87, acs: ACS87 })));
    const xml = responseOf(login.body);
    const leaf = keyInfoCert(xml);
    const { root: rootCert } = await metadataOf(t.idp);
    expect(raw(leaf).equals(raw(rootCert))).toBe(false);
    expect(await verifyCertificateSignature(leaf, rootCert)).toBe(true);
    expect(
      verifySamlResponse(xml, { trustedCertificates: [leaf], allowedAlgorithms: ['ML-DSA-87'] }).nameId,
    ).toBeTruthy();
  });

  it('/jwks publishes the OIDC token keys only: no SAML signing key, no root', async () => {
    const certs = new SamlCertificates(t.idp.ctx);
    const kids = jwksKids(t.idp);
    expect(kids).not.toContain((await certs.root()).kid);
    for (const alg of ['ML-DSA-65', 'RS256', 'ML-DSA-87'])
      expect(kids).not.toContain((await certs.signer(alg)).kid);
    const oidc = t.idp.ctx.keys.list().filter((k) => k.set === 'oidc');
    expect(kids.sort()).toEqual(oidc.map((k) => k.kid).sort());
    expect(t.idp.ctx.keys.list().map((k) => k.set)).toEqual(expect.arrayContaining(['oidc', 'saml', 'root']));
  });

  it('the SAML metadata lists SAML signing certificates only; the root signs it and is no KeyDescriptor', async () => {
    const { leaves, root } = await metadataOf(t.idp);
    const saml = new Set(
      t.idp.ctx.keys
        .list()
        .filter((k) => k.set === 'saml')
        .map((k) => k.kid),
    );
    const rootKid = (await new SamlCertificates(t.idp.ctx).root()).kid;
    for (const leaf of leaves) expect(raw(leaf).equals(raw(root))).toBe(false);
    const names = [...(await metadataOf(t.idp)).xml.matchAll(/<ds:KeyName>([^<]+)</g)].map(
      (m) => m[1] as string,
    );
    expect(names.length).toBe(leaves.length);
    for (const kid of names) expect(saml.has(kid)).toBe(true);
    expect(names).not.toContain(rootKid);
  });

  it('rotating an algorithm, or every algorithm, never touches the root; rotating the root set does', async () => {
    const certs = new SamlCertificates(t.idp.ctx);
    const rootBefore = (await certs.root()).kid;
    const leafBefore = (await certs.signer('ML-DSA-87')).certificate;
    await t.idp.ctx.keys.rotate('ML-DSA-87', { immediate: true });
    await t.idp.ctx.keys.rotate(undefined, { immediate: true });
    expect((await certs.root()).kid).toBe(rootBefore);
    const signer = await certs.signer('ML-DSA-87');
    expect(signer.certificate).not.toBe(leafBefore); // the hot key did rotate
    const rotated = await t.idp.ctx.keys.rotate(undefined, { set: 'root', immediate: true });
    expect(rotated.map((k) => [k.set, k.alg])).toEqual([['root', 'SLH-DSA-SHA2-128s']]);
    const rootAfter = await certs.root();
    expect(rootAfter.kid).not.toBe(rootBefore);
    // The metadata is now signed by the new root; certificates already issued keep their bytes.
    expect(raw((await metadataOf(t.idp)).root).equals(raw(rootAfter.certificate))).toBe(true);
    expect((await certs.signer('ML-DSA-87')).certificate).toBe(signer.certificate);
  });
});

it('keys.publishRoot: the root joins /jwks when configured', async () => {
  const s = await startTestIdp({ keys: { publishRoot: true } as never });
  try {
    const root = await new SamlCertificates(s.idp.ctx).root();
    expect(jwksKids(s.idp)).toContain(root.kid);
    expect(jwksKids(s.idp)).not.toContain((await new SamlCertificates(s.idp.ctx).signer('ML-DSA-65')).kid);
  } finally {
    await s.close();
  }
}, 60_000);

/**
 * A store as the IdP wrote it before key sets: one key per algorithm, no `set`, the same key
 * signing OIDC tokens and SAML Responses, the ML-DSA-87 key doubling as the SAML root (its
 * `root:<kid>` certificate self-signed, the leaves issued by it, its own "leaf" issued by itself).
 */
async function writeLegacyStore(dbFile: string, kek: Kek) {
  const storage = new SqliteStorage(dbFile);
  const keys = storage.adapter('SigningKey');
  const certsStore = storage.adapter('SamlCertificate');
  const now = Math.floor(Date.now() / 1000) - 3600;
  const made: Record<string, { kid: string; privateJwk: Jwk; publicJwk: Jwk }> = {};
  let serial = 0;
  for (const alg of ['ML-DSA-65', 'RS256', 'ML-DSA-87']) {
    const { privateJwk, publicJwk } = await generateKeyPair(alg);
    const kid = String(publicJwk.kid);
    made[alg] = { kid, privateJwk, publicJwk };
    await keys.upsert(kid, {
      kid,
      alg,
      kty: publicJwk.kty,
      use: 'sig',
      status: 'active',
      createdAt: now,
      activateAt: now,
      serial: ++serial,
      publicJwk: { ...publicJwk, use: 'sig' },
      privateJwk: seal(kek, JSON.stringify(privateJwk), kid),
    });
  }
  const legacyRoot = made['ML-DSA-87'] as (typeof made)[string];
  const rootCert = await createRootCertificate({
    subject: 'pqid SAML root (ML-DSA-87)',
    key: legacyRoot.privateJwk,
  });
  await certsStore.upsert(`root:${legacyRoot.kid}`, {
    kid: legacyRoot.kid,
    alg: 'ML-DSA-87',
    pem: rootCert.pem,
  });
  const leaves: Record<string, string> = {};
  for (const [alg, k] of Object.entries(made)) {
    const leaf = await issueCertificate({
      subject: `pqid SAML signing (${alg})`,
      subjectPublicKey: k.publicJwk,
      issuerKey: legacyRoot.privateJwk,
      issuerCertificate: rootCert.pem,
      validity: { days: 730 },
    });
    leaves[alg] = leaf.pem;
    await certsStore.upsert(k.kid, { kid: k.kid, alg, pem: leaf.pem, issuerKid: legacyRoot.kid });
  }
  await storage.close();
  return {
    kids: Object.fromEntries(Object.entries(made).map(([a, k]) => [a, k.kid])),
    leaves,
    rootCert: rootCert.pem,
  };
}

it('a key store from before key sets keeps working, and its root becomes a key of its own', async () => {
  const { dir, cleanup } = tempDir();
  const kek: Kek = { key: Buffer.from(KEK, 'base64'), source: 'env' };
  const legacy = await writeLegacyStore(join(dir, 'pqid.sqlite'), kek);
  const start = () => createIdp(testConfig(dir), { env: { PQID_KEK: KEK }, warn: () => {} });
  let idp = await start();
  try {
    const k65 = legacy.kids['ML-DSA-65'] as string;
    const k87 = legacy.kids['ML-DSA-87'] as string;
    // Every record now says which set it is in; a key both protocols used is in both.
    const sets = (kid: string) =>
      idp.ctx.keys
        .list()
        .filter((k) => k.kid === kid)
        .map((k) => k.set)
        .sort();
    expect(sets(k65)).toEqual(['oidc', 'saml']);
    expect(sets(k87)).toEqual(['oidc', 'saml']);
    // OIDC: the same keys sign and are published; nothing new in /jwks but the legacy keys.
    expect((await idp.ctx.keys.signingKey('ML-DSA-65')).kid).toBe(k65);
    expect(jwksKids(idp).sort()).toEqual(Object.values(legacy.kids).sort());
    // SAML: the same key signs, under the certificate SPs pinned.
    const certs = new SamlCertificates(idp.ctx);
    const signer = await certs.signer('ML-DSA-65');
    expect(signer.kid).toBe(k65);
    expect(signer.certificate).toBe(legacy.leaves['ML-DSA-65']);
    await registerSamlSp(idp.ctx, { entityId: SP87, acsUrls: [ACS87], signatureAlgorithm: 'ML-DSA-65' });
    const login = await samlLogin(idp.app, ssoUrl(authnRequestXml({ issuer: SP87, acs: ACS87 })));
    const pinned = legacy.leaves['ML-DSA-65'] as string;
    expect(
      verifySamlResponse(responseOf(login.body), {
        trustedCertificates: [pinned],
        allowedAlgorithms: ['ML-DSA-65'],
      }).nameId,
    ).toBeTruthy();
    // The root: a new key in its own set, in neither /jwks nor the KeyDescriptors.
    const root = await certs.root();
    expect(root.kid).not.toBe(k87);
    expect(sets(root.kid)).toEqual(['root']);
    expect(jwksKids(idp)).not.toContain(root.kid);
    expect(raw((await metadataOf(idp)).root).equals(raw(root.certificate))).toBe(true);
    // The legacy leaves still chain to the legacy root (nothing re-issued).
    expect(await verifyCertificateSignature(pinned, legacy.rootCert)).toBe(true);

    // A second start migrates nothing more and creates nothing.
    const byId = (l: ReturnType<typeof idp.ctx.keys.list>) =>
      [...l].sort((a, b) => `${a.set}:${a.kid}`.localeCompare(`${b.set}:${b.kid}`));
    const before = byId(idp.ctx.keys.list());
    await idp.close();
    idp = await start();
    expect(idp.createdKeys).toEqual([]);
    expect(byId(idp.ctx.keys.list())).toEqual(before);
  } finally {
    await idp.close();
    cleanup();
  }
}, 120_000);

it('the root set is its own: an alg the hot sets use never lends its key to the root', async () => {
  const s = await startTestIdp({ saml: { rootAlg: 'ML-DSA-65' } });
  try {
    const certs = new SamlCertificates(s.idp.ctx);
    const root = await certs.root();
    expect(root.alg).toBe('ML-DSA-65');
    expect(root.kid).not.toBe((await certs.signer('ML-DSA-65')).kid);
    expect(root.kid).not.toBe((await s.idp.ctx.keys.signingKey('ML-DSA-65')).kid);
  } finally {
    await s.close();
  }
}, 60_000);
