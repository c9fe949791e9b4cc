/**
 * JWKs (RFC 7517) as they travel, and what makes one private: a member that holds key material
 * (RFC 7518 §6.2.2 and §6.3.2 `d`, `p`, `q`, `dp`, `dq`, `qi`, `oth`, §6.4.1 `k`; RFC 8037 `d`;
 * RFC 9964 `priv`). Signing and encryption keys share these.
 */
import { JwkInvalid } from '../errors.ts';

/** A JWK as it travels: only string members matter to us. */
export type Jwk = { kty: string; alg?: string; kid?: string; [member: string]: unknown };

/** The members whose presence makes a JWK private. */
export const PRIVATE_MEMBERS = ['priv', 'd', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;
export type PrivateMember = (typeof PRIVATE_MEMBERS)[number];

/** A private JWK: `priv` (AKP) or `d` (EC, OKP, RSA). generateKeyPair and exportJWK give these. */
export type PrivateJwk = Jwk & ({ priv: string } | { d: string });

/** A public JWK: no private member at all. */
export type PublicJwk = Jwk & { [M in PrivateMember]?: never };

/** A key pair as JWKs, each with `alg` and the same `kid` (what the generate functions give). */
export interface KeyPairJwks {
  privateJwk: PrivateJwk;
  publicJwk: PublicJwk;
}

/**
 * What a JWK of type `J` is, as far as its type can tell: 'private' with `priv` or `d`, 'public'
 * when no private member can be present, both when the type cannot say (`Jwk`, `unknown`, `any`).
 * Importing chooses the handle from it, so a type never claims more than the JWK holds.
 */
export type JwkKind<J> = unknown extends J
  ? 'public' | 'private'
  : J extends PrivateJwk
    ? 'private'
    : [J[PrivateMember & keyof J]] extends [undefined]
      ? 'public'
      : 'public' | 'private';

export const hasPrivateMember = (jwk: Jwk): boolean => PRIVATE_MEMBERS.some((m) => m in jwk);

/** The shape check every JWK import starts with. */
export function asJwk(input: unknown): Jwk {
  if (
    typeof input !== 'object' ||
    input === null ||
    Array.isArray(input) ||
    typeof (input as Jwk).kty !== 'string'
  )
    throw new JwkInvalid('a JWK must be an object with a string "kty"');
  return input as Jwk;
}
