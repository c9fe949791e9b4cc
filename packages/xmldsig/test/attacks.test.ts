/**
 * Attacks generated from our own ML-DSA-65-signed responses. Each is run against verifySamlResponse
 * (and so verifyXml) and against an unmodified node-saml SP with the integration installed; each
 * must be refused with a typed error (our side) or an error (node-saml), never yield the attacker's
 * NameID. XSW1–XSW8 follow Somorovsky et al., "On Breaking SAML: Be Whoever You Want to Be"
 * (USENIX Security 2012) as catalogued by SAML Raider: 1–2 wrap a signed Response, 3–8 a signed Assertion.
 */
import {
  installNodeSamlIntegration,
  type NodeSamlIntegration,
  signXml,
  type VerifySamlResponseOptions,
  verifySamlResponse,
} from '@pqid/xmldsig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Signer, samlResponse, signer } from './helpers/fixtures.ts';
import { post, sp } from './helpers/sp.ts';
import {
  assertionOf,
  child,
  DS,
  EVIL,
  evilClone,
  objectWith,
  parse,
  removeSignature,
  root,
  SAMLP,
  serialize,
  withoutSignature,
} from './helpers/tamper.ts';

const AID = '_a0123456789abcdef';
let idp: Signer;
let attacker: Signer;
let integration: NodeSamlIntegration;
let responseSigned: string; // only the Response is signed
let assertionSigned: string; // only the Assertion is signed
let bothSigned: string;

beforeAll(async () => {
  idp = await signer('ML-DSA-65');
  attacker = await signer('ML-DSA-65', 'attacker');
  integration = installNodeSamlIntegration({ trustedCertificates: [idp.certificate] });
  const sign = (xml: string, id?: string) =>
    signXml(xml, { key: idp.privateJwk, certificate: idp.certificate, ...(id ? { id } : {}) });
  responseSigned = sign(samlResponse());
  assertionSigned = sign(samlResponse(), AID);
  bothSigned = sign(assertionSigned);
});
afterAll(() => integration.uninstall());

const ours = (o: Partial<VerifySamlResponseOptions> = {}): VerifySamlResponseOptions => ({
  trustedCertificates: [idp.certificate],
  allowedAlgorithms: ['ML-DSA-65'],
  ...o,
});

interface Attack {
  name: string;
  /** Which SP policy the attack targets: response-signed SPs or assertion-signed SPs. */
  policy: 'response' | 'assertion' | 'both';
  build(): string;
  code: string | RegExp;
}

const policyOpts = (p: Attack['policy']) =>
  p === 'response'
    ? { wantResponseSigned: true, wantAssertionSigned: false }
    : p === 'assertion'
      ? { wantResponseSigned: false, wantAssertionSigned: true }
      : { wantResponseSigned: true, wantAssertionSigned: true };

const nodeSamlSp = (p: Attack['policy']) =>
  sp({
    idpCert: idp.certificate,
    wantAuthnResponseSigned: p !== 'assertion',
    wantAssertionsSigned: p !== 'response',
  });

