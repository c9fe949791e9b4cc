/**
 * Verifying one enveloped signature and returning what it signed.
 *
 * The caller names the element it is going to consume (by ID, default the document element);
 * we require exactly one ds:Signature as its direct child, exactly one SignedInfo with exactly
 * one Reference whose URI is that element's ID, an ID that occurs once in the document, only the
 * enveloped + exclusive-C14N transforms, an allowed SignatureMethod and SHA-256. Keys come only
 * from `trustedCertificates`: a KeyInfo certificate is at most a hint that must match one of
 * them. On success the result is the canonical XML xml-crypto digested, re-parsed — the caller
 * reads the signed bytes, never the original tree (signature-wrapping defence, as node-saml's
 * getVerifiedXml does).
 */

import { MLDSA_PARAMS, SLHDSA_PARAMS } from '@pqid/jose';
import type { Document, Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { signatureBytes } from './algorithms/key-material.ts';
import { algorithmFor } from './algorithms/signature-algorithms.ts';
import {
  CertificateNotTrusted,
  ReferenceMismatch,
  SignatureMalformed,
  SignatureMissing,
  XmlAlgorithmNotAllowed,
  XmlSignatureInvalid,
} from './errors.ts';
import { isMlDsa, isSlhDsa } from './keys.ts';
import {
  algForUri,
  C14N_EXCLUSIVE,
  DIGEST_SHA256,
  isSignatureUri,
  SIGNATURE_URIS,
  type SignatureUri,
  TRANSFORM_ENVELOPED,
  XMLDSIG_NS,
  type XmlSignatureAlg,
} from './uris.ts';
import { type ParsedCertificate, parseCertificate } from './x509/parse.ts';
import { certificateDer } from './x509/pem.ts';
import { childElements, elementsWithId, idOf, parseXml } from './xml/parse.ts';

export interface VerifyXmlOptions {
  /** The only certificates whose keys may verify (PEM, base64 or DER). */
  trustedCertificates: readonly (string | Uint8Array)[];
  /** Accepted SignatureMethods, as URIs or JOSE names (e.g. 'ML-DSA-65'). */
  allowedAlgorithms: readonly (SignatureUri | XmlSignatureAlg)[];
  /** ID of the element that must be signed. Default: the document element. */
  expectedReferenceId?: string;
  maxBytes?: number;
}

export interface VerifiedXml {
  /** Exclusive-C14N of the signed element (without the Signature): the bytes that were signed. */
  signedXml: string;
  /** The signed element, parsed from `signedXml`. Consume this, not the input document. */
  element: Element;
  algorithm: SignatureUri;
  certificate: ParsedCertificate;
  referenceId: string;
}

export function verifyXml(xml: string, opts: VerifyXmlOptions): VerifiedXml {
  const allowed = new Set<string>(
    opts.allowedAlgorithms.map((a) => (isSignatureUri(a) ? a : SIGNATURE_URIS[a as XmlSignatureAlg])),
  );
  if (allowed.size === 0) throw new XmlAlgorithmNotAllowed('allowedAlgorithms is empty');
  const trusted = opts.trustedCertificates.map((c) => parseCertificate(c));
  if (trusted.length === 0) throw new CertificateNotTrusted('no trusted certificates configured');

  const doc = parseXml(xml, opts.maxBytes);
  const root = doc.documentElement as Element;
  const target = opts.expectedReferenceId === undefined ? root : uniqueById(doc, opts.expectedReferenceId);
  const id = idOf(target);
  if (!id)
    throw new SignatureMissing(`<${target.nodeName}> has no ID, so it cannot be the target of a signature`);
  if (elementsWithId(doc, id).length !== 1)
    throw new ReferenceMismatch(`ID ${id} occurs more than once in the document (signature wrapping)`);

  const signatures = childElements(target, XMLDSIG_NS, 'Signature');
  if (signatures.length === 0) throw new SignatureMissing(`<${target.nodeName} ID="${id}"> is not signed`);
  if (signatures.length > 1)
    throw new SignatureMalformed(`<${target.nodeName} ID="${id}"> has ${signatures.length} signatures`);
  const signature = signatures[0] as Element;
  const { algorithm, signatureValue } = checkStructure(signature, id, allowed);

  const alg = algForUri(algorithm);
  const candidates = candidateCertificates(signature, trusted, alg);
  const value = signatureBytes(signatureValue);
  if (!value) throw new SignatureMalformed('SignatureValue is not valid base64');
  const fixed = isMlDsa(alg)
    ? MLDSA_PARAMS[alg].signature
    : isSlhDsa(alg)
      ? SLHDSA_PARAMS[alg].signature
      : undefined;
  if (fixed !== undefined && value.length !== fixed)
    throw new SignatureMalformed(`${alg} SignatureValue must be ${fixed} bytes, got ${value.length}`);

  const failures: string[] = [];
  for (const cert of candidates) {
    const sx = new SignedXml({ publicCert: cert.pem, getCertFromKeyInfo: () => null });
    // Only the one algorithm this signature declares, and only ours: nothing else is reachable.
    sx.SignatureAlgorithms = { [algorithm]: algorithmFor(alg) };
    try {
      sx.loadSignature(signature);
      if (!sx.checkSignature(xml)) {
        failures.push('a reference digest does not match');
        continue;
      }
    } catch (e) {
      failures.push((e as Error).message.replace(/signature value \S+ is/, 'signature value is'));
      continue;
    }
    const refs = sx.getSignedReferences();
    if (refs.length !== 1 || !refs[0]) throw new ReferenceMismatch('expected exactly one signed reference');
    const signedXml = refs[0];
    const element = parseXml(signedXml).documentElement as Element;
    if (
      element.localName !== target.localName ||
      element.namespaceURI !== target.namespaceURI ||
      idOf(element) !== id
    )
      throw new ReferenceMismatch('the signed content is not the element that was asked for');
    return { signedXml, element, algorithm, certificate: cert, referenceId: id };
  }
  throw new XmlSignatureInvalid(
    `signature on <${target.nodeName} ID="${id}"> does not verify with any trusted certificate${failures.length ? ` (${[...new Set(failures)].join('; ')})` : ''}`,
  );
}

function uniqueById(doc: Document, id: string): Element {
  const hits = elementsWithId(doc, id);
  if (hits.length === 0 || !hits[0]) throw new SignatureMissing(`no element with ID ${id}`);
  if (hits.length > 1)
    throw new ReferenceMismatch(`ID ${id} occurs ${hits.length} times in the document (signature wrapping)`);
  return hits[0];
}

function one(parent: Element, name: string, what: string): Element {
  const els = childElements(parent, XMLDSIG_NS, name);
  if (els.length !== 1 || !els[0])
    throw new SignatureMalformed(`${what} must contain exactly one ${name}, found ${els.length}`);
  return els[0];
}

const SIGNATURE_CHILDREN = new Set(['SignedInfo', 'SignatureValue', 'KeyInfo']);

function checkStructure(signature: Element, id: string, allowed: Set<string>) {
  const signedInfo = one(signature, 'SignedInfo', 'Signature');
  // SAML signatures have no ds:Object; a SignedInfo or a document hidden anywhere else in the
  // Signature is a wrapping attempt (CVE-2025-29774/29775 style), so refuse rather than ignore it.
  if (signature.getElementsByTagNameNS(XMLDSIG_NS, 'SignedInfo').length !== 1)
    throw new SignatureMalformed('Signature contains more than one SignedInfo (wrapped SignedInfo)');
  for (let n = signature.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && !(n.namespaceURI === XMLDSIG_NS && SIGNATURE_CHILDREN.has(n.localName ?? '')))
      throw new SignatureMalformed(`unexpected <${n.nodeName}> in Signature`);
  }
  const signatureValue = one(signature, 'SignatureValue', 'Signature').textContent ?? '';
  const c14n = one(signedInfo, 'CanonicalizationMethod', 'SignedInfo').getAttribute('Algorithm');
  if (c14n !== C14N_EXCLUSIVE)
    throw new SignatureMalformed(`SignedInfo canonicalization must be exclusive C14N, got ${c14n}`);
  const reference = one(signedInfo, 'Reference', 'SignedInfo');
  if (reference.getAttribute('URI') !== `#${id}`)
    throw new ReferenceMismatch(
      `Reference URI ${reference.getAttribute('URI')} does not point to the signed element #${id}`,
    );
  const digest = one(reference, 'DigestMethod', 'Reference').getAttribute('Algorithm');
  if (digest !== DIGEST_SHA256) throw new SignatureMalformed(`DigestMethod must be SHA-256, got ${digest}`);
  const transforms = childElements(reference, XMLDSIG_NS, 'Transforms');
  const list =
    transforms.length === 1 && transforms[0] ? childElements(transforms[0], XMLDSIG_NS, 'Transform') : [];
  const names = list.map((t) => t.getAttribute('Algorithm'));
  if (
    transforms.length !== 1 ||
    !names.includes(TRANSFORM_ENVELOPED) ||
    names.some((n) => n !== TRANSFORM_ENVELOPED && n !== C14N_EXCLUSIVE) ||
    names.length > 2
  )
    throw new SignatureMalformed(
      `Reference transforms must be enveloped-signature and exclusive C14N, got ${names.join(', ') || 'none'}`,
    );
  // Last, so that a structurally broken Signature is reported as such whatever its algorithm.
  const algorithm = one(signedInfo, 'SignatureMethod', 'SignedInfo').getAttribute('Algorithm') ?? '';
  if (!allowed.has(algorithm) || !isSignatureUri(algorithm))
    throw new XmlAlgorithmNotAllowed(`SignatureMethod ${algorithm} is not allowed`);
  return { algorithm, signatureValue };
}

