// @pqid/liboqs-node public entry point. Throws LiboqsError ERR_NATIVE_UNAVAILABLE on import
// when the addon is missing (the reason recorded at install time is in the message).
import { CompositePublicKey, SecretKey, composite, configureAsyncSigning, info, scheme, stats } from './core.js';

export { LiboqsError } from './errors.js';
export { CompositePublicKey, SecretKey, composite, configureAsyncSigning, info, scheme, stats };

export const mlDsa44 = scheme('ML-DSA-44');
export const mlDsa65 = scheme('ML-DSA-65');
export const mlDsa87 = scheme('ML-DSA-87');
