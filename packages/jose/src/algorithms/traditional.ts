/**
 * The traditional halves of composite ML-DSA, encoded as draft-ietf-jose-pq-composite-sigs-05
 * requires: ECDSA with DER Ecdsa-Sig-Value, X9.62 uncompressed points and the fixed-form
 * ECPrivateKey; EdDSA with raw keys and signatures. The primitives are node:crypto's.
 */
import crypto, { type KeyObject } from 'node:crypto';
import { InvalidArgument, JwkInvalid } from '../errors.ts';
import { b64u, concat, equalBytes } from '../lib/encoding.ts';
import type { Jwk } from './types.ts';

const member = (jwk: Jwk, m: string): Uint8Array => {
  const v = jwk[m];
  if (typeof v !== 'string' || !/^[A-Za-z0-9_-]+$/.test(v))
    throw new JwkInvalid(`JWK "${m}" must be base64url`);
  return new Uint8Array(Buffer.from(v, 'base64url'));
};

export interface TraditionalKey {
  privateKey?: KeyObject;
  publicKey: KeyObject;
  publicBytes: Uint8Array;
}

export interface Traditional {
  readonly name: string;
  /** JOSE algorithms a delegated signer for this half may report (its key's algorithm). */
  readonly joseAlgs: readonly string[];
  /** ECDSA: the byte length of r and s; undefined for EdDSA. */
  readonly ecdsaBytes?: number;
  /** The raw public key of this half from a component's public JWK, as -05 encodes it. */
  publicBytesOfJwk(jwk: Jwk): Uint8Array;
  /** The id backends know it by (CompositeParams.traditional). */
  readonly id: 'Ed25519' | 'ECDSA-P256' | 'ECDSA-P384' | 'Ed448';
  readonly publicKeyBytes: number;
  readonly privateKeyBytes: number;
  /** Exact for EdDSA, the DER maximum for ECDSA. */
  readonly maxSignatureBytes: number;
  unavailable(): string | undefined;
  generate(secret?: Uint8Array): { privateBytes: Uint8Array; publicBytes: Uint8Array };
  importPrivate(bytes: Uint8Array): TraditionalKey;
  /** The raw key inside the -05 private encoding (EdDSA seed, ECDSA d); JwkInvalid if malformed. */
  rawPrivate(bytes: Uint8Array): Uint8Array;
  /** node:crypto keys from the raw key (for the JS path); JwkInvalid if it is not a valid key. */
  fromRawPrivate(raw: Uint8Array): TraditionalKey;
  importPublic(bytes: Uint8Array): TraditionalKey;
  sign(key: TraditionalKey, message: Uint8Array): Uint8Array;
  verify(key: TraditionalKey, message: Uint8Array, signature: Uint8Array): boolean;
  /** The same on libuv's thread pool (node:crypto's callback form), off the event loop. */
  signAsync(key: TraditionalKey, message: Uint8Array): Promise<Uint8Array>;
  verifyAsync(key: TraditionalKey, message: Uint8Array, signature: Uint8Array): Promise<boolean>;
}

type SignKey = Parameters<typeof crypto.sign>[2];
type VerifyKey = Parameters<typeof crypto.verify>[2];

/** node:crypto's sign on the thread pool. */
function signOnPool(hash: string | null, message: Uint8Array, key: SignKey): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    crypto.sign(hash, message, key, (err, sig) => (err ? reject(err) : resolve(new Uint8Array(sig))));
  });
}

/** node:crypto's verify on the thread pool; an error (a malformed signature) is just false. */
function verifyOnPool(
  hash: string | null,
  message: Uint8Array,
  key: VerifyKey,
  sig: Uint8Array,
): Promise<boolean> {
  return new Promise((resolve) => {
    crypto.verify(hash, message, key, sig, (err, ok) => resolve(!err && ok));
  });
}

const hexBytes = (h: string) => new Uint8Array(Buffer.from(h.replace(/\s/g, ''), 'hex'));

// ---- ECDSA ------------------------------------------------------------------------------

interface Curve {
  name: 'P-256' | 'P-384';
  openssl: string;
  n: number;
  hash: 'sha256' | 'sha384';
  before: Uint8Array;
  after: Uint8Array;
}

const P256: Curve = {
  name: 'P-256',
  openssl: 'prime256v1',
  n: 32,
  hash: 'sha256',
  before: hexBytes('30 31 02 01 01 04 20'),
  after: hexBytes('A0 0A 06 08 2A 86 48 CE 3D 03 01 07'),
};
const P384: Curve = {
  name: 'P-384',
  openssl: 'secp384r1',
  n: 48,
  hash: 'sha384',
  before: hexBytes('30 3E 02 01 01 04 30'),
  after: hexBytes('A0 07 06 05 2B 81 04 00 22'),
};

