import { installNodeSamlIntegration, type NodeSamlIntegration, signXml } from '@pqid/xmldsig';
import { afterEach, describe, expect, it } from 'vitest';
import { SignedXml } from 'xml-crypto';
import { ML_DSA_ALGS, type Signer, samlResponse, signer } from './helpers/fixtures.ts';
import { post, sp } from './helpers/sp.ts';

const AID = '_a0123456789abcdef';

function signBoth(s: Signer, xml = samlResponse()) {
  const inner = signXml(xml, { key: s.privateJwk, certificate: s.certificate, id: AID });
  return signXml(inner, { key: s.privateJwk, certificate: s.certificate });
}

let installed: NodeSamlIntegration[] = [];
afterEach(() => {
  for (const i of installed) i.uninstall();
  installed = [];
});
const install = (certs: string[]) => {
  const i = installNodeSamlIntegration({ trustedCertificates: certs });
  installed.push(i);
  return i;
};

describe.each([...ML_DSA_ALGS, 'ES256'] as const)('node-saml SP + integration, %s', (alg) => {
  it('accepts a Response and Assertion we signed, for the configured IdP certificate', async () => {
    const s = await signer(alg);
    install([s.certificate]);
    const { profile, loggedOut } = await post(sp({ idpCert: s.certificate }), signBoth(s));
    expect(loggedOut).toBe(false);
    expect(profile?.nameID).toBe('alice@example.test');
    expect(profile?.issuer).toBe('https://idp.example.test/saml');
  });

  it('accepts a Response whose KeyInfo names the key instead of carrying the certificate', async () => {
    const s = await signer(alg);
    install([s.certificate]);
    const opts = { key: s.privateJwk, certificate: s.certificate, keyName: 'saml-key-1' };
    const xml = signXml(signXml(samlResponse(), { ...opts, id: AID }), opts);
    expect(xml).not.toContain('X509Certificate');
    const { profile } = await post(sp({ idpCert: s.certificate }), xml);
    expect(profile?.nameID).toBe('alice@example.test');
  });

  it('accepts Assertion-only signing when the SP does not require a signed Response', async () => {
    const s = await signer(alg);
    install([s.certificate]);
    const xml = signXml(samlResponse(), { key: s.privateJwk, certificate: s.certificate, id: AID });
    const { profile } = await post(sp({ idpCert: s.certificate, wantAuthnResponseSigned: false }), xml);
    expect(profile?.nameID).toBe('alice@example.test');
  });
});

describe('node-saml SP + integration: refusals', () => {
  it('without the integration, node-saml rejects ML-DSA signatures', async () => {
    const s = await signer('ML-DSA-65');
    await expect(post(sp({ idpCert: s.certificate }), signBoth(s))).rejects.toThrow(
      /Invalid document signature/,
    );
  });

  it('rejects when the SP is configured with a different certificate', async () => {
    const s = await signer('ML-DSA-65');
    const other = await signer('ML-DSA-65', 'other IdP');
    install([s.certificate, other.certificate]);
    await expect(post(sp({ idpCert: other.certificate }), signBoth(s))).rejects.toThrow(
      /Invalid document signature/,
    );
  });

  it('rejects when the SP trusts the certificate but the integration was not told to', async () => {
    const s = await signer('ML-DSA-65');
    const other = await signer('ML-DSA-65', 'other IdP');
    install([other.certificate]);
    await expect(post(sp({ idpCert: s.certificate }), signBoth(s))).rejects.toThrow(
      /Invalid document signature/,
    );
  });

  it('uninstall() restores xml-crypto exactly', async () => {
    const original = (SignedXml.prototype as unknown as Record<string, unknown>).findSignatureAlgorithm;
    const s = await signer('ML-DSA-65');
    const i = install([s.certificate]);
    expect((SignedXml.prototype as unknown as Record<string, unknown>).findSignatureAlgorithm).not.toBe(
      original,
    );
    await expect(post(sp({ idpCert: s.certificate }), signBoth(s))).resolves.toBeTruthy();
    i.uninstall();
    expect((SignedXml.prototype as unknown as Record<string, unknown>).findSignatureAlgorithm).toBe(original);
    await expect(post(sp({ idpCert: s.certificate }), signBoth(s))).rejects.toThrow(
      /Invalid document signature/,
    );
  });

  it('RSA-SHA256 responses keep working through node-saml’s own path with the integration installed', async () => {
    const ml = await signer('ML-DSA-65');
    const rsa = await signer('RS256');
    install([ml.certificate]);
    const { profile } = await post(sp({ idpCert: [ml.certificate, rsa.certificate] }), signBoth(rsa));
    expect(profile?.nameID).toBe('alice@example.test');
  });

  it('RSA-SHA256 with a KeyName only: node-saml verifies against its configured certificate', async () => {
    const rsa = await signer('RS256');
    const opts = { key: rsa.privateJwk, certificate: rsa.certificate, keyName: 'rsa-1' };
    const xml = signXml(signXml(samlResponse(), { ...opts, id: AID }), opts);
    const { profile } = await post(sp({ idpCert: rsa.certificate }), xml);
    expect(profile?.nameID).toBe('alice@example.test');
  });

  it('the patched lookup does not sign (verification only)', async () => {
    const s = await signer('ML-DSA-65');
    install([s.certificate]);
    const sx = new SignedXml({
      privateKey: JSON.stringify(s.privateJwk),
      signatureAlgorithm: 'http://www.w3.org/2026/08/xmldsig-more#ml-dsa-65',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    });
    sx.addReference({
      xpath: '/*',
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    expect(() => sx.computeSignature('<a ID="_x"/>')).toThrow(/verification only/);
  });
});