const ATTACKS: Attack[] = [
  {
    name: 'XSW1: signed Response moved into the Signature of an evil Response',
    policy: 'response',
    // ds:Object has no place in a SAML signature: refused before the Reference is even looked at.
    code: 'ERR_XMLDSIG_SIGNATURE_MALFORMED',
    build() {
      const doc = parse(responseSigned);
      const evil = evilClone(root(doc), { id: '_evil', keepSignature: true });
      objectWith(doc, child(evil, DS, 'Signature'), withoutSignature(root(doc)));
      return serialize(evil);
    },
  },
  {
    name: 'XSW2: signed Response placed before the Signature of an evil Response',
    policy: 'response',
    code: 'ERR_XMLDSIG_REFERENCE_MISMATCH',
    build() {
      const doc = parse(responseSigned);
      const evil = evilClone(root(doc), { id: '_evil', keepSignature: true });
      evil.insertBefore(withoutSignature(root(doc)), child(evil, DS, 'Signature'));
      return serialize(evil);
    },
  },
  {
    name: 'XSW3: evil Assertion inserted before the signed one',
    policy: 'assertion',
    code: 'ERR_XMLDSIG_REFERENCE_MISMATCH',
    build() {
      const doc = parse(assertionSigned);
      const a = assertionOf(doc);
      root(doc).insertBefore(evilClone(a, { id: '_evil', keepSignature: false }), a);
      return serialize(doc);
    },
  },
  {
    name: 'XSW4: signed Assertion wrapped inside an evil Assertion',
    policy: 'assertion',
    code: 'ERR_XMLDSIG_SIGNATURE_MISSING',
    build() {
      const doc = parse(assertionSigned);
      const a = assertionOf(doc);
      const evil = evilClone(a, { id: '_evil', keepSignature: false });
      root(doc).replaceChild(evil, a);
      evil.appendChild(a);
      return serialize(doc);
    },
  },
  {
    name: 'XSW5: evil Assertion carries the signature, unsigned copy of the original appended to the Response',
    policy: 'assertion',
    code: 'ERR_XMLDSIG_REFERENCE_MISMATCH',
    build() {
      const doc = parse(assertionSigned);
      const a = assertionOf(doc);
      const evil = evilClone(a, { id: '_evil', keepSignature: true });
      root(doc).replaceChild(evil, a);
      root(doc).appendChild(withoutSignature(a));
      return serialize(doc);
    },
  },
  {
    name: 'XSW6: evil Assertion carries the signature, original copy inside that Signature',
    policy: 'assertion',
    // ds:Object has no place in a SAML signature: refused before the Reference is even looked at.
    code: 'ERR_XMLDSIG_SIGNATURE_MALFORMED',
    build() {
      const doc = parse(assertionSigned);
      const a = assertionOf(doc);
      const evil = evilClone(a, { id: '_evil', keepSignature: true });
      root(doc).replaceChild(evil, a);
      objectWith(doc, child(evil, DS, 'Signature'), withoutSignature(a));
      return serialize(doc);
    },
  },
  {
    name: 'XSW7: signed Assertion hidden in Extensions, evil unsigned Assertion in its place',
    policy: 'assertion',
    code: 'ERR_XMLDSIG_SIGNATURE_MISSING',
    build() {
      const doc = parse(assertionSigned);
      const a = assertionOf(doc);
      const ext = doc.createElementNS(SAMLP, 'samlp:Extensions');
      root(doc).replaceChild(evilClone(a, { id: '_evil', keepSignature: false }), a);
      ext.appendChild(a);
      root(doc).insertBefore(ext, child(root(doc), SAMLP, 'Status'));
      return serialize(doc);
    },
  },
  {
    name: 'XSW8: evil Assertion with the signature, original (signature removed) in ds:Object',
    policy: 'assertion',
    // ds:Object has no place in a SAML signature: refused before the Reference is even looked at.
    code: 'ERR_XMLDSIG_SIGNATURE_MALFORMED',
    build() {
      const doc = parse(assertionSigned);
      const a = assertionOf(doc);
      const evil = evilClone(a, { id: '_evil', keepSignature: true });
      root(doc).replaceChild(evil, a);
      objectWith(doc, child(evil, DS, 'Signature'), removeSignature(a));
      return serialize(doc);
    },
  },
  {
    name: 'duplicate ID: evil Assertion with the same ID next to the signed one',
    policy: 'assertion',
    code: 'ERR_XMLDSIG_REFERENCE_MISMATCH',
    build() {
      const doc = parse(assertionSigned);
      const a = assertionOf(doc);
      root(doc).insertBefore(evilClone(a, { id: AID, keepSignature: false }), a);
      return serialize(doc);
    },
  },
  {
    name: 'multiple SignedInfo in one Signature',
    policy: 'both',
    code: 'ERR_XMLDSIG_SIGNATURE_MALFORMED',
    build() {
      const doc = parse(bothSigned);
      const sig = child(root(doc), DS, 'Signature');
      const si = child(sig, DS, 'SignedInfo');
      sig.insertBefore(si.cloneNode(true), si);
      return serialize(doc);
    },
  },
  {
    name: 'wrapped SignedInfo (extra SignedInfo inside a ds:Object)',
    policy: 'both',
    code: 'ERR_XMLDSIG_SIGNATURE_MALFORMED',
    build() {
      const doc = parse(bothSigned);
      const sig = child(root(doc), DS, 'Signature');
      objectWith(doc, sig, child(sig, DS, 'SignedInfo').cloneNode(true) as never);
      return serialize(doc);
    },
  },
  {
    name: 'signatures removed',
    policy: 'both',
    code: 'ERR_XMLDSIG_SIGNATURE_MISSING',
    build() {
      const doc = parse(bothSigned);
      removeSignature(assertionOf(doc));
      removeSignature(root(doc));
      return serialize(doc);
    },
  },
  {
    name: 'unsigned Assertion inside a signed Response when the Assertion must be signed',
    policy: 'both',
    code: 'ERR_XMLDSIG_SIGNATURE_MISSING',
    build: () => responseSigned,
  },
  {
    name: 'NameID changed after signing',
    policy: 'both',
    code: 'ERR_XMLDSIG_SIGNATURE_INVALID',
    build: () => bothSigned.replace('alice@example.test</saml:NameID>', `${EVIL}</saml:NameID>`),
  },
  {
    name: 'signed by an unknown key (no KeyInfo)',
    policy: 'both',
    code: 'ERR_XMLDSIG_SIGNATURE_INVALID',
    build() {
      const a = signXml(samlResponse(), {
        key: attacker.privateJwk,
        certificate: attacker.certificate,
        id: AID,
      });
      const xml = signXml(a, { key: attacker.privateJwk, certificate: attacker.certificate });
      // Only the Response's KeyInfo (the first): the enveloped transform keeps its digest intact,
      // so what fails is the signature value under the trusted key.
      return xml.replace(/<ds:KeyInfo>[\s\S]*?<\/ds:KeyInfo>/, '');
    },
  },
  {
    name: 'signed by an unknown key, KeyInfo claims the trusted certificate',
    policy: 'both',
    code: 'ERR_XMLDSIG_SIGNATURE_INVALID',
    build() {
      const a = signXml(samlResponse(), {
        key: attacker.privateJwk,
        certificate: attacker.certificate,
        id: AID,
      });
      const xml = signXml(a, { key: attacker.privateJwk, certificate: attacker.certificate });
      const b64 = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');
      // Only in the Response's Signature (the first), for the same reason as above.
      return xml.replace(b64(attacker.certificate), b64(idp.certificate));
    },
  },
  {
    name: 'certificate in KeyInfo that is not configured',
    policy: 'both',
    code: 'ERR_XMLDSIG_CERT_NOT_TRUSTED',
    build() {
      const a = signXml(samlResponse(), {
        key: attacker.privateJwk,
        certificate: attacker.certificate,
        id: AID,
      });
      return signXml(a, { key: attacker.privateJwk, certificate: attacker.certificate });
    },
  },
  {
    name: 'DOCTYPE with entity expansion',
    policy: 'both',
    code: 'ERR_XMLDSIG_XML_INVALID',
    build: () =>
      `<!DOCTYPE samlp:Response [<!ENTITY x "${EVIL}"><!ENTITY y "&x;&x;&x;&x;&x;&x;&x;&x;">]>${bothSigned.replace('alice@example.test</saml:NameID>', '&y;</saml:NameID>')}`,
  },
  {
    name: 'malformed base64 in SignatureValue',
    policy: 'both',
    code: 'ERR_XMLDSIG_SIGNATURE_MALFORMED',
    build: () => bothSigned.replace(/<ds:SignatureValue>([A-Za-z0-9+/]{10})/, '<ds:SignatureValue>$1!*%'),
  },
  {
    name: 'truncated SignatureValue',
    policy: 'both',
    code: 'ERR_XMLDSIG_SIGNATURE_MALFORMED',
    build: () => bothSigned.replace(/<ds:SignatureValue>[A-Za-z0-9+/]{12}/, '<ds:SignatureValue>'),
  },
  {
    name: 'SignatureMethod downgraded to rsa-sha256',
    policy: 'both',
    code: 'ERR_XMLDSIG_ALG_NOT_ALLOWED',
    build: () =>
      bothSigned.replaceAll(
        'http://www.w3.org/2026/08/xmldsig-more#ml-dsa-65',
        'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      ),
  },
];

describe.each(ATTACKS)('$name', (attack) => {
  it('is refused by verifySamlResponse with a typed error', () => {
    const xml = attack.build();
    let err: unknown;
    try {
      verifySamlResponse(xml, ours(policyOpts(attack.policy)));
    } catch (e) {
      err = e;
    }
    expect(err, 'must throw').toBeInstanceOf(Error);
    expect((err as { code?: string }).code).toMatch(attack.code);
  });

  it('is refused by node-saml with the integration installed', async () => {
    const xml = attack.build();
    const result = post(nodeSamlSp(attack.policy), xml);
    await expect(result).rejects.toThrow();
  });
});

describe('comment injection in NameID (the verified NameID is never truncated)', () => {
  // The IdP signs the attacker's genuine account "alice@example.test.evil.test"; the attacker adds
  // a comment, which exclusive C14N drops, so the signature still verifies. A consumer reading the
  // first text node would see "alice@example.test". The defence: consume the canonical signed bytes.
  const full = 'alice@example.test.evil.test';
  let injected: string;
  beforeAll(() => {
    const a = signXml(samlResponse({ nameId: full }), {
      key: idp.privateJwk,
      certificate: idp.certificate,
      id: AID,
    });
    const signed = signXml(a, { key: idp.privateJwk, certificate: idp.certificate });
    injected = signed.replace(
      `>${full}</saml:NameID>`,
      '>alice@example.test<!--injected-->.evil.test</saml:NameID>',
    );
    expect(injected).not.toBe(signed);
  });

  it('verifySamlResponse returns the full NameID', () => {
    const v = verifySamlResponse(injected, ours());
    expect(v.nameId).toBe(full);
  });

  it('node-saml + integration returns the full NameID', async () => {
    const { profile } = await post(nodeSamlSp('both'), injected);
    expect(profile?.nameID).toBe(full);
  });
});

describe('baseline: the untampered responses are accepted', () => {
  it.each(['response', 'assertion', 'both'] as const)('policy %s', async (p) => {
    const xml = p === 'response' ? responseSigned : p === 'assertion' ? assertionSigned : bothSigned;
    expect(verifySamlResponse(xml, ours(policyOpts(p))).nameId).toBe('alice@example.test');
    const { profile } = await post(nodeSamlSp(p), xml);
    expect(profile?.nameID).toBe('alice@example.test');
  });
});
