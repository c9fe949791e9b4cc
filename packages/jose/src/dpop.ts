/**
 * DPoP proofs (RFC 9449) with any registry algorithm: creating them (clients) and checking them
 * (authorization and resource servers). A proof carries the client's public key in its header,
 * so a post-quantum proof is as large as a public key plus a signature: about 5.9 KB as a
 * `DPoP:` header line with ML-DSA-44, 8.2 KB with ML-DSA-65 (past nginx's 8190-byte line) and
 * 11 KB with ML-DSA-87.
 *
 * `verifyDpopProof` makes every check one proof allows on its own (RFC 9449 §4.3: size, typ,
 * alg, a public `jwk` of that alg, signature, jti/htm/htu/iat, `ath`). What needs state stays
 * with the caller: remembering `jti`s against replay and issuing server nonces.
 */
import { createHash, randomBytes } from 'node:crypto';
import { keyServesAlg } from './algorithms/registry.ts';
import {
  AlgorithmNotAllowed,
  DpopProofInvalid,
  InvalidArgument,
  JwtClaimValidationFailed,
  PqidError,
  SignatureVerificationFailed,
} from './errors.ts';
import { signCompact } from './jws/compact.ts';
import { checkAlgorithms, type JoseHeader, parseProtectedHeader } from './jws/parse.ts';
import { verifyJwt } from './jwt.ts';
import { type PrivateKey, PublicKey } from './keys/handles.ts';
import { importJWK } from './keys/jwk.ts';
import { calculateThumbprint } from './keys/thumbprint.ts';
import type { Jwk } from './lib/jwk.ts';

export const DPOP_TYP = 'dpop+jwt';

/** Fits an ML-DSA-87 composite proof (about 11.3 KB) with room to spare. */
export const DEFAULT_MAX_DPOP_PROOF_BYTES = 16 * 1024;

// Members that only a private JWK has (RFC 7518 §6, RFC 9964 `priv`, composite `seed`).
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k', 'priv', 'seed'];

/** `ath` (RFC 9449 §4.2): base64url SHA-256 of the ASCII access token. */
export const accessTokenHash = (accessToken: string): string =>
  createHash('sha256').update(accessToken, 'ascii').digest('base64url');

/** The request URI as `htu` carries it: without query and fragment (RFC 9449 §4.2). */
export function htuOf(uri: string | URL): string {
  const url = new URL(uri);
  url.search = '';
  url.hash = '';
  return url.href;
}

export interface SignDpopProofOptions {
  /** HTTP method of the request the proof goes with. */
  htm: string;
  /** URI of that request; query and fragment are dropped. */
  htu: string | URL;
  /** When presenting an access token: its hash goes into `ath`. */
  accessToken?: string;
  /** A server-provided nonce (`DPoP-Nonce`). */
  nonce?: string;
  /** Default: 128 random bits. */
  jti?: string;
  /** Clock override (tests). */
  now?: Date;
  /** Further claims (tests of servers that must refuse them). */
  claims?: Record<string, unknown>;
  /** Further protected header members (tests); `typ`, `alg` and `jwk` are set here. */
  header?: Record<string, unknown>;
}

/** A DPoP proof JWT signed with `key`, whose public JWK (without `kid`) goes in the header. */
export async function signDpopProof(key: PrivateKey, opts: SignDpopProofOptions): Promise<string> {
  const { kid: _kid, ...jwk } = key.publicKey.jwk;
  const claims: Record<string, unknown> = {
    jti: opts.jti ?? randomBytes(16).toString('base64url'),
    htm: opts.htm,
    htu: htuOf(opts.htu),
    iat: Math.floor((opts.now ?? new Date()).getTime() / 1000),
    ...(opts.accessToken !== undefined ? { ath: accessTokenHash(opts.accessToken) } : {}),
    ...(opts.nonce !== undefined ? { nonce: opts.nonce } : {}),
    ...opts.claims,
  };
  return signCompact(JSON.stringify(claims), key, {
    header: { typ: DPOP_TYP, jwk, ...opts.header },
    omitKid: true,
  });
}

export interface VerifyDpopProofOptions {
  /** The method of the request the proof arrived with. */
  htm: string;
  /** The URI of that request (query and fragment are ignored on both sides). */
  htu: string | URL;
  /** Algorithms accepted for proofs: mandatory. */
  algorithms: readonly string[];
  /** The access token presented with the proof: `ath` must then be its hash. */
  accessToken?: string;
  /** Seconds a proof stays acceptable after its `iat` (default 300). */
  maxAge?: number;
  /** Seconds `iat` may lie in the future, for clock skew (default 5). */
  clockTolerance?: number;
  /** Larger proofs are refused before parsing (default 16 KiB). */
  maxProofBytes?: number;
  currentDate?: Date;
}

export interface DpopClaims {
  [claim: string]: unknown;
  jti: string;
  htm: string;
  htu: string;
  iat: number;
  ath?: string;
  nonce?: string;
}

export interface DpopProof {
  /** RFC 7638 thumbprint of the proof's key: what `cnf.jkt` binds a token to. */
  jkt: string;
  key: PublicKey;
  jwk: Jwk;
  header: JoseHeader;
  claims: DpopClaims;
}

const fail = (reason: string, message: string, cause?: unknown): never => {
  throw new DpopProofInvalid(reason, message, cause === undefined ? undefined : { cause });
};

function sameUri(claimed: string, actual: string | URL): boolean {
  try {
    return htuOf(claimed) === htuOf(actual);
  } catch {
    return false;
  }
}

