/**
 * JWTs over compact JWS. Claim validation is jose's own: after our signature check, the
 * verified payload is handed to jose's `UnsecuredJWT.decode`, which runs exactly the checks
 * `jwtVerify` runs (iss, aud, sub, exp, nbf, iat, maxTokenAge, clockTolerance, requiredClaims).
 */
import * as jose from 'jose';
import type { SignOptions } from './algorithms/types.ts';
import { InvalidArgument, JwtClaimValidationFailed, JwtExpired, JwtInvalid } from './errors.ts';
import {
  type CompactVerifyOptions,
  type CompactVerifyResult,
  signCompact,
  verifyCompact,
} from './jws/compact.ts';
import type { VerificationKey } from './jws/verification-keys.ts';
import type { PrivateKey } from './keys/handles.ts';
import { importJWK } from './keys/jwk.ts';
import { b64u, fromUtf8, utf8 } from './lib/encoding.ts';

export type JwtClaims = jose.JWTPayload;

export interface SignJwtOptions extends SignOptions {
  /** `typ` header (default "JWT"; e.g. "at+jwt" for RFC 9068 access tokens). */
  typ?: string;
  header?: Record<string, unknown>;
  issuer?: string;
  subject?: string;
  audience?: string | string[];
  jti?: string;
  /** Seconds from now, or a span like "10m", "2h", "7d". */
  expiresIn?: number | string;
  notBefore?: number | string;
  /** Set `iat` to now unless the claims already carry one (default true). */
  issuedAt?: boolean;
  /** Clock override (tests). */
  now?: Date;
}

const SPAN = /^(\d+)\s*(s|sec|secs|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?)$/i;
const UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

export function seconds(span: number | string): number {
  if (typeof span === 'number' && Number.isFinite(span)) return Math.floor(span);
  const m = typeof span === 'string' ? SPAN.exec(span.trim()) : null;
  if (!m) throw new InvalidArgument(`invalid time span ${JSON.stringify(span)}`);
  return Number(m[1]) * (UNIT[(m[2] as string)[0]?.toLowerCase() as string] as number);
}

async function asPrivateKey(key: PrivateKey | Record<string, unknown>): Promise<PrivateKey> {
  if (typeof (key as PrivateKey).entry === 'object') return key as PrivateKey;
  const k = await importJWK(key);
  if (k.type !== 'private') throw new InvalidArgument('signJwt needs a private key');
  return k;
}

export async function signJwt(
  claims: JwtClaims,
  key: PrivateKey | Record<string, unknown>,
  opts: SignJwtOptions = {},
): Promise<string> {
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims))
    throw new InvalidArgument('claims must be an object');
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const c: JwtClaims = { ...claims };
  if (opts.issuedAt !== false && c.iat === undefined) c.iat = now;
  if (opts.issuer !== undefined) c.iss = opts.issuer;
  if (opts.subject !== undefined) c.sub = opts.subject;
  if (opts.audience !== undefined) c.aud = opts.audience;
  if (opts.jti !== undefined) c.jti = opts.jti;
  if (opts.expiresIn !== undefined) c.exp = now + seconds(opts.expiresIn);
  if (opts.notBefore !== undefined) c.nbf = now + seconds(opts.notBefore);
  const { typ = 'JWT', header, ...signOpts } = opts;
  return signCompact(JSON.stringify(c), await asPrivateKey(key), { ...signOpts, header: { typ, ...header } });
}

export interface VerifyJwtOptions extends CompactVerifyOptions {
  issuer?: string | string[];
  audience?: string | string[];
  subject?: string;
  /** Required `typ` header value (compared case-insensitively, "application/" prefix ignored). */
  typ?: string;
  maxTokenAge?: number | string;
  clockTolerance?: number | string;
  requiredClaims?: string[];
  currentDate?: Date;
}

export interface VerifyJwtResult extends CompactVerifyResult {
  claims: JwtClaims;
}

const normalizeTyp = (t: string) => t.toLowerCase().replace(/^application\//, '');

export async function verifyJwt(
  token: unknown,
  key: VerificationKey,
  opts: VerifyJwtOptions,
): Promise<VerifyJwtResult> {
  const result = await verifyCompact(token, key, opts);
  if (opts.typ !== undefined) {
    const typ = result.protectedHeader.typ;
    if (typeof typ !== 'string' || normalizeTyp(typ) !== normalizeTyp(opts.typ)) {
      throw new JwtClaimValidationFailed('unexpected "typ" JWT header value', 'typ', 'check_failed');
    }
  }
  let text: string;
  try {
    text = fromUtf8(result.payload);
  } catch {
    throw new JwtInvalid('JWT payload is not UTF-8');
  }
  const unsecured = `${b64u(JSON.stringify({ alg: 'none' }))}.${b64u(utf8(text))}.`;
  try {
    const { payload } = jose.UnsecuredJWT.decode(unsecured, {
      ...(opts.issuer !== undefined ? { issuer: opts.issuer } : {}),
      ...(opts.audience !== undefined ? { audience: opts.audience } : {}),
      ...(opts.subject !== undefined ? { subject: opts.subject } : {}),
      ...(opts.maxTokenAge !== undefined ? { maxTokenAge: opts.maxTokenAge } : {}),
      ...(opts.clockTolerance !== undefined ? { clockTolerance: opts.clockTolerance } : {}),
      ...(opts.requiredClaims ? { requiredClaims: opts.requiredClaims } : {}),
      ...(opts.currentDate ? { currentDate: opts.currentDate } : {}),
    });
    return { ...result, claims: payload };
  } catch (e) {
    if (e instanceof jose.errors.JWTExpired) throw new JwtExpired(e.message, e.claim, e.reason, { cause: e });
    if (e instanceof jose.errors.JWTClaimValidationFailed)
      throw new JwtClaimValidationFailed(e.message, e.claim, e.reason, { cause: e });
    if (e instanceof jose.errors.JOSEError) throw new JwtInvalid(e.message, { cause: e });
    throw e;
  }
}
