/** Signing a JWS input with a key handle, local or delegated: the one path every JWS signer takes. */
import { DelegatedMaterial } from '../algorithms/delegate.ts';
import type { SigningInput, SignOptions } from '../algorithms/types.ts';
import { SignerInvalidSignature } from '../errors.ts';
import { materialOf, type PrivateKey } from './handles.ts';

export async function signInput(
  key: PrivateKey,
  input: SigningInput,
  opts: SignOptions,
): Promise<Uint8Array> {
  const m = materialOf(key);
  if (!(m instanceof DelegatedMaterial)) return key.entry.sign(m, input, opts);
  const sig = await key.entry.signDelegated(m, input);
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
