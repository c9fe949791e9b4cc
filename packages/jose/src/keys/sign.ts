/** Signing a JWS input with a key handle, local or delegated: the one path every JWS signer takes. */
import { constants, createPublicKey, type JsonWebKey, verify as nodeVerify } from 'node:crypto';
import {
  callSigner,
  DelegatedMaterial,
  type DelegatedSigner,
  ecdsaFromSigner,
  isCompositeSigners,
} from '../algorithms/delegate.ts';
import type { SigningInput, SignOptions } from '../algorithms/types.ts';
import { InvalidArgument, SignerInvalidSignature, SignerUnsupported } from '../errors.ts';
import { isBytes } from '../lib/encoding.ts';
import { materialOf } from '../lib/handles.ts';
import { PrivateKey } from './handles.ts';
import { localSigner, NODE_HASH } from './signer.ts';

export async function signInput(
  key: PrivateKey,
  input: SigningInput,
  opts: SignOptions,
): Promise<Uint8Array> {
  const m = materialOf(key);
  if (!(m instanceof DelegatedMaterial)) return key.entry.sign(m, input, opts);
  if (opts.deterministic) {
    const pq = isCompositeSigners(m.signers) ? m.signers.mldsa : m.signers;
    if (!pq.capabilities.deterministic)
      throw new SignerUnsupported(`the signer of ${key.kid} does not sign deterministically`);
  }
  const sig = m.local ? await key.entry.sign(m.local, input, opts) : await key.entry.signDelegated(m, input);
  if (!key.entry.plausibleSignature(sig))
    throw new SignerInvalidSignature(
      `the signer of ${key.kid} returned a ${sig.length}-byte ${key.alg} signature`,
    );
  // A signer answering with another key's signature (a mis-mapped KMS key id, a faulty HSM)
  // would have us issue tokens nobody can verify: check before anything leaves.
  if (m.verify && !(await key.entry.verify(m.publicMaterial, input, sig)))
    throw new SignerInvalidSignature(
      `the signer of ${key.kid} returned a ${key.alg} signature that does not verify`,
    );
  return sig;
}

export interface SignMessageOptions {
  /** ECDSA output: X.509 wants DER (the default), XML-DSig raw r‖s (RFC 4050). */
  ecdsaEncoding?: 'der' | 'raw';
  /** Local PQ keys: deterministic signing (ML-DSA rnd = 0, SLH-DSA opt_rand = PK.seed). */
  deterministic?: boolean;
}

const EMPTY = new Uint8Array(0);

/**
 * A raw signature over `message` with a key handle, the way X.509 (RFC 9881, RFC 9909, RFC 5758)
 * and XML-DSig use the key's algorithm: pure ML-DSA / SLH-DSA with the empty context, ECDSA
 * with the curve's hash, EdDSA, RSA PKCS#1 v1.5 (RS256) or PSS (PS256) with SHA-256. Local and
 * delegated keys alike; a delegated signature is verified before it is returned.
 */
export async function signMessage(
  key: PrivateKey,
  message: Uint8Array,
  opts: SignMessageOptions = {},
): Promise<Uint8Array> {
  if (!(key instanceof PrivateKey)) throw new InvalidArgument('signMessage needs a PrivateKey handle');
  if (!isBytes(message)) throw new InvalidArgument('message must be a Uint8Array');
  const { entry } = key;
  const m = materialOf(key);
  if (entry.family === 'composite')
    throw new InvalidArgument(`${key.alg}: composite signatures have no X.509 or XML-DSig identifier here`);
  if (entry.family === 'ml-dsa' || entry.family === 'slh-dsa') {
    // The PQ entries sign exactly input.bytes: a bare input is the message itself.
    const input = { bytes: message } as SigningInput;
    if (!(m instanceof DelegatedMaterial))
      return entry.sign(m, input, opts.deterministic ? { deterministic: true } : {});
    return signInput(key, input, opts.deterministic ? { deterministic: true } : {});
  }
  const signer = m instanceof DelegatedMaterial ? m.key : (localSigner(key) as DelegatedSigner);
  const raw = await callSigner(signer, { kind: 'message', message, context: EMPTY });
  const n = entry.kty === 'EC' ? entry.sizes.privateKey : 0;
  const sig = n ? ecdsaFromSigner(signer, raw, n, opts.ecdsaEncoding ?? 'der') : raw;
  if (m instanceof DelegatedMaterial && m.verify) {
    const pub = createPublicKey({ key: key.publicKey.jwk as JsonWebKey, format: 'jwk' });
    const der = n && opts.ecdsaEncoding === 'raw' ? { key: pub, dsaEncoding: 'ieee-p1363' as const } : pub;
    const hash = NODE_HASH[key.alg] ?? null;
    const k =
      key.alg === 'PS256' ? { key: pub, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } : der;
    if (!nodeVerify(hash, message, k, sig))
      throw new SignerInvalidSignature(
        `the signer of ${key.kid} returned a ${key.alg} signature that does not verify`,
      );
  }
  return sig;
}