/**
 * KeyInfo is a hint, never a trust anchor: if it names a certificate, that certificate must be
 * one of the trusted ones (byte-equal); otherwise every trusted certificate for the algorithm is tried.
 */
function candidateCertificates(
  signature: Element,
  trusted: ParsedCertificate[],
  alg: XmlSignatureAlg,
): ParsedCertificate[] {
  const forAlg = trusted.filter((c) => c.publicKey.alg === alg);
  const keyInfo = childElements(signature, XMLDSIG_NS, 'KeyInfo');
  const x509 = keyInfo
    .flatMap((k) => childElements(k, XMLDSIG_NS, 'X509Data'))
    .flatMap((d) => childElements(d, XMLDSIG_NS, 'X509Certificate'));
  if (x509.length > 1) throw new SignatureMalformed('KeyInfo must carry at most one X509Certificate');
  if (x509.length === 1 && x509[0]) {
    let der: Uint8Array;
    try {
      der = certificateDer(x509[0].textContent ?? '');
    } catch {
      throw new SignatureMalformed('KeyInfo X509Certificate is not valid base64');
    }
    const hit = trusted.find((c) => Buffer.from(c.der).equals(Buffer.from(der)));
    if (!hit)
      throw new CertificateNotTrusted('the certificate in KeyInfo is not one of the trusted certificates');
    if (hit.publicKey.alg !== alg)
      throw new XmlAlgorithmNotAllowed(
        `the KeyInfo certificate holds a ${hit.publicKey.alg} key, the signature says ${alg}`,
      );
    return [hit];
  }
  if (forAlg.length === 0) throw new CertificateNotTrusted(`no trusted certificate holds a ${alg} key`);
  return forAlg;
}
