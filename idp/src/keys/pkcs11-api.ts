/**
 * The part of PKCS#11 the pkcs11 signer uses (pkcs11.ts): pkcs11js's interface and the PKCS#11
 * constants, typed here, and loading the optional package.
 */
import { ConfigError } from '../config/index.ts';

export type Handle = Buffer;

/**
 * The part of pkcs11js this adapter uses, typed here: pkcs11js is an optional package (a native
 * addon built at install), so the IdP builds and runs without it, and only a pkcs11 signer needs it.
 */
export interface Attribute {
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
export type Pkcs11Module = { PKCS11: new () => Pkcs11Api };

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
