import {
  createPrivateKey,
  createPublicKey,
  type JsonWebKey,
  sign as nodeSign,
  verify as nodeVerify,
} from 'node:crypto';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { MLDSA_PARAMS } from '@pqid/jose';
import {
  certificateBase64,
  InvalidArgument,
  parseCertificate,
  SIGNATURE_URIS,
  signXml,
  signXmlAsync,
  verifyXml,
} from '@pqid/xmldsig';
import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { ExclusiveCanonicalization } from 'xml-crypto';
import { ALL_ALGS, idpMetadata, ML_DSA_ALGS, samlResponse, signer } from './helpers/fixtures.ts';

const NOBLE = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 };
const DS = 'http://www.w3.org/2000/09/xmldsig#';

/** The canonical SignedInfo octets and SignatureValue of the n-th signature, computed outside our code path. */
function signedInfoAndValue(xml: string, n = 0) {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const sig = doc.getElementsByTagNameNS(DS, 'Signature').item(n);
  const si = sig?.getElementsByTagNameNS(DS, 'SignedInfo').item(0);
  const sv = sig?.getElementsByTagNameNS(DS, 'SignatureValue').item(0);
  if (!si || !sv) throw new Error('no signature');
  const c14n = new ExclusiveCanonicalization().process(si as never, {}).toString();
  return { c14n: Buffer.from(c14n, 'utf8'), value: Buffer.from(sv.textContent ?? '', 'base64') };
}

