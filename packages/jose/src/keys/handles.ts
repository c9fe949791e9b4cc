/**
 * Signing key handles. A PrivateKey keeps its material out of reach: exporting it takes an
 * explicit `exportJWK(key)`. A delegated PrivateKey (createDelegatedKey) has no secret here at
 * all: its signer holds it.
 */
import { DelegatedMaterial } from '../algorithms/delegate.ts';
import type { AlgorithmEntry } from '../algorithms/types.ts';
import { materialOf, PrivateHandle, PublicHandle } from '../lib/handles.ts';

export class PublicKey extends PublicHandle<AlgorithmEntry> {
  get pq(): boolean {
    return this.entry.pq;
  }
}

export class PrivateKey extends PrivateHandle<AlgorithmEntry, PublicKey> {
  protected static override readonly exportedBy = 'exportJWK(key)';

  get pq(): boolean {
    return this.entry.pq;
  }

  /** Signing is delegated to a signer (KMS, HSM, sealed-key store); no secret is in this process. */
  get delegated(): boolean {
    return materialOf(this) instanceof DelegatedMaterial;
  }

  toString(): string {
    return `[PrivateKey ${this.alg} ${this.kid}${this.delegated ? ' delegated' : ''}]`;
  }
}

export type KeyHandle = PublicKey | PrivateKey;