/** Strict DER Ecdsa-Sig-Value → r‖s (fixed width); undefined for anything non-canonical (-05 §4.2.1). */
export function derToRaw(der: Uint8Array, n: number): Uint8Array | undefined {
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2 || (der[1] as number) >= 0x80)
    return undefined;
  const out = new Uint8Array(2 * n);
  let off = 2;
  for (let i = 0; i < 2; i++) {
    if (der[off] !== 0x02) return undefined;
    const len = der[off + 1] as number;
    const v = der.subarray(off + 2, off + 2 + len);
    if (len === 0 || v.length !== len) return undefined;
    if ((v[0] as number) & 0x80) return undefined; // negative
    if (v[0] === 0 && (len === 1 || !((v[1] as number) & 0x80))) return undefined; // non-minimal
    const mag = v[0] === 0 ? v.subarray(1) : v;
    if (mag.length > n) return undefined;
    out.set(mag, (i + 1) * n - mag.length);
    off += 2 + len;
  }
  return off === der.length ? out : undefined;
}

/** An EC key pair from the raw private scalar d. */
function ecKeyFromRaw(curve: Curve, d: Uint8Array): TraditionalKey {
  let pub: Uint8Array;
  try {
    const ecdh = crypto.createECDH(curve.openssl);
    ecdh.setPrivateKey(d);
    pub = new Uint8Array(ecdh.getPublicKey());
  } catch {
    throw new JwkInvalid(`invalid ${curve.name} private key`);
  }
  const x = b64u(pub.subarray(1, 1 + curve.n));
  const y = b64u(pub.subarray(1 + curve.n));
  const privateKey = crypto.createPrivateKey({
    key: { kty: 'EC', crv: curve.name, d: b64u(d), x, y },
    format: 'jwk',
  });
  return { privateKey, publicKey: crypto.createPublicKey(privateKey), publicBytes: pub };
}

/** d from the ECPrivateKey of a composite's "priv": exactly the -05 form, nothing else accepted. */
function ecRawPrivate(curve: Curve, bytes: Uint8Array): Uint8Array {
  const n = curve.before.length;
  if (
    bytes.length !== n + curve.n + curve.after.length ||
    !equalBytes(bytes.subarray(0, n), curve.before) ||
    !equalBytes(bytes.subarray(n + curve.n), curve.after)
  ) {
    throw new JwkInvalid(`the ${curve.name} component of "priv" is not an ECPrivateKey of the -05 form`);
  }
  return bytes.subarray(n, n + curve.n);
}

/** The uncompressed point of a composite's "pub", checked to be on the curve. */
function ecImportPublic(curve: Curve, bytes: Uint8Array): TraditionalKey {
  if (bytes.length !== 1 + 2 * curve.n || bytes[0] !== 0x04) {
    throw new JwkInvalid(`the ${curve.name} component of "pub" must be an uncompressed point (0x04‖x‖y)`);
  }
  try {
    const publicKey = crypto.createPublicKey({
      key: {
        kty: 'EC',
        crv: curve.name,
        x: b64u(bytes.subarray(1, 1 + curve.n)),
        y: b64u(bytes.subarray(1 + curve.n)),
      },
      format: 'jwk',
    });
    return { publicKey, publicBytes: bytes };
  } catch {
    throw new JwkInvalid(`the ${curve.name} component of "pub" is not a point on the curve`);
  }
}

function ecdsa(curve: Curve): Traditional {
  const ecPrivLen = curve.before.length + curve.n + curve.after.length;
  const fromRaw = (d: Uint8Array) => ecKeyFromRaw(curve, d);
  const rawPrivate = (bytes: Uint8Array) => ecRawPrivate(curve, bytes);
  return {
    name: `ECDSA ${curve.name}`,
    joseAlgs: [curve.name === 'P-256' ? 'ES256' : 'ES384'],
    ecdsaBytes: curve.n,
    publicBytesOfJwk(jwk) {
      if (jwk.kty !== 'EC' || jwk.crv !== curve.name)
        throw new JwkInvalid(`expected an EC ${curve.name} JWK`);
      const x = member(jwk, 'x');
      const y = member(jwk, 'y');
      if (x.length !== curve.n || y.length !== curve.n)
        throw new JwkInvalid(`${curve.name} coordinates are ${curve.n} bytes`);
      return concat(Uint8Array.of(4), x, y);
    },
    id: curve.name === 'P-256' ? 'ECDSA-P256' : 'ECDSA-P384',
    publicKeyBytes: 1 + 2 * curve.n,
    privateKeyBytes: ecPrivLen,
    maxSignatureBytes: 2 + 2 * (3 + curve.n),
    unavailable: () => undefined,
    generate(secret) {
      let d = secret;
      if (!d) {
        const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: curve.name });
        d = new Uint8Array(Buffer.from(privateKey.export({ format: 'jwk' }).d as string, 'base64url'));
      }
      if (d.length !== curve.n)
        throw new InvalidArgument(`${curve.name} private key must be ${curve.n} bytes`);
      const k = fromRaw(d);
      return { privateBytes: concat(curve.before, d, curve.after), publicBytes: k.publicBytes };
    },
    importPrivate: (bytes) => fromRaw(rawPrivate(bytes)),
    rawPrivate,
    fromRawPrivate: fromRaw,
    importPublic: (bytes) => ecImportPublic(curve, bytes),
    sign(key, message) {
      return new Uint8Array(
        crypto.sign(curve.hash, message, { key: key.privateKey as KeyObject, dsaEncoding: 'der' }),
      );
    },
    verify(key, message, signature) {
      const raw = derToRaw(signature, curve.n);
      if (!raw) return false;
      return crypto.verify(curve.hash, message, { key: key.publicKey, dsaEncoding: 'ieee-p1363' }, raw);
    },
    signAsync: (key, message) =>
      signOnPool(curve.hash, message, { key: key.privateKey as KeyObject, dsaEncoding: 'der' }),
    async verifyAsync(key, message, signature) {
      const raw = derToRaw(signature, curve.n);
      if (!raw) return false;
      return verifyOnPool(curve.hash, message, { key: key.publicKey, dsaEncoding: 'ieee-p1363' }, raw);
    },
  };
}

