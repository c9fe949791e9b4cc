/**
 * xml-crypto `SignatureAlgorithm` classes for ML-DSA-44/65/87, SLH-DSA, ECDSA-SHA256 and RSA-SHA256.
 *
 * xml-crypto instantiates an algorithm with `new Algo()` from the per-instance map
 * `SignedXml#SignatureAlgorithms[uri]`, then calls `getSignature(canonicalSignedInfo, privateKey)`
 * or `verifySignature(canonicalSignedInfo, key, base64SignatureValue)` synchronously, with the
 * key being whatever was set as `privateKey` / `publicCert` on that instance. Hence: classes made
 * by factories (so a trust filter can be baked in), synchronous @pqid/jose calls, and key
 * material resolved from PEM/JWK here. A @pqid/jose PrivateKey handle signs through the
 * asynchronous path only (a delegated key's signer is asynchronous by nature).
 */
import { type BinaryLike, type KeyLike, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import {
  InvalidArgument,
  type MlDsaAlg,
  mldsa,
  PrivateKey,
  type SlhDsaAlg,
  signMessage,
  slhdsa,
} from '@pqid/jose';
import type { ErrorFirstCallback, SignatureAlgorithm } from 'xml-crypto';
import { classicalPrivateKey, isMlDsa, isSlhDsa, slhDsaSecretKey } from '../keys.ts';
import { preparedMlDsaKey } from '../signing-keys.ts';
import { SIGNATURE_URIS, type XmlSignatureAlg } from '../uris.ts';
import { type CertificatePublicKey, classicalKeyObject } from '../x509/spki.ts';
import { bytesOf, signatureBytes, signingJwk, signingKey, verificationKey } from './key-material.ts';

/** Extra gate on the verification key (the node-saml integration uses it to pin certificates). */
export type KeyFilter = (key: CertificatePublicKey) => boolean;

export interface AlgorithmOptions {
  acceptKey?: KeyFilter;
  /** Register for verification only: getSignature throws. */
  verifyOnly?: boolean;
}

export type SignatureAlgorithmClass = new () => SignatureAlgorithm;

type SignFn = (data: Uint8Array, privateKey: unknown) => Uint8Array;
type SignAsyncFn = (data: Uint8Array, privateKey: unknown) => Promise<Uint8Array>;

function algorithmClass(
  alg: XmlSignatureAlg,
  sign: SignFn,
  verify: (data: Uint8Array, key: CertificatePublicKey, sig: Uint8Array) => boolean,
  opts: AlgorithmOptions,
  signAsync: SignAsyncFn = async (d, k) => sign(d, k),
): SignatureAlgorithmClass {
  const uri = SIGNATURE_URIS[alg];
  return class implements SignatureAlgorithm {
    /**
     * Without a callback (xml-crypto's synchronous computeSignature) this signs on the calling
     * thread. With one (computeSignature(xml, opts, cb), used by signXmlAsync) it signs through
     * @pqid/jose's async path, which runs ML-DSA off the event loop on the native backend.
     */
    getSignature(signedInfo: BinaryLike, privateKey: KeyLike, callback?: ErrorFirstCallback<string>): string {
      if (opts.verifyOnly) throw new Error(`${uri} is registered for verification only`);
      if (callback) {
        signAsync(bytesOf(signedInfo), privateKey).then(
          (sig) => callback(null, Buffer.from(sig).toString('base64')),
          (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
        );
        return '';
      }
      return Buffer.from(sign(bytesOf(signedInfo), privateKey)).toString('base64');
    }

    verifySignature(
      material: string,
      key: KeyLike,
      signatureValue: string,
      callback?: ErrorFirstCallback<boolean>,
    ): boolean {
      const ok = check(material, key, signatureValue);
      callback?.(null, ok);
      return ok;
    }

    getAlgorithmName(): string {
      return uri;
    }
  };

  function check(material: string, key: unknown, signatureValue: string): boolean {
    const pk = verificationKey(key);
    // Key-type confusion guard: an ML-DSA-65 URI verifies only with an ML-DSA-65 key, and so on.
    if (!pk || pk.alg !== alg) return false;
    if (opts.acceptKey && !opts.acceptKey(pk)) return false;
    const sig = signatureBytes(signatureValue);
    if (!sig) return false;
    try {
      return verify(bytesOf(material), pk, sig);
    } catch {
      return false;
    }
  }
}

function jwkFor(alg: string, key: unknown) {
  const jwk = signingJwk(key);
  if (jwk.alg !== alg) throw new Error(`key is for ${String(jwk.alg)}, not ${alg}`);
  return jwk;
}

/** A @pqid/jose handle for `alg`: signs through signMessage (asynchronous only). */
function handleFor(alg: string, key: PrivateKey): PrivateKey {
  if (key.alg !== alg) throw new Error(`key is for ${key.alg}, not ${alg}`);
  return key;
}
const noSyncHandles = () => {
  throw new InvalidArgument('a @pqid/jose PrivateKey handle signs asynchronously: use signXmlAsync');
};

/**
 * Pure ML-DSA (FIPS 204) with the empty context over the canonical SignedInfo octets. A key is
 * never expanded per signature: a handle brings its prepared key, a JWK is prepared once.
 */
export function mlDsaAlgorithm(alg: MlDsaAlg, opts: AlgorithmOptions = {}): SignatureAlgorithmClass {
  return algorithmClass(
    alg,
    (data, key) =>
      key instanceof PrivateKey ? noSyncHandles() : mldsa.signSync(alg, preparedMlDsaKey(alg, key), data),
    (data, pk, sig) => !!pk.raw && mldsa.verifySync(alg, pk.raw, data, sig),
    opts,
    async (data, key) => {
      const k = signingKey(key);
      return k instanceof PrivateKey
        ? signMessage(handleFor(alg, k), data)
        : mldsa.sign(alg, preparedMlDsaKey(alg, k), data);
    },
  );
}

/** Pure SLH-DSA (FIPS 205) with the empty context over the canonical SignedInfo octets. */
export function slhDsaAlgorithm(alg: SlhDsaAlg, opts: AlgorithmOptions = {}): SignatureAlgorithmClass {
  return algorithmClass(
    alg,
    (data, key) =>
      key instanceof PrivateKey
        ? noSyncHandles()
        : slhdsa.signSync(alg, slhDsaSecretKey(jwkFor(alg, key), alg), data),
    (data, pk, sig) => !!pk.raw && slhdsa.verifySync(alg, pk.raw, data, sig),
    opts,
    async (data, key) => {
      const k = signingKey(key);
      return k instanceof PrivateKey
        ? signMessage(handleFor(alg, k), data)
        : slhdsa.sign(alg, slhDsaSecretKey(jwkFor(alg, k), alg), data);
    },
  );
}

/**
 * ECDSA P-256 with SHA-256. RFC 9231 §2.3.6 (from RFC 4050): the SignatureValue is the
 * concatenation r‖s, each left-padded to 32 octets — not the DER SEQUENCE X.509 uses.
 */
export function ecdsaSha256Algorithm(opts: AlgorithmOptions = {}): SignatureAlgorithmClass {
  const sign = (data: Uint8Array, key: unknown) =>
    key instanceof PrivateKey
      ? noSyncHandles()
      : new Uint8Array(
          nodeSign('sha256', data, { key: classicalPrivateKey(key), dsaEncoding: 'ieee-p1363' }),
        );
  return algorithmClass(
    'ES256',
    sign,
    (data, pk, sig) =>
      sig.length === 64 &&
      nodeVerify('sha256', data, { key: classicalKeyObject(pk), dsaEncoding: 'ieee-p1363' }, sig),
    opts,
    async (data, key) =>
      key instanceof PrivateKey
        ? signMessage(handleFor('ES256', key), data, { ecdsaEncoding: 'raw' })
        : sign(data, key),
  );
}

/**
 * RSA-SHA256 (PKCS#1 v1.5). xml-crypto has one, but it hands any key to node:crypto, which would
 * happily run ECDSA for an EC key under an rsa-sha256 URI; ours insists on an RSA key.
 */
export function rsaSha256Algorithm(opts: AlgorithmOptions = {}): SignatureAlgorithmClass {
  const sign = (data: Uint8Array, key: unknown) =>
    key instanceof PrivateKey
      ? noSyncHandles()
      : new Uint8Array(nodeSign('sha256', data, classicalPrivateKey(key)));
  return algorithmClass(
    'RS256',
    sign,
    (data, pk, sig) => nodeVerify('sha256', data, classicalKeyObject(pk), sig),
    opts,
    async (data, key) =>
      key instanceof PrivateKey ? signMessage(handleFor('RS256', key), data) : sign(data, key),
  );
}

export function algorithmFor(alg: XmlSignatureAlg, opts: AlgorithmOptions = {}): SignatureAlgorithmClass {
  if (isMlDsa(alg)) return mlDsaAlgorithm(alg, opts);
  if (isSlhDsa(alg)) return slhDsaAlgorithm(alg, opts);
  return alg === 'ES256' ? ecdsaSha256Algorithm(opts) : rsaSha256Algorithm(opts);
}

/** `SignatureAlgorithms` entries for every algorithm we provide, keyed by URI. */
export function signatureAlgorithmMap(
  algs: readonly XmlSignatureAlg[] = Object.keys(SIGNATURE_URIS) as XmlSignatureAlg[],
  opts: AlgorithmOptions = {},
): Record<string, SignatureAlgorithmClass> {
  return Object.fromEntries(algs.map((a) => [SIGNATURE_URIS[a], algorithmFor(a, opts)]));
}
