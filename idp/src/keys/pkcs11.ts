/**
 * A PKCS#11 key provider (keys.signers.<name>.type = "pkcs11"): keys generated on a PKCS#11 3.2
 * token, non-extractable, signed there through `pkcs11js` (an optional dependency: `npm install
 * pkcs11js`). Algorithms: ML-DSA-44/65/87 (CKM_ML_DSA, pure, empty context), SLH-DSA-SHA2-128s,
 * -SHAKE-128s and -SHA2-128f (CKM_SLH_DSA) and ES256 (CKM_ECDSA_SHA256, raw r‖s). Tested against
 * kryoptic (scripts/pkcs11-token.sh builds it); Debian's SoftHSM2 2.6 has no ML-DSA.
 *
 * PKCS#11 3.2 has no external-μ mechanism and pkcs11js cannot pass a non-empty ML-DSA context,
 * so the signers say `externalMu: false, context: false`: a composite's ML-DSA half (which signs
 * with its label as context) cannot be a PKCS#11 key here, its ES256 half can.
 *
 * A key's reference is its CKA_LABEL. Signing runs on the libuv pool (C_SignAsync), one operation
 * per session, over a small pool of sessions. The user PIN comes from the environment variable
 * named in the configuration, never from the file.
 */
import { randomBytes } from 'node:crypto';
import { type DelegatedSigner, type Jwk, SignerUnsupported } from '@pqid/jose';
import { ConfigError, type ExternalSignerConfig, exportToProcessEnv } from '../config/index.ts';
import { CustodyError, type ExternalKeyProvider } from './custody.ts';

type Pkcs11Config = Extract<ExternalSignerConfig, { type: 'pkcs11' }>;
type Handle = Buffer;

/**
 * The part of pkcs11js this adapter uses, typed here: pkcs11js is an optional package (a native
 * addon built at install), so the IdP builds and runs without it, and only a pkcs11 signer needs it.
 */
interface Attribute {
  type: number;
  value?: number | boolean | string | Buffer;
}
export interface Pkcs11Api {
  load(library: string): void;
  C_Initialize(options?: { flags: number }): void;
  C_Finalize(): void;
  C_GetSlotList(tokenPresent?: boolean): Handle[];
  C_GetTokenInfo(slot: Handle): { label: string; flags: number };
  C_OpenSession(slot: Handle, flags: number): Handle;
  C_CloseSession(session: Handle): void;
  C_Login(session: Handle, userType: number, pin: string): void;
  C_Logout(session: Handle): void;
  C_InitToken(slot: Handle, soPin: string, label: string): string;
  C_InitPIN(session: Handle, pin: string): void;
  C_FindObjectsInit(session: Handle, template: Attribute[]): void;
  C_FindObjects(session: Handle, max: number): Handle[];
  C_FindObjectsFinal(session: Handle): void;
  C_GetAttributeValue(session: Handle, object: Handle, template: Attribute[]): Attribute[];
  C_GenerateKeyPair(
    session: Handle,
    mechanism: { mechanism: number },
    publicTemplate: Attribute[],
    privateTemplate: Attribute[],
  ): { publicKey: Handle; privateKey: Handle };
  C_SignInit(session: Handle, mechanism: { mechanism: number }, key: Handle): void;
  C_SignAsync(session: Handle, data: Buffer, out: Buffer): Promise<Buffer>;
}
type Pkcs11Module = { PKCS11: new () => Pkcs11Api };

/** PKCS#11 2.40 constants (pkcs11.h), the same in every module. */
export const CK = {
  CKF_OS_LOCKING_OK: 0x2,
  CKF_RW_SESSION: 0x2,
  CKF_SERIAL_SESSION: 0x4,
  CKU_SO: 0,
  CKU_USER: 1,
  CKO_PUBLIC_KEY: 2,
  CKO_PRIVATE_KEY: 3,
  CKA_CLASS: 0x0,
  CKA_TOKEN: 0x1,
  CKA_PRIVATE: 0x2,
  CKA_LABEL: 0x3,
  CKA_VALUE: 0x11,
  CKA_KEY_TYPE: 0x100,
  CKA_ID: 0x102,
  CKA_SENSITIVE: 0x103,
  CKA_SIGN: 0x108,
  CKA_VERIFY: 0x10a,
  CKA_EXTRACTABLE: 0x162,
  CKA_EC_PARAMS: 0x180,
  CKA_EC_POINT: 0x181,
} as const;