describe.each(ALL_ALGS)('%s', (alg) => {
  it('signs and verifies a Response (signature after Issuer, KeyInfo carries the certificate)', async () => {
    const s = await signer(alg);
    const signed = signXml(samlResponse(), { key: s.privateJwk, certificate: s.certificate });
    expect(signed).toMatch(/<saml:Issuer>[^<]*<\/saml:Issuer><ds:Signature/);
    expect(signed).toContain(`<ds:SignatureMethod Algorithm="${SIGNATURE_URIS[alg]}"/>`);
    expect(signed).toContain(certificateBase64(s.certificate));
    const v = verifyXml(signed, { trustedCertificates: [s.certificate], allowedAlgorithms: [alg] });
    expect(v.algorithm).toBe(SIGNATURE_URIS[alg]);
    expect(v.referenceId).toBe('_r0123456789abcdef');
    expect(v.element.localName).toBe('Response');
    expect(v.signedXml).not.toContain('Signature>');
  });

  it('KeyInfo with only a KeyName: no certificate in the message, verified against the trusted one', async () => {
    const s = await signer(alg);
    const full = signXml(samlResponse(), { key: s.privateJwk, certificate: s.certificate });
    const named = signXml(samlResponse(), {
      key: s.privateJwk,
      certificate: s.certificate,
      keyName: 'kid-1 <a&b>',
    });
    expect(named).toContain('<ds:KeyInfo><ds:KeyName>kid-1 &lt;a&amp;b&gt;</ds:KeyName></ds:KeyInfo>');
    expect(named).not.toContain('X509');
    expect(named).not.toContain(certificateBase64(s.certificate));
    expect(full.length - named.length).toBeGreaterThan(certificateBase64(s.certificate).length);
    const v = verifyXml(named, { trustedCertificates: [s.certificate], allowedAlgorithms: [alg] });
    expect(v.element.localName).toBe('Response');
    // The name is a label, not a key: without the certificate among the trusted ones, nothing verifies.
    const other = await signer(alg, 'other');
    expect(() =>
      verifyXml(named, { trustedCertificates: [other.certificate], allowedAlgorithms: [alg] }),
    ).toThrow();
  });

  it('signs and verifies an Assertion inside a Response', async () => {
    const s = await signer(alg);
    const signed = signXml(samlResponse(), {
      key: s.privateJwk,
      certificate: s.certificate,
      id: '_a0123456789abcdef',
    });
    const v = verifyXml(signed, {
      trustedCertificates: [s.certificate],
      allowedAlgorithms: [alg],
      expectedReferenceId: '_a0123456789abcdef',
    });
    expect(v.element.localName).toBe('Assertion');
    // the Response itself is not signed
    expect(() =>
      verifyXml(signed, { trustedCertificates: [s.certificate], allowedAlgorithms: [alg] }),
    ).toThrow(expect.objectContaining({ code: 'ERR_XMLDSIG_SIGNATURE_MISSING' }));
  });

  it('signs and verifies both the Assertion and the Response', async () => {
    const s = await signer(alg);
    const inner = signXml(samlResponse(), {
      key: s.privateJwk,
      certificate: s.certificate,
      id: '_a0123456789abcdef',
    });
    const both = signXml(inner, { key: s.privateJwk, certificate: s.certificate });
    const opts = { trustedCertificates: [s.certificate], allowedAlgorithms: [alg] };
    const outer = verifyXml(both, opts);
    // The assertion signature still verifies inside the verified (canonical) response bytes.
    expect(
      verifyXml(outer.signedXml, { ...opts, expectedReferenceId: '_a0123456789abcdef' }).element.localName,
    ).toBe('Assertion');
  });

  it('signs and verifies IdP metadata (EntityDescriptor: Signature is the first child)', async () => {
    const s = await signer(alg);
    const signed = signXml(idpMetadata(certificateBase64(s.certificate)), {
      key: s.privateJwk,
      certificate: s.certificate,
    });
    expect(signed).toMatch(/<md:EntityDescriptor[^>]*><ds:Signature/);
    const v = verifyXml(signed, {
      trustedCertificates: [s.certificate],
      allowedAlgorithms: [SIGNATURE_URIS[alg]],
    });
    expect(v.element.localName).toBe('EntityDescriptor');
  });

  it('is refused when the algorithm is not allowed or the certificate is another one', async () => {
    const s = await signer(alg);
    const other = await signer(alg, 'other');
    const signed = signXml(samlResponse(), { key: s.privateJwk, certificate: s.certificate });
    const notAllowed = alg === 'RS256' ? 'ES256' : 'RS256';
    expect(() =>
      verifyXml(signed, { trustedCertificates: [s.certificate], allowedAlgorithms: [notAllowed] }),
    ).toThrow(expect.objectContaining({ code: 'ERR_XMLDSIG_ALG_NOT_ALLOWED' }));
    expect(() =>
      verifyXml(signed, { trustedCertificates: [other.certificate], allowedAlgorithms: [alg] }),
    ).toThrow(expect.objectContaining({ code: 'ERR_XMLDSIG_CERT_NOT_TRUSTED' }));
  });
});

describe.each(ML_DSA_ALGS)('%s SignatureValue cross-checks with independent implementations', (alg) => {
  it('noble and node:crypto (OpenSSL) verify it over the canonical SignedInfo', async () => {
    const s = await signer(alg);
    const signed = signXml(samlResponse(), { key: s.privateJwk, certificate: s.certificate });
    const { c14n, value } = signedInfoAndValue(signed);
    expect(value.length).toBe(MLDSA_PARAMS[alg].signature);
    const pub = parseCertificate(s.certificate).publicKey.raw as Uint8Array;
    expect(NOBLE[alg].verify(value, c14n, pub)).toBe(true);
    expect(nodeVerify(null, c14n, createPublicKey(s.certificate), value)).toBe(true);
    // and not over anything else
    expect(NOBLE[alg].verify(value, Buffer.concat([c14n, Buffer.from(' ')]), pub)).toBe(false);
  });

  it('accepts a signature made by noble over the canonical SignedInfo (interop in the other direction)', async () => {
    const s = await signer(alg);
    const signed = signXml(samlResponse(), { key: s.privateJwk, certificate: s.certificate });
    const { c14n, value } = signedInfoAndValue(signed);
    const seed = Buffer.from(s.privateJwk.priv as string, 'base64url');
    const { secretKey } = NOBLE[alg].keygen(seed);
    const nobleSig = Buffer.from(NOBLE[alg].sign(c14n, secretKey));
    const swapped = signed.replace(value.toString('base64'), nobleSig.toString('base64'));
    expect(swapped).not.toBe(signed);
    expect(
      verifyXml(swapped, { trustedCertificates: [s.certificate], allowedAlgorithms: [alg] }).referenceId,
    ).toBeTruthy();
  });
});

