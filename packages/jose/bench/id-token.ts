/**
 * A typical OpenID Connect ID token (~600 bytes of claims JSON), shared by the demo and the
 * benchmark so both measure the same payload. Values are realistic in shape and length:
 * an opaque `sub`, a random `nonce`, `sid`, `at_hash`, profile and email claims, a CDN
 * picture URL.
 */
import { randomBytes } from 'node:crypto';
import type { JwtClaims } from '../src/index.ts';

export const ISSUER = 'https://idp.example.com';
export const CLIENT_ID = 'client-4f1c2b7e9a3d';

export function typicalIdTokenClaims(now = Math.floor(Date.now() / 1000)): JwtClaims {
  const rand = (n: number) => randomBytes(n).toString('base64url');
  return {
    iss: ISSUER,
    sub: '248289761001-a6f3c9e2',
    aud: CLIENT_ID,
    exp: now + 600,
    iat: now,
    auth_time: now - 42,
    nonce: rand(16),
    sid: rand(16),
    at_hash: rand(16),
    acr: 'urn:pqid:acr:mfa',
    amr: ['pwd', 'otp'],
    name: 'Jane Marie Doe',
    given_name: 'Jane',
    family_name: 'Doe',
    preferred_username: 'jane.doe',
    email: 'jane.doe@example.com',
    email_verified: true,
    locale: 'en-US',
    zoneinfo: 'Europe/Paris',
    picture: 'https://cdn.example.com/avatars/248289761001/6f1e2c7d-4b8a-4e0f-9c3d-1a2b3c4d5e6f.jpg',
    updated_at: now - 86_400 * 30,
  };
}

export const claimsBytes = (c: JwtClaims): number => Buffer.byteLength(JSON.stringify(c));