// PKCS#11 3.2 values pkcs11js 2.x does not define (OASIS pkcs11.h 3.2).
const CKK_ML_DSA = 0x4a;
const CKK_SLH_DSA = 0x4b;
const CKM_ML_DSA_KEY_PAIR_GEN = 0x1c;
const CKM_ML_DSA = 0x1d;
const CKM_SLH_DSA_KEY_PAIR_GEN = 0x2d;
const CKM_SLH_DSA = 0x2e;
const CKA_PARAMETER_SET = 0x61d;

interface AlgSpec {
  keyType: number;
  genMechanism: number;
  signMechanism: number;
  /** CKA_PARAMETER_SET, or EC parameters (DER OID) for ECDSA. */
  parameterSet?: number;
  ecParams?: Buffer;
  signatureBytes: number;
  publicJwk(raw: Buffer, alg: string): Jwk;
}

const b64uEncode = (b: Buffer) => b.toString('base64url');
const akp = (raw: Buffer, alg: string): Jwk => ({ kty: 'AKP', alg, pub: b64uEncode(raw) });
/** prime256v1 (1.2.840.10045.3.1.7) as a DER OID. */
const P256_OID = Buffer.from('06082a8648ce3d030107', 'hex');

/** CKA_EC_POINT is a DER OCTET STRING holding 04‖X‖Y. */
function ecJwk(point: Buffer): Jwk {
  const q = point[0] === 0x04 && point[1] === point.length - 2 ? point.subarray(2) : point;
  if (q.length !== 65 || q[0] !== 0x04)
    throw new CustodyError('ERR_KEY_CUSTODY', 'unexpected EC point on the token');
  return {
    kty: 'EC',
    crv: 'P-256',
    x: b64uEncode(q.subarray(1, 33)),
    y: b64uEncode(q.subarray(33)),
    alg: 'ES256',
  };
}

const SPECS: Record<string, AlgSpec> = {
  'ML-DSA-44': mlDsa(1, 2420),
  'ML-DSA-65': mlDsa(2, 3309),
  'ML-DSA-87': mlDsa(3, 4627),
  'SLH-DSA-SHA2-128s': slhDsa(1, 7856),
  'SLH-DSA-SHAKE-128s': slhDsa(2, 7856),
  'SLH-DSA-SHA2-128f': slhDsa(3, 17088),
  ES256: {
    keyType: 0x3, // CKK_EC
    genMechanism: 0x1040, // CKM_EC_KEY_PAIR_GEN
    signMechanism: 0x1044, // CKM_ECDSA_SHA256
    ecParams: P256_OID,
    signatureBytes: 64,
    publicJwk: (raw) => ecJwk(raw),
  },
};

function mlDsa(parameterSet: number, signatureBytes: number): AlgSpec {
  return {
    keyType: CKK_ML_DSA,
    genMechanism: CKM_ML_DSA_KEY_PAIR_GEN,
    signMechanism: CKM_ML_DSA,
    parameterSet,
    signatureBytes,
    publicJwk: akp,
  };
}

function slhDsa(parameterSet: number, signatureBytes: number): AlgSpec {
  return {
    keyType: CKK_SLH_DSA,
    genMechanism: CKM_SLH_DSA_KEY_PAIR_GEN,
    signMechanism: CKM_SLH_DSA,
    parameterSet,
    signatureBytes,
    publicJwk: akp,
  };
}

export const PKCS11_ALGS = Object.keys(SPECS);

function spec(alg: string): AlgSpec {
  const s = SPECS[alg];
  if (!s)
    throw new CustodyError(
      'ERR_KEY_CUSTODY',
      `the PKCS#11 signer has no ${alg}; it signs ${PKCS11_ALGS.join(', ')}`,
    );
  return s;
}

