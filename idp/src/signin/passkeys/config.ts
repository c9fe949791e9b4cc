/**
 * Passkeys' configuration (`passkeys`, config/table.ts) and vocabulary (policy/passkeys.ts): the
 * ceremonies import both from here.
 */
export type { PasskeysConfig } from '../../config/types.ts';
export {
  COSE_ALG,
  isMlDsa,
  PASSKEY_ALGS,
  type PasskeyAlg,
  passkeyAlgName,
  rpIdFor,
} from '../../policy/passkeys.ts';
