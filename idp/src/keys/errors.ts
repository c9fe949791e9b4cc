/** The key manager's refusals: each a stable code the HTTP mapper and the CLI both understand. */
import { IdpError } from '../errors/index.ts';
import { isKeySet, KEY_SETS, type KeySet } from '../policy/key-sets.ts';

export class UnknownSigningAlgorithm extends IdpError<'ERR_ALG_UNAVAILABLE'> {
  constructor(message: string) {
    super('ERR_ALG_UNAVAILABLE', message);
  }
}

export class RotationPending extends IdpError<'ERR_ROTATION_PENDING'> {
  constructor(message: string) {
    super('ERR_ROTATION_PENDING', message);
  }
}

export class UnknownKeySet extends IdpError<'ERR_KEY_SET_UNKNOWN'> {
  constructor(message: string) {
    super('ERR_KEY_SET_UNKNOWN', message);
  }
}

export class UnknownKey extends IdpError<'ERR_KEY_UNKNOWN'> {
  constructor(message: string) {
    super('ERR_KEY_UNKNOWN', message);
  }
}

/** `pqid keys remove` of a key that signs now: rotate first. */
export class KeyActive extends IdpError<'ERR_KEY_ACTIVE'> {
  constructor(message: string) {
    super('ERR_KEY_ACTIVE', message);
  }
}

/** `set` as a key set; operator commands list the choices (`choices`), internal callers do not. */
export function checkKeySet(set: unknown, choices: boolean): asserts set is KeySet {
  if (!isKeySet(set))
    throw new UnknownKeySet(
      `unknown key set ${JSON.stringify(set)}${choices ? `; one of ${KEY_SETS.join(', ')}` : ''}`,
    );
}