export async function loadPkcs11js(): Promise<Pkcs11Module> {
  try {
    // A variable specifier: the package is optional, and the build must not need its types.
    const name = 'pkcs11js';
    const mod = (await import(name)) as Pkcs11Module & { default?: Pkcs11Module };
    return mod.default ?? mod;
  } catch (e) {
    throw new ConfigError(
      `a pkcs11 signer needs the pkcs11js package (npm install pkcs11js): ${(e as Error).message}`,
    );
  }
}

/** Sessions to sign on concurrently: one operation at a time per PKCS#11 session. */
const SESSIONS = 4;

/**
 * One loaded module per library path in this process: C_Initialize once, C_Finalize when the
 * last provider using it closes (a second C_Initialize would fail, and a C_Finalize would end
 * every other provider's sessions).
 */
const modules = new Map<string, { p11: Pkcs11Api; users: number }>();

function acquireModule(pkcs11js: Pkcs11Module, library: string): Pkcs11Api {
  let m = modules.get(library);
  if (!m) {
    const p11 = new pkcs11js.PKCS11();
    p11.load(library);
    p11.C_Initialize({ flags: CK.CKF_OS_LOCKING_OK });
    m = { p11, users: 0 };
    modules.set(library, m);
  }
  m.users++;
  return m.p11;
}

function releaseModule(library: string): void {
  const m = modules.get(library);
  if (!m || --m.users > 0) return;
  modules.delete(library);
  m.p11.C_Finalize();
}

