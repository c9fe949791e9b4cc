/**
 * xml-crypto hands its algorithms whatever was put in `publicCert` / `privateKey` (typed as
 * node:crypto KeyLike, passed through untouched). These helpers turn those values into the key
 * forms our algorithms need: a certified public key for verification, a JWK for signing.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { InvalidArgument, PrivateKey } from '@pqid/jose';
import { isKeyObject, type Jwk } from '../keys.ts';
import { parseCertificate } from '../x509/parse.ts';
import { strictBase64 } from '../x509/pem.ts';
import { type CertificatePublicKey, publicKeyFromSpki } from '../x509/spki.ts';

/** Public key from a PEM certificate, PEM SPKI, or KeyObject; undefined when it is none of these. */
export function verificationKey(key: unknown): CertificatePublicKey | undefined {
  try {
    if (isKeyObject(key))
      return publicKeyFromSpki(new Uint8Array(publicKeyObject(key).export({ type: 'spki', format: 'der' })));
    const text = typeof key === 'string' ? key : Buffer.isBuffer(key) ? key.toString('latin1') : undefined;
    if (text === undefined) return undefined;
    if (text.includes('-----BEGIN CERTIFICATE-----')) return parseCertificate(text).publicKey;
    const spki = /-----BEGIN PUBLIC KEY-----([\s\S]*?)-----END PUBLIC KEY-----/.exec(text);
    const der = spki ? strictBase64(spki[1] ?? '') : undefined;
    return der ? publicKeyFromSpki(der) : undefined;
  } catch {
    // A key we cannot read verifies nothing; xml-crypto then reports an invalid signature.
    return undefined;
  }
}

function publicKeyObject(k: KeyObject): KeyObject {
  return k.type === 'private' ? createPublicKey(k) : k;
}

/**
 * The signing key xml-crypto passes back to us: a @pqid/jose PrivateKey handle as it is, or a
 * JWK object or its JSON text.
 */
export function signingKey(key: unknown): Jwk | PrivateKey {
  return key instanceof PrivateKey ? key : signingJwk(key);
}

/** The signing JWK xml-crypto passes back to us: a JWK object or its JSON text. */
export function signingJwk(key: unknown): Jwk {
  if (typeof key === 'string' && key.trimStart().startsWith('{')) return JSON.parse(key) as Jwk;
  if (key && typeof key === 'object' && !Buffer.isBuffer(key) && !isKeyObject(key) && 'kty' in key)
    return key as Jwk;
  throw new InvalidArgument(
    'this signature algorithm signs with a private JWK (set SignedXml.privateKey to the JWK)',
  );
}

/** Standard base64 SignatureValue (whitespace allowed); undefined if malformed. */
export function signatureBytes(value: string): Uint8Array | undefined {
  return strictBase64(value);
}

export function bytesOf(data: unknown): Uint8Array {
  if (typeof data === 'string') return new Uint8Array(Buffer.from(data, 'utf8'));
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new InvalidArgument('signed data must be a string or bytes');
}
