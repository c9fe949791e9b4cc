import crypto, { type KeyObject } from 'node:crypto';
import { pkcs8, spki } from './der.ts';
import { MLDSA_PARAMS, type MlDsaAlg, SLHDSA_PARAMS, type SlhDsaAlg } from './params.ts';
import type { BackendCapabilities, BackendStatus, MlDsaBackend, SlhDsaOps } from './types.ts';

/**
 * node:crypto (OpenSSL 3.5 under Node ≥ 24.7). Signs on the libuv pool through the callback form.
 * OpenSSL exposes neither deterministic signing nor caller `rnd` (ML-DSA) / opt_rand (SLH-DSA),
 * nor external μ, so those requests go elsewhere.
 */
function probe(): { status: BackendStatus } {
  const base = { name: 'node' as const };
  const none: BackendCapabilities = { rnd: false, context: false, expandedKeys: false };
  try {
    const key = crypto.createPrivateKey({
      key: Buffer.from(pkcs8('ML-DSA-44', new Uint8Array(32))),
      format: 'der',
      type: 'pkcs8',
    });
    if (key.asymmetricKeyType !== 'ml-dsa-44')
      throw new Error(`unexpected key type ${key.asymmetricKeyType}`);
    const msg = Buffer.from('probe');
    const ctx = Buffer.from('ctx');
    const pub = crypto.createPublicKey(key);
    const sig = crypto.sign(null, msg, { key, context: ctx } as crypto.SignKeyObjectInput);
    // A runtime that ignores `context` would verify without it: then it has no context support.
    const context =
      crypto.verify(null, msg, { key: pub, context: ctx } as crypto.VerifyKeyObjectInput, sig) &&
      !crypto.verify(null, msg, pub, sig);
    let expandedKeys = false;
    try {
      crypto.createPrivateKey({
        key: Buffer.from(pkcs8('ML-DSA-44', new Uint8Array(2560))),
        format: 'der',
        type: 'pkcs8',
      });
      expandedKeys = true;
    } catch {
      /* OpenSSL may refuse expanded-only keys; seeds are what JOSE uses anyway. */
    }
    return {
      status: {
        ...base,
        available: true,
        implementation: `OpenSSL ${process.versions.openssl} (node ${process.version})`,
        capabilities: {
          rnd: false,
          context,
          expandedKeys,
          ...(probeSlhDsa() ? { slhDsa: { rnd: false } } : {}),
        },
        reason: 'no deterministic signing, caller-supplied rnd or external μ in node:crypto',
      },
    };
  } catch (e) {
    return {
      status: {
        ...base,
        available: false,
        capabilities: none,
        reason: `node:crypto on Node ${process.version} (OpenSSL ${process.versions.openssl}) has no ML-DSA: ${(e as Error).message}`,
      },
    };
  }
}

/** SLH-DSA came with the same OpenSSL 3.5; a runtime that ignores `context` does not count. */
function probeSlhDsa(): boolean {
  try {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('slh-dsa-sha2-128f' as 'ed25519');
    const msg = Buffer.from('probe');
    const ctx = Buffer.from('ctx');
    const sig = crypto.sign(null, msg, { key: privateKey, context: ctx } as crypto.SignKeyObjectInput);
    return (
      crypto.verify(null, msg, { key: publicKey, context: ctx } as crypto.VerifyKeyObjectInput, sig) &&
      !crypto.verify(null, msg, publicKey, sig)
    );
  } catch {
    return false;
  }
}

let probed: { status: BackendStatus } | undefined;
const status = () => {
  probed ??= probe();
  return probed.status;
};

// A few hundred bytes of DER parsing per verify adds up at thousands of tokens per second.
const publicCache = new Map<string, KeyObject>();
function publicKeyObject(alg: MlDsaAlg | SlhDsaAlg, publicKey: Uint8Array): KeyObject {
  const id = `${alg}:${Buffer.from(publicKey).toString('base64')}`;
  let k = publicCache.get(id);
  if (!k) {
    k = crypto.createPublicKey({ key: Buffer.from(spki(alg, publicKey)), format: 'der', type: 'spki' });
    if (publicCache.size >= 64) publicCache.delete(publicCache.keys().next().value as string);
    publicCache.set(id, k);
  }
  return k;
}