export async function openPkcs11Provider(
  name: string,
  cfg: Pkcs11Config,
  env: Record<string, string | undefined>,
): Promise<ExternalKeyProvider> {
  const pkcs11js = await loadPkcs11js();
  const pin = env[cfg.pinEnv];
  if (!pin) throw new ConfigError(`keys.signers.${name}: the PIN variable ${cfg.pinEnv} is not set`);
  // The module reads its own configuration from the environment when it initialises.
  exportToProcessEnv(cfg.env ?? {});
  let p11: Pkcs11Api;
  try {
    p11 = acquireModule(pkcs11js, cfg.library);
  } catch (e) {
    throw new ConfigError(
      `keys.signers.${name}: cannot load PKCS#11 module ${cfg.library}: ${(e as Error).message}`,
    );
  }
  const slot = p11.C_GetSlotList(true).find((s) => p11.C_GetTokenInfo(s).label.trim() === cfg.token);
  if (!slot) {
    releaseModule(cfg.library);
    throw new ConfigError(
      `keys.signers.${name}: no token labelled ${JSON.stringify(cfg.token)} in ${cfg.library}`,
    );
  }
  const open = () => p11.C_OpenSession(slot, CK.CKF_SERIAL_SESSION | CK.CKF_RW_SESSION);
  const main = open();
  try {
    p11.C_Login(main, CK.CKU_USER, pin);
  } catch (e) {
    // Already logged in (another provider on the same token in this process) is fine.
    if (!/USER_ALREADY_LOGGED_IN/.test(String((e as Error).message))) {
      p11.C_CloseSession(main);
      releaseModule(cfg.library);
      throw new ConfigError(
        `keys.signers.${name}: login to token ${cfg.token} failed: ${(e as Error).message}`,
      );
    }
  }
  // A pool of sessions; login state is per token, so every session of this application can sign.
  const idle: Handle[] = [main];
  const waiting: Array<(s: Handle) => void> = [];
  let opened = 1;
  const acquire = async (): Promise<Handle> => {
    const s = idle.pop();
    if (s) return s;
    if (opened < SESSIONS) {
      opened++;
      return open();
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = (s: Handle) => {
    const next = waiting.shift();
    if (next) next(s);
    else idle.push(s);
  };
  let closed = false;

  const find = (session: Handle, cls: number, label: string): Handle | undefined => {
    p11.C_FindObjectsInit(session, [
      { type: CK.CKA_CLASS, value: cls },
      { type: CK.CKA_LABEL, value: label },
    ]);
    try {
      const [h] = p11.C_FindObjects(session, 2);
      return h;
    } finally {
      p11.C_FindObjectsFinal(session);
    }
  };

  return {
    async signer(ref: string, alg: string): Promise<DelegatedSigner> {
      const s = spec(alg);
      const session = await acquire();
      let priv: Handle | undefined;
      let publicJwk: Jwk;
      try {
        priv = find(session, CK.CKO_PRIVATE_KEY, ref);
        const pub = find(session, CK.CKO_PUBLIC_KEY, ref);
        if (!priv || !pub)
          throw new CustodyError(
            'ERR_KEY_CUSTODY',
            `no key pair labelled ${JSON.stringify(ref)} on token ${cfg.token}`,
          );
        const attr = s.ecParams ? CK.CKA_EC_POINT : CK.CKA_VALUE;
        const [got] = p11.C_GetAttributeValue(session, pub, [{ type: attr }]);
        if (!Buffer.isBuffer(got?.value))
          throw new CustodyError(
            'ERR_KEY_CUSTODY',
            `the token returned no public key for ${JSON.stringify(ref)}`,
          );
        publicJwk = s.publicJwk(got.value, alg);
      } finally {
        release(session);
      }
      const key = priv;
      return {
        alg,
        publicJwk,
        capabilities: {
          message: true,
          context: false,
          externalMu: false,
          ...(s.ecParams ? { ecdsaEncoding: 'raw' as const } : {}),
        },
        async sign(req) {
          if (req.kind !== 'message') throw new SignerUnsupported('PKCS#11 3.2 has no external μ mechanism');
          if (req.context.length) throw new SignerUnsupported('this PKCS#11 signer takes no context string');
          if (closed) throw new CustodyError('ERR_KEY_CUSTODY', `the PKCS#11 signer ${name} is closed`);
          const session = await acquire();
          try {
            p11.C_SignInit(session, { mechanism: s.signMechanism }, key);
            return new Uint8Array(
              await p11.C_SignAsync(session, Buffer.from(req.message), Buffer.alloc(s.signatureBytes)),
            );
          } finally {
            release(session);
          }
        },
      };
    },

    async generate(alg: string): Promise<string> {
      const s = spec(alg);
      const label = `pqid-${alg}-${randomBytes(8).toString('hex')}`;
      const id = randomBytes(16);
      const session = await acquire();
      try {
        const typeAttrs = s.ecParams
          ? [{ type: CK.CKA_EC_PARAMS, value: s.ecParams }]
          : [{ type: CKA_PARAMETER_SET, value: s.parameterSet as number }];
        p11.C_GenerateKeyPair(
          session,
          { mechanism: s.genMechanism },
          [
            { type: CK.CKA_CLASS, value: CK.CKO_PUBLIC_KEY },
            { type: CK.CKA_KEY_TYPE, value: s.keyType },
            ...typeAttrs,
            { type: CK.CKA_TOKEN, value: true },
            { type: CK.CKA_VERIFY, value: true },
            { type: CK.CKA_LABEL, value: label },
            { type: CK.CKA_ID, value: id },
          ],
          [
            { type: CK.CKA_CLASS, value: CK.CKO_PRIVATE_KEY },
            { type: CK.CKA_KEY_TYPE, value: s.keyType },
            { type: CK.CKA_TOKEN, value: true },
            { type: CK.CKA_PRIVATE, value: true },
            // Never leaves the token: not readable, not exportable, not even wrapped.
            { type: CK.CKA_SENSITIVE, value: true },
            { type: CK.CKA_EXTRACTABLE, value: false },
            { type: CK.CKA_SIGN, value: true },
            { type: CK.CKA_LABEL, value: label },
            { type: CK.CKA_ID, value: id },
          ],
        );
      } finally {
        release(session);
      }
      return label;
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const s of idle.splice(0)) p11.C_CloseSession(s);
      releaseModule(cfg.library);
    },
  };
}