/** The proof's public key: a JWK of the header's algorithm, with no private member; its thumbprint. */
async function proofKey(header: JoseHeader): Promise<{ jwk: Jwk; key: PublicKey; jkt: string }> {
  const jwk = header.jwk;
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk))
    return fail('jwk', 'the DPoP proof has no "jwk" header');
  const j = jwk as Jwk;
  if (PRIVATE_MEMBERS.some((m) => m in j)) return fail('jwk', 'the DPoP "jwk" header holds a private key');
  if (typeof j.alg === 'string' && !keyServesAlg(j.alg, header.alg))
    return fail('jwk', `the DPoP "jwk" is a ${j.alg} key but the proof is signed with ${header.alg}`);
  // RFC 9964 §2: an AKP key carries its alg, and its thumbprint (the jkt tokens bind to) needs it.
  if (j.kty === 'AKP' && j.alg === undefined)
    return fail('jwk', 'the DPoP "jwk" is an AKP key without "alg"');
  let key: unknown;
  try {
    key = await importJWK(j.alg === undefined ? { ...j, alg: header.alg } : j);
  } catch (e) {
    return fail('jwk', `the DPoP "jwk" is not a ${header.alg} public key: ${(e as Error).message}`, e);
  }
  if (!(key instanceof PublicKey)) return fail('jwk', 'the DPoP "jwk" header holds a private key');
  try {
    return { jwk: j, key, jkt: calculateThumbprint(j) };
  } catch (e) {
    return fail('jwk', `the DPoP "jwk" has no thumbprint: ${(e as Error).message}`, e);
  }
}

/**
 * Checks one DPoP proof; throws DpopProofInvalid (with a `reason`) on the first failed check.
 * The caller still has to refuse a `jti` it has seen before and, if it issues nonces, check
 * `claims.nonce`.
 */
export async function verifyDpopProof(proof: unknown, opts: VerifyDpopProofOptions): Promise<DpopProof> {
  const algorithms = checkAlgorithms(opts?.algorithms);
  if (typeof opts.htm !== 'string' || opts.htm === '') throw new InvalidArgument('options.htm is required');
  const maxBytes = opts.maxProofBytes ?? DEFAULT_MAX_DPOP_PROOF_BYTES;
  if (typeof proof !== 'string' || proof === '') return fail('format', 'the DPoP proof must be a JWT');
  const size = Buffer.byteLength(proof, 'utf8');
  if (size > maxBytes)
    return fail('size', `the DPoP proof is ${size} bytes, more than the ${maxBytes} accepted`);
  const parts = proof.split('.');
  if (parts.length !== 3) return fail('format', 'the DPoP proof is not a compact JWS');
  let header: JoseHeader;
  try {
    header = parseProtectedHeader(parts[0] as string, algorithms);
  } catch (e) {
    if (e instanceof AlgorithmNotAllowed) return fail('alg', `the DPoP proof's ${e.message}`, e);
    return fail('format', `the DPoP proof is malformed: ${(e as Error).message}`, e);
  }
  if (header.typ !== DPOP_TYP) return fail('typ', `the DPoP proof's "typ" must be "${DPOP_TYP}"`);
  const { jwk, key, jkt } = await proofKey(header);

  let claims: Record<string, unknown>;
  try {
    ({ claims } = await verifyJwt(proof, key, {
      algorithms: [header.alg],
      maxTokenBytes: maxBytes,
      requiredClaims: ['jti', 'htm', 'htu', 'iat'],
      ...(opts.currentDate ? { currentDate: opts.currentDate } : {}),
    }));
  } catch (e) {
    if (e instanceof SignatureVerificationFailed)
      return fail('signature', 'the DPoP proof signature does not verify with its "jwk"', e);
    if (e instanceof JwtClaimValidationFailed) return fail('claims', `the DPoP proof: ${e.message}`, e);
    if (e instanceof PqidError) return fail('format', `the DPoP proof is malformed: ${e.message}`, e);
    throw e;
  }
  const { jti, htm, htu, iat, ath } = claims;
  if (typeof jti !== 'string' || jti === '' || jti.length > 512)
    return fail('claims', 'the DPoP proof needs a "jti" string of at most 512 characters');
  if (typeof htm !== 'string' || typeof htu !== 'string' || typeof iat !== 'number' || !Number.isFinite(iat))
    return fail('claims', 'the DPoP proof claims "htm", "htu" and "iat" have the wrong types');
  if (htm !== opts.htm) return fail('htm', `the DPoP proof is for ${htm} requests, this one is ${opts.htm}`);
  if (!sameUri(htu, opts.htu)) return fail('htu', 'the DPoP proof "htu" is not the URI of this request');
  const now = Math.floor((opts.currentDate ?? new Date()).getTime() / 1000);
  const maxAge = opts.maxAge ?? 300;
  if (iat > now + (opts.clockTolerance ?? 5)) return fail('iat', 'the DPoP proof is issued in the future');
  if (iat < now - maxAge) return fail('iat', `the DPoP proof is older than ${maxAge} seconds`);
  if (opts.accessToken !== undefined && ath !== accessTokenHash(opts.accessToken))
    return fail('ath', 'the DPoP proof "ath" is not the hash of the access token presented');
  if (claims.nonce !== undefined && typeof claims.nonce !== 'string')
    return fail('claims', 'the DPoP proof "nonce" must be a string');
  return { jkt, key, jwk, header, claims: claims as DpopClaims };
}