const withContext = (key: KeyObject, context: Uint8Array) =>
  (context.length ? { key, context: Buffer.from(context) } : key) as crypto.SignKeyObjectInput;

const signAsync = (message: Uint8Array, key: crypto.SignKeyObjectInput) =>
  new Promise<Uint8Array>((resolve, reject) =>
    crypto.sign(null, message, key, (err, sig) =>
      err ? reject(err) : resolve(new Uint8Array(sig.buffer, sig.byteOffset, sig.byteLength)),
    ),
  );

/** The raw key bytes at the end of node's DER export (both encodings end with the raw key). */
const tail = (der: Buffer, n: number) => new Uint8Array(der.subarray(der.length - n));

const slhDsa: SlhDsaOps = {
  generate: (alg) =>
    new Promise((resolve, reject) =>
      crypto.generateKeyPair(alg.toLowerCase() as 'ed25519', {}, (err, publicKey, privateKey) => {
        if (err) return reject(err);
        const p = SLHDSA_PARAMS[alg];
        resolve({
          publicKey: tail(publicKey.export({ format: 'der', type: 'spki' }), p.publicKey),
          secretKey: tail(privateKey.export({ format: 'der', type: 'pkcs8' }), p.secretKey),
        });
      }),
    ),
  prepareSecret: (alg, sk) =>
    crypto.createPrivateKey({ key: Buffer.from(pkcs8(alg, sk)), format: 'der', type: 'pkcs8' }),
  sign: (_alg, prepared, message, { context }) =>
    signAsync(message, withContext(prepared as KeyObject, context)),
  signSync: (_alg, prepared, message, { context }) =>
    new Uint8Array(crypto.sign(null, message, withContext(prepared as KeyObject, context))),
  verifySync(alg, publicKey, message, signature, context) {
    try {
      return crypto.verify(null, message, withContext(publicKeyObject(alg, publicKey), context), signature);
    } catch {
      return false;
    }
  },
  verify(alg, publicKey, message, signature, context) {
    let key: KeyObject;
    try {
      key = publicKeyObject(alg, publicKey);
    } catch {
      return Promise.resolve(false);
    }
    return new Promise((resolve) =>
      crypto.verify(null, message, withContext(key, context), signature, (err, ok) => resolve(!err && ok)),
    );
  },
};

export const nodeBackend: MlDsaBackend = {
  name: 'node',
  slhDsa,
  status,
  publicKeyFromSeed(alg, seed) {
    const pub = crypto.createPublicKey(this.prepareSecret(alg, seed) as KeyObject);
    const der = pub.export({ format: 'der', type: 'spki' });
    return new Uint8Array(der.subarray(der.length - MLDSA_PARAMS[alg].publicKey));
  },
  prepareSecret(alg, secret) {
    return crypto.createPrivateKey({ key: Buffer.from(pkcs8(alg, secret)), format: 'der', type: 'pkcs8' });
  },
  publicKeyOf(alg, prepared) {
    const der = crypto.createPublicKey(prepared as KeyObject).export({ format: 'der', type: 'spki' });
    return new Uint8Array(der.subarray(der.length - MLDSA_PARAMS[alg].publicKey));
  },
  sign(_alg, prepared, message, { context }) {
    return signAsync(message, withContext(prepared as KeyObject, context));
  },
  signSync(_alg, prepared, message, { context }) {
    return new Uint8Array(crypto.sign(null, message, withContext(prepared as KeyObject, context)));
  },
  verifySync(alg, publicKey, message, signature, context) {
    try {
      return crypto.verify(null, message, withContext(publicKeyObject(alg, publicKey), context), signature);
    } catch {
      return false;
    }
  },
  verify(alg, publicKey, message, signature, context) {
    const key = publicKeyObject(alg, publicKey);
    return new Promise((resolve) =>
      crypto.verify(null, message, withContext(key, context), signature, (err, ok) => resolve(!err && ok)),
    );
  },
};
