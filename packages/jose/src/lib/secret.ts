/**
 * What holds a secret and must not leak it by accident: `JSON.stringify` throws, and `String()`,
 * template literals, `util.inspect` and console formats print `toString()`, a label that names
 * no secret. Getting the secret out takes the one deliberate export its package offers.
 */
import { inspect } from 'node:util';
import { SecretSerialization } from '../errors.ts';

export abstract class Secret {
  /** The deliberate way out, named in the error (e.g. "exportJWK(key)"); none if there is none. */
  protected static readonly exportedBy: string | undefined = undefined;

  toJSON(): never {
    const by = (this.constructor as typeof Secret).exportedBy;
    throw new SecretSerialization(
      `refusing to serialize ${this.toString()}${by ? `; use ${by} deliberately` : ''}`,
    );
  }

  /** A label for logs: the kind of key, its algorithm and kid, never its material. */
  abstract toString(): string;

  [inspect.custom](): string {
    return this.toString();
  }
}
