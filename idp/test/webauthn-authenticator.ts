/**
 * A test-only WebAuthn authenticator and client in one: what a browser plus an authenticator
 * would return from navigator.credentials.create()/get(), serialised with toJSON(). It exists for
 * the credentials Chromium's virtual authenticator cannot create (ML-DSA, COSE -48/-49/-50),
 * whose keys and signatures come from @pqid/jose's ML-DSA (the project's own code, over its
 * native or noble backend), and for responses no honest browser would send: every field can be
 * overridden to build the invalid inputs the verifier must refuse. The server verifies ML-DSA
 * through @simplewebauthn/server and Node's WebCrypto (OpenSSL), an independent implementation.
 *
 * Encoding follows WebAuthn Level 3 §6.1 (authenticator data), §6.5 (attestation objects, packed
 * self attestation §8.2) and RFC 9053 / draft-ietf-cose-dilithium for the COSE keys; CBOR is
 * written here (RFC 8949, CTAP2 canonical key order) rather than borrowed from the library.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { type MlDsaAlg, mldsa } from '@pqid/jose';

export type SoftAlg = 'ML-DSA-44' | 'ML-DSA-65' | 'ML-DSA-87' | 'EdDSA' | 'ES256' | 'RS256';
const COSE: Record<SoftAlg, number> = {
  'ML-DSA-44': -48,
  'ML-DSA-65': -49,
  'ML-DSA-87': -50,
  EdDSA: -8,
  ES256: -7,
  RS256: -257,
};

// ---- CBOR (the subset WebAuthn uses) -------------------------------------------------------

type Cbor = number | string | Uint8Array | Cbor[] | Map<number | string, Cbor>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

export function cbor(v: Cbor): Buffer {
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === 'string') {
    const b = Buffer.from(v, 'utf8');
    return Buffer.concat([head(3, b.length), b]);
  }
  if (v instanceof Uint8Array) return Buffer.concat([head(2, v.length), v]);
  if (Array.isArray(v)) return Buffer.concat([head(4, v.length), ...v.map(cbor)]);
  // Map: keys in the order given (callers give CTAP2 canonical order).
  return Buffer.concat([head(5, v.size), ...[...v].flatMap(([k, val]) => [cbor(k), cbor(val)])]);
}

// ---- keys --------------------------------------------------------------------------------------

interface KeyPair {
  alg: SoftAlg;
  /** COSE_Key of the public key. */
  cose: Buffer;
  sign(data: Buffer): Promise<Buffer>;
}

const b64uToBuf = (s: string) => Buffer.from(s, 'base64url');

async function keyPair(alg: SoftAlg): Promise<KeyPair> {
  if (alg.startsWith('ML-DSA-')) {
    const a = alg as MlDsaAlg;
    const { publicKey, secretKey } = await mldsa.keygen(a, randomBytes(32));
    return {
      alg,
      cose: cbor(
        new Map<number, Cbor>([
          [1, 7],
          [3, COSE[alg]],
          [-1, publicKey],
        ]),
      ),
      // Pure ML-DSA, empty context, hedged: as an authenticator signs (draft-ietf-cose-dilithium).
      sign: async (data) => Buffer.from(await mldsa.sign(a, secretKey, data)),
    };
  }
  let priv: KeyObject;
  let cose: Buffer;
  if (alg === 'EdDSA') {
    const kp = generateKeyPairSync('ed25519');
    priv = kp.privateKey;
    const x = b64uToBuf(kp.publicKey.export({ format: 'jwk' }).x as string);
    cose = cbor(
      new Map<number, Cbor>([
        [1, 1],
        [3, -8],
        [-1, 6],
        [-2, x],
      ]),
    );
    return { alg, cose, sign: async (data) => sign(null, data, priv) };
  }
  if (alg === 'ES256') {
    const kp = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    priv = kp.privateKey;
    const jwk = kp.publicKey.export({ format: 'jwk' });
    cose = cbor(
      new Map<number, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, b64uToBuf(jwk.x as string)],
        [-3, b64uToBuf(jwk.y as string)],
      ]),
    );
    // WebAuthn ES256 signatures are ASN.1 DER (§6.5.6).
    return { alg, cose, sign: async (data) => sign('sha256', data, { key: priv, dsaEncoding: 'der' }) };
  }
  const kp = generateKeyPairSync('rsa', { modulusLength: 2048 });
  priv = kp.privateKey;
  const jwk = kp.publicKey.export({ format: 'jwk' });
  cose = cbor(
    new Map<number, Cbor>([
      [1, 3],
      [3, -257],
      [-1, b64uToBuf(jwk.n as string)],
      [-2, b64uToBuf(jwk.e as string)],
    ]),
  );
  return { alg, cose, sign: async (data) => sign('sha256', data, priv) };
}

