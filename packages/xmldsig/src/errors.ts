/**
 * Typed errors with stable codes, on the @pqid/jose base class so the IdP maps XML and JOSE
 * failures the same way. Messages say what was wrong; the code is what callers branch on.
 */
import { PqidError } from '@pqid/jose';

/** Not acceptable XML: DOCTYPE/entities, parse errors, several roots, oversized input. */
export class XmlInvalid extends PqidError {
  static override readonly code = 'ERR_XMLDSIG_XML_INVALID';
}

/**
 * XML whose shape (elements, depth, children or attributes per element) is past the configured
 * work limits: refused before parsing, because the work it would cause grows faster than its size.
 */
export class XmlLimitExceeded extends PqidError {
  static override readonly code = 'ERR_XMLDSIG_XML_LIMIT';
}

/** A SAML message meant for another endpoint: its Destination or a bearer Recipient is not this URL. */
export class SamlMisaddressed extends PqidError {
  static override readonly code = 'ERR_XMLDSIG_SAML_MISADDRESSED';
}

/** A SAML logout message without a signature, which no SP should act on. */
export class SamlUnsigned extends PqidError {
  static override readonly code = 'ERR_XMLDSIG_SAML_UNSIGNED';
}

/** No Signature for the target element, or more than one. */
export class SignatureMissing extends PqidError {
  static override readonly code = 'ERR_XMLDSIG_SIGNATURE_MISSING';
}

/** A Signature whose structure is not the one SAML allows: several SignedInfo/References, foreign transforms, bad base64. */
export class SignatureMalformed extends PqidError {
  static override readonly code = 'ERR_XMLDSIG_SIGNATURE_MALFORMED';
}

/** The Reference does not point at the element the caller is going to use (signature wrapping). */
export class ReferenceMismatch extends PqidError {
  static override readonly code = 'ERR_XMLDSIG_REFERENCE_MISMATCH';
}

/** The SignatureMethod is not in the verifier's allow-list. */
export class XmlAlgorithmNotAllowed extends PqidError {
  static override readonly code = 'ERR_XMLDSIG_ALG_NOT_ALLOWED';
}

/** The certificate in KeyInfo is not one of the configured trusted certificates. */
export class CertificateNotTrusted extends PqidError {
  static override readonly code = 'ERR_XMLDSIG_CERT_NOT_TRUSTED';
}

/** Digest or signature value does not verify under any trusted certificate. */
export class XmlSignatureInvalid extends PqidError {
  static override readonly code = 'ERR_XMLDSIG_SIGNATURE_INVALID';
}

/** A certificate that cannot be parsed, or whose key/algorithm we do not support. */
export class CertificateInvalid extends PqidError {
  static override readonly code = 'ERR_X509_CERT_INVALID';
}