describe('ECDSA-SHA256 SignatureValue is r‖s (RFC 4050/9231), not DER', () => {
  it('is 64 bytes and verifies with node:crypto ieee-p1363', async () => {
    const s = await signer('ES256');
    const signed = signXml(samlResponse(), { key: s.privateJwk, certificate: s.certificate });
    const { c14n, value } = signedInfoAndValue(signed);
    expect(value.length).toBe(64);
    expect(
      nodeVerify('sha256', c14n, { key: createPublicKey(s.certificate), dsaEncoding: 'ieee-p1363' }, value),
    ).toBe(true);
  });
});

describe('signXmlAsync (the IdP request path: signing off the event loop)', () => {
  it.each(ALL_ALGS)('%s produces a document that verifies like signXml', async (alg) => {
    const s = await signer(alg);
    const signed = await signXmlAsync(samlResponse(), { key: s.privateJwk, certificate: s.certificate });
    expect(signed).toMatch(/<saml:Issuer>[^<]*<\/saml:Issuer><ds:Signature/);
    expect(
      verifyXml(signed, { trustedCertificates: [s.certificate], allowedAlgorithms: [alg] }).referenceId,
    ).toBe('_r0123456789abcdef');
  });
});

describe('signXml input checks', () => {
  it('refuses a certificate that does not certify the key', async () => {
    const a = await signer('ML-DSA-65');
    const b = await signer('ML-DSA-65');
    expect(() => signXml(samlResponse(), { key: a.privateJwk, certificate: b.certificate })).toThrow(
      InvalidArgument,
    );
  });
});

describe('verifyXml refusals that do not need an attacker', () => {
  it('an ML-DSA-44 SignatureMethod with an ML-DSA-65 certificate (key-type confusion)', async () => {
    const s = await signer('ML-DSA-65');
    const signed = signXml(samlResponse(), { key: s.privateJwk, certificate: s.certificate }).replace(
      SIGNATURE_URIS['ML-DSA-65'],
      SIGNATURE_URIS['ML-DSA-44'],
    );
    expect(() =>
      verifyXml(signed, {
        trustedCertificates: [s.certificate],
        allowedAlgorithms: ['ML-DSA-44', 'ML-DSA-65'],
      }),
    ).toThrow(expect.objectContaining({ code: 'ERR_XMLDSIG_ALG_NOT_ALLOWED' }));
  });

  it('oversized input is refused before parsing', async () => {
    const s = await signer('ML-DSA-44');
    const signed = signXml(samlResponse(), { key: s.privateJwk, certificate: s.certificate });
    expect(() =>
      verifyXml(signed, {
        trustedCertificates: [s.certificate],
        allowedAlgorithms: ['ML-DSA-44'],
        maxBytes: 4096,
      }),
    ).toThrow(expect.objectContaining({ code: 'ERR_XMLDSIG_XML_INVALID' }));
  });

  it('an ECDSA signature in DER form instead of r‖s does not verify', async () => {
    const s = await signer('ES256');
    const signed = signXml(samlResponse(), { key: s.privateJwk, certificate: s.certificate });
    const { c14n, value } = signedInfoAndValue(signed);
    const der = nodeSign(
      'sha256',
      c14n,
      createPrivateKey({ key: s.privateJwk as JsonWebKey, format: 'jwk' }),
    );
    const swapped = signed.replace(value.toString('base64'), der.toString('base64'));
    expect(() =>
      verifyXml(swapped, { trustedCertificates: [s.certificate], allowedAlgorithms: ['ES256'] }),
    ).toThrow(expect.objectContaining({ code: 'ERR_XMLDSIG_SIGNATURE_INVALID' }));
  });
});