// ---- the authenticator ------------------------------------------------------------------------

export interface SoftCredential {
  id: Buffer;
  key: KeyPair;
  userHandle: Buffer;
  rpId: string;
  counter: number;
}

export interface SoftAuthenticatorOptions {
  /** The origin the "browser" reports (the IdP's). */
  origin: string;
  /** Backup eligible (a synced passkey): the server reports it as `swk`. Default true. */
  backupEligible?: boolean;
  /** Performs user verification (PIN/biometric). Default true. */
  userVerification?: boolean;
  /** Keeps a signature counter (else always 0, like most passkeys). Default true. */
  counter?: boolean;
  /** Attestation format: `none`, or `packed` self attestation signed by the credential key. */
  fmt?: 'none' | 'packed';
}

/** Overrides for one response: a field an honest client would never send. */
export interface Tamper {
  type?: string;
  challenge?: string;
  origin?: string;
  crossOrigin?: boolean;
  topOrigin?: string;
  rpId?: string;
  up?: boolean;
  uv?: boolean;
  be?: boolean;
  bs?: boolean;
  counter?: number;
  /** Flip a bit of the signature. */
  badSignature?: boolean;
  /** Sign with this credential's key but report another credential ID. */
  id?: string;
  /** Replace the user handle (null: leave it out). */
  userHandle?: string | null;
  /** Replace the credential public key in the attestation (registration only). */
  cose?: Buffer;
  /** Use this credential ID (registration only): to register one ID twice. */
  credentialId?: Buffer;
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();
const b64u = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const AAGUID = Buffer.from('7071696474657374736f667461757468', 'hex'); // "pqidtestsoftauth"

/** The JSON creation options the server sends (the members the authenticator reads). */
export interface CreationOptions {
  rp: { id?: string };
  user: { id: string };
  challenge: string;
  pubKeyCredParams: Array<{ alg: number }>;
  excludeCredentials?: Array<{ id: string }>;
}

/** The JSON request options the server sends (the members the authenticator reads). */
export interface RequestOptions {
  rpId?: string;
  challenge: string;
  allowCredentials?: Array<{ id: string }>;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];
  readonly #o: Required<SoftAuthenticatorOptions>;

  constructor(opts: SoftAuthenticatorOptions) {
    this.#o = { backupEligible: true, userVerification: true, counter: true, fmt: 'none', ...opts };
  }

  /** The `i`th credential made (base64url ID, as the server stores it). */
  credential(i = 0): SoftCredential & { b64: string } {
    const c = this.credentials[i];
    if (!c) throw new Error(`no credential ${i}`);
    return Object.assign(c, { b64: b64u(c.id) });
  }

