/**
 * Enveloped XML signatures the way SAML wants them: one Reference to the signed element's ID,
 * transforms enveloped-signature + exclusive C14N, SHA-256 digest, exclusive C14N of SignedInfo,
 * the certificate in KeyInfo/X509Data (or only a KeyName, for verifiers that hold the certificate
 * already), and the Signature right after the element's Issuer
 * (saml-core §5 / the schemas put ds:Signature there). The algorithm follows the key.
 */
import { InvalidArgument, PrivateKey } from '@pqid/jose';
import type { Document, Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { algorithmFor } from './algorithms/signature-algorithms.ts';

import { algOfKey, classicalPrivateKey, isPq, type SigningKey } from './keys.ts';
import { C14N_EXCLUSIVE, DIGEST_SHA256, SIGNATURE_URIS, TRANSFORM_ENVELOPED } from './uris.ts';
import { parseCertificate } from './x509/parse.ts';
import { certificateBase64 } from './x509/pem.ts';
import { spkiDer } from './x509/spki.ts';
import { childElements, elementsWithId, idOf, parseXml } from './xml/parse.ts';

const SAML_ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';

export interface SignXmlOptions {
  /**
   * Private JWK (ML-DSA or SLH-DSA AKP, EC P-256 or RSA), or a @pqid/jose PrivateKey handle —
   * a delegated one (KMS/HSM) signs with signXmlAsync only. Its algorithm picks the SignatureMethod.
   */
  key: SigningKey;
  /** The signer's certificate (PEM, base64 or DER), published in KeyInfo/X509Data. It must certify `key`. */
  certificate: string | Uint8Array;
  /** ID of the element to sign (Response, Assertion, EntityDescriptor). Default: the document element. */
  id?: string;
  /**
   * Where the Signature goes, as xml-crypto's location. Default: right after the signed element's
   * saml:Issuer child, or as its first child when it has none (EntityDescriptor).
   */
  location?: { reference: string; action: 'append' | 'prepend' | 'before' | 'after' };
  /** Namespace prefix of the ds: elements. Default "ds". */
  prefix?: string;
  /**
   * KeyInfo carries only this KeyName instead of the certificate: for verifiers that know the
   * certificate already (a SAML SP pins it from the IdP's metadata), it saves the certificate's
   * bytes, kilobytes for a post-quantum key certified by a post-quantum root, in every message.
   * XML Signature 1.1 §4.5.1 leaves the name's meaning to the parties; a key ID is the usual choice.
   */
  keyName?: string;
}

/** Returns the document with the enveloped signature inserted. Signs on the calling thread. */
export function signXml(xml: string, opts: SignXmlOptions): string {
  const { sig, options } = prepare(xml, opts);
  sig.computeSignature(xml, options);
  return sig.getSignedXml();
}

/**
 * Same as signXml, but the signature value is computed through @pqid/jose's asynchronous API
 * (ML-DSA off the event loop on the native backend): the form for the IdP's request path.
 */
export async function signXmlAsync(xml: string, opts: SignXmlOptions): Promise<string> {
  // async: bad input rejects like a failed signature does, instead of throwing synchronously.
  const { sig, options } = prepare(xml, opts);
  return new Promise((resolve, reject) => {
    sig.computeSignature(xml, options, (err) => (err ? reject(err) : resolve(sig.getSignedXml())));
  });
}

function prepare(xml: string, opts: SignXmlOptions) {
  const alg = algOfKey(opts.key);
  const cert = parseCertificate(opts.certificate);
  if (!sameKey(cert.publicKey.spki, spkiDer(opts.key)))
    throw new InvalidArgument('the certificate does not certify the signing key');

  const doc = parseXml(xml);
  const target = targetElement(doc, opts.id);
  const id = idOf(target);
  if (!id) throw new InvalidArgument('the element to sign has no ID attribute');
  if (/['"]/.test(id)) throw new InvalidArgument('IDs with quotes cannot be referenced');
  const targetXpath = `//*[@ID='${id}' or @Id='${id}' or @id='${id}']`;

  const uri = SIGNATURE_URIS[alg];
  const sig = new SignedXml({
    // PQ JWKs and key handles travel to our algorithm as they are; xml-crypto passes them through untouched.
    privateKey: (isPq(alg) || opts.key instanceof PrivateKey
      ? opts.key
      : classicalPrivateKey(opts.key)) as never,
    publicCert: cert.pem,
    signatureAlgorithm: uri,
    canonicalizationAlgorithm: C14N_EXCLUSIVE,
    getKeyInfoContent: (args) => {
      const p = args?.prefix ? `${args.prefix}:` : '';
      if (opts.keyName !== undefined) return `<${p}KeyName>${escapeText(opts.keyName)}</${p}KeyName>`;
      return `<${p}X509Data><${p}X509Certificate>${certificateBase64(cert.der)}</${p}X509Certificate></${p}X509Data>`;
    },
  });
  sig.SignatureAlgorithms = { [uri]: algorithmFor(alg) };
  sig.addReference({
    xpath: targetXpath,
    transforms: [TRANSFORM_ENVELOPED, C14N_EXCLUSIVE],
    digestAlgorithm: DIGEST_SHA256,
  });
  const issuer = childElements(target, SAML_ASSERTION_NS, 'Issuer')[0];
  const location =
    opts.location ??
    (issuer
      ? {
          reference: `${targetXpath}/*[local-name()='Issuer' and namespace-uri()='${SAML_ASSERTION_NS}']`,
          action: 'after' as const,
        }
      : { reference: targetXpath, action: 'prepend' as const });
  return { sig, options: { prefix: opts.prefix ?? 'ds', location } };
}

const escapeText = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function targetElement(doc: Document, id: string | undefined): Element {
  if (id === undefined) return doc.documentElement as Element;
  const hits = elementsWithId(doc, id);
  if (hits.length !== 1 || !hits[0])
    throw new InvalidArgument(`expected exactly one element with ID ${id}, found ${hits.length}`);
  return hits[0];
}

function sameKey(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}
