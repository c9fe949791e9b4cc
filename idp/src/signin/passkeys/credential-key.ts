/**
 * The credential public key a registration carries (a COSE_Key), checked before it is stored:
 * its key type, curve and sizes must match its algorithm, and a classical key must import. With
 * attestation `none` nothing else looks at the key until the first sign-in, which would then
 * fail for good; refusing it at registration tells the user while they can still act.
 */
import { createPublicKey } from 'node:crypto';
import { MLDSA_PARAMS } from '@pqid/jose';
import { decodeCredentialPublicKey } from '@simplewebauthn/server/helpers';
import { COSE_ALG, passkeyAlgName } from './config.ts';
import { PasskeyError } from './errors.ts';

const KTY = { OKP: 1, EC2: 2, RSA: 3, AKP: 7 } as const;
const b64u = (b: Uint8Array) => Buffer.from(b).toString('base64url');

function bytes(key: Map<number, unknown>, label: number, what: string, length?: number): Uint8Array {
  const v = key.get(label);
  if (!(v instanceof Uint8Array) || (length !== undefined && v.length !== length))
    throw new PasskeyError('invalid_key', `${what} must be ${length ?? 'a byte string of'} bytes`);
  return v;
}

/** The key's COSE algorithm, when the key is well-formed for it; PasskeyError otherwise. */
export function checkCredentialKey(cose: Uint8Array): number {
  let key: Map<number, unknown>;
  try {
    key = decodeCredentialPublicKey(cose as Uint8Array<ArrayBuffer>) as unknown as Map<number, unknown>;
  } catch {
    throw new PasskeyError('invalid_key', 'the credential public key is not CBOR');
  }
  if (!(key instanceof Map))
    throw new PasskeyError('invalid_key', 'the credential public key is not a COSE_Key');
  const alg = key.get(3);
  const name = typeof alg === 'number' ? passkeyAlgName(alg) : undefined;
  if (name === undefined)
    throw new PasskeyError('unsupported_algorithm', `COSE alg ${String(alg)} is not supported`);
  const kty = key.get(1);
  try {
    switch (name) {
      case 'ML-DSA-44':
      case 'ML-DSA-65':
      case 'ML-DSA-87':
        if (kty !== KTY.AKP) throw new PasskeyError('invalid_key', `${name} needs kty AKP (7)`);
        // Every byte string of the right length is a valid ML-DSA public key encoding (FIPS 204).
        bytes(key, -1, `${name} pub`, MLDSA_PARAMS[name].publicKey);
        break;
      case 'EdDSA':
        if (kty !== KTY.OKP || key.get(-1) !== 6)
          throw new PasskeyError('invalid_key', 'EdDSA needs an Ed25519 OKP key');
        createPublicKey({
          key: { kty: 'OKP', crv: 'Ed25519', x: b64u(bytes(key, -2, 'x', 32)) },
          format: 'jwk',
        });
        break;
      case 'ES256':
        if (kty !== KTY.EC2 || key.get(-1) !== 1)
          throw new PasskeyError('invalid_key', 'ES256 needs a P-256 EC2 key');
        createPublicKey({
          key: {
            kty: 'EC',
            crv: 'P-256',
            x: b64u(bytes(key, -2, 'x', 32)),
            y: b64u(bytes(key, -3, 'y', 32)),
          },
          format: 'jwk',
        });
        break;
      case 'RS256': {
        if (kty !== KTY.RSA) throw new PasskeyError('invalid_key', 'RS256 needs an RSA key');
        const n = bytes(key, -1, 'n');
        const pub = createPublicKey({
          key: { kty: 'RSA', n: b64u(n), e: b64u(bytes(key, -2, 'e')) },
          format: 'jwk',
        });
        if ((pub.asymmetricKeyDetails?.modulusLength ?? 0) < 2048)
          throw new PasskeyError('invalid_key', 'RSA keys must have at least 2048 bits');
        break;
      }
    }
  } catch (e) {
    if (e instanceof PasskeyError) throw e;
    throw new PasskeyError('invalid_key', `the ${name} key does not import: ${(e as Error).message}`);
  }
  return COSE_ALG[name];
}