  #clientData(type: string, challenge: string, t: Tamper): Buffer {
    return Buffer.from(
      JSON.stringify({
        type: t.type ?? type,
        challenge: t.challenge ?? challenge,
        origin: t.origin ?? this.#o.origin,
        crossOrigin: t.crossOrigin ?? false,
        ...(t.topOrigin !== undefined ? { topOrigin: t.topOrigin } : {}),
      }),
    );
  }

  #flags(t: Tamper, attested: boolean): number {
    const up = t.up ?? true;
    const uv = t.uv ?? this.#o.userVerification;
    const be = t.be ?? this.#o.backupEligible;
    const bs = t.bs ?? be;
    return (up ? 0x01 : 0) | (uv ? 0x04 : 0) | (be ? 0x08 : 0) | (bs ? 0x10 : 0) | (attested ? 0x40 : 0);
  }

  /** navigator.credentials.create() for these (JSON) creation options. */
  async create(options: CreationOptions, alg: SoftAlg, t: Tamper = {}) {
    if (!options.pubKeyCredParams.some((p) => p.alg === COSE[alg]) && t.cose === undefined)
      throw new Error(`the server did not offer ${alg}`);
    const rpId = options.rp.id as string;
    if (options.excludeCredentials?.some((c) => this.credentials.some((k) => b64u(k.id) === c.id)))
      throw Object.assign(new Error('excluded'), { name: 'InvalidStateError' });
    const key = await keyPair(alg);
    const cred: SoftCredential = {
      id: t.credentialId ?? randomBytes(alg.startsWith('ML-DSA') ? 32 : 16),
      key,
      userHandle: b64uToBuf(options.user.id),
      rpId,
      counter: 0,
    };
    const clientDataJSON = this.#clientData('webauthn.create', options.challenge, t);
    const idLen = Buffer.alloc(2);
    idLen.writeUInt16BE(cred.id.length);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(t.counter ?? 0);
    const authData = Buffer.concat([
      sha256(t.rpId ?? rpId),
      Buffer.from([this.#flags(t, true)]),
      count,
      AAGUID,
      idLen,
      cred.id,
      t.cose ?? key.cose,
    ]);
    const attStmt = new Map<string, Cbor>();
    if (this.#o.fmt === 'packed') {
      attStmt.set('alg', COSE[alg]);
      let sig = await key.sign(Buffer.concat([authData, sha256(clientDataJSON)]));
      if (t.badSignature) sig = flip(sig);
      attStmt.set('sig', sig);
    }
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', this.#o.fmt],
        ['attStmt', attStmt],
        ['authData', authData],
      ]),
    );
    this.credentials.push(cred);
    const id = t.id ?? b64u(cred.id);
    return {
      id,
      rawId: id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: { credProps: { rk: true } },
      response: {
        clientDataJSON: b64u(clientDataJSON),
        attestationObject: b64u(attestationObject),
        transports: ['internal', 'hybrid'],
      },
    };
  }

  /** navigator.credentials.get() for these (JSON) request options. */
  async get(options: RequestOptions, t: Tamper = {}, which?: SoftCredential) {
    const allowed = options.allowCredentials?.length
      ? this.credentials.filter((c) => options.allowCredentials?.some((a) => a.id === b64u(c.id)))
      : this.credentials.filter((c) => c.rpId === options.rpId);
    const cred = which ?? allowed[allowed.length - 1];
    if (!cred) throw Object.assign(new Error('no credential'), { name: 'NotAllowedError' });
    if (this.#o.counter && t.counter === undefined) cred.counter += 1;
    const clientDataJSON = this.#clientData('webauthn.get', options.challenge, t);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(t.counter ?? (this.#o.counter ? cred.counter : 0));
    const authData = Buffer.concat([
      sha256(t.rpId ?? cred.rpId),
      Buffer.from([this.#flags(t, false)]),
      count,
    ]);
    let signature = await cred.key.sign(Buffer.concat([authData, sha256(clientDataJSON)]));
    if (t.badSignature) signature = flip(signature);
    const id = t.id ?? b64u(cred.id);
    const userHandle = t.userHandle === null ? undefined : (t.userHandle ?? b64u(cred.userHandle));
    return {
      id,
      rawId: id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        ...(userHandle !== undefined ? { userHandle } : {}),
      },
    };
  }
}

function flip(sig: Buffer): Buffer {
  const out = Buffer.from(sig);
  out[out.length >> 1] = (out[out.length >> 1] as number) ^ 0x01;
  return out;
}