// ---- EdDSA ------------------------------------------------------------------------------

function eddsa(
  name: 'Ed25519' | 'Ed448',
  size: number,
  sigBytes: number,
  pkcs8Prefix: string,
  spkiPrefix: string,
): Traditional {
  const unavailable = () => {
    try {
      crypto.generateKeyPairSync(name.toLowerCase() as 'ed25519');
      return undefined;
    } catch {
      return `this runtime has no ${name}`;
    }
  };
  const fromSeed = (seed: Uint8Array): TraditionalKey => {
    const privateKey = crypto.createPrivateKey({
      key: Buffer.from(concat(hexBytes(pkcs8Prefix), seed)),
      format: 'der',
      type: 'pkcs8',
    });
    const publicKey = crypto.createPublicKey(privateKey);
    const der = publicKey.export({ format: 'der', type: 'spki' });
    return { privateKey, publicKey, publicBytes: new Uint8Array(der.subarray(der.length - size)) };
  };
  const rawPrivate = (bytes: Uint8Array) => {
    if (bytes.length !== size) throw new JwkInvalid(`the ${name} component of "priv" must be ${size} bytes`);
    return bytes;
  };
  return {
    name,
    joseAlgs: name === 'Ed25519' ? ['Ed25519', 'EdDSA'] : ['Ed448'],
    publicBytesOfJwk(jwk) {
      if (jwk.kty !== 'OKP' || jwk.crv !== name) throw new JwkInvalid(`expected an OKP ${name} JWK`);
      return member(jwk, 'x');
    },
    id: name,
    publicKeyBytes: size,
    privateKeyBytes: size,
    maxSignatureBytes: sigBytes,
    unavailable,
    generate(secret) {
      const seed = secret ?? crypto.getRandomValues(new Uint8Array(size));
      if (seed.length !== size) throw new InvalidArgument(`${name} private key must be ${size} bytes`);
      return { privateBytes: seed, publicBytes: fromSeed(seed).publicBytes };
    },
    importPrivate: (bytes) => fromSeed(rawPrivate(bytes)),
    rawPrivate,
    fromRawPrivate: fromSeed,
    importPublic(bytes) {
      if (bytes.length !== size) throw new JwkInvalid(`the ${name} component of "pub" must be ${size} bytes`);
      try {
        const publicKey = crypto.createPublicKey({
          key: Buffer.from(concat(hexBytes(spkiPrefix), bytes)),
          format: 'der',
          type: 'spki',
        });
        return { publicKey, publicBytes: bytes };
      } catch {
        throw new JwkInvalid(`the ${name} component of "pub" is not a valid public key`);
      }
    },
    sign(key, message) {
      return new Uint8Array(crypto.sign(null, message, key.privateKey as KeyObject));
    },
    verify(key, message, signature) {
      return signature.length === sigBytes && crypto.verify(null, message, key.publicKey, signature);
    },
    signAsync: (key, message) => signOnPool(null, message, key.privateKey as KeyObject),
    async verifyAsync(key, message, signature) {
      return signature.length === sigBytes && verifyOnPool(null, message, key.publicKey, signature);
    },
  };
}

export const TRADITIONAL = {
  'ECDSA-P256': ecdsa(P256),
  'ECDSA-P384': ecdsa(P384),
  Ed25519: eddsa('Ed25519', 32, 64, '302e020100300506032b657004220420', '302a300506032b6570032100'),
  Ed448: eddsa('Ed448', 57, 114, '3047020100300506032b6571043b0439', '3043300506032b6571033a00'),
} as const;
