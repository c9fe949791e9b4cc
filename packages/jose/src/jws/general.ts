/**
 * General JWS JSON serialization (RFC 7515 §7.2.1) with several signatures over one payload,
 * e.g. ES256 for today's verifiers next to ML-DSA-65 for tomorrow's, and a policy for which
 * of them must verify.
 */
import { lookup } from '../algorithms/registry.ts';
import type { SignOptions } from '../algorithms/types.ts';
import { AlgorithmNotAllowed, InvalidArgument, JwsInvalid, SignatureVerificationFailed } from '../errors.ts';
import { PrivateKey, type PublicKey } from '../keys/handles.ts';
import { signInput } from '../keys/sign.ts';
import { b64u, b64uDecode, utf8 } from '../lib/encoding.ts';
import { materialOf } from '../lib/handles.ts';
import { buildHeader } from './compact.ts';
import {
  checkAlgorithms,
  checkSize,
  type JoseHeader,
  parseProtectedHeader,
  receivedInput,
  signingInput,
} from './parse.ts';
import { candidateKeys, type VerificationKey } from './verification-keys.ts';

export interface GeneralJws {
  payload: string;
  signatures: { protected: string; header?: Record<string, unknown>; signature: string }[];
}

export interface Signer {
  key: PrivateKey;
  /** Extra protected header parameters for this signature. */
  header?: Record<string, unknown>;
  /** Unprotected per-signature header. */
  unprotected?: Record<string, unknown>;
}

export async function signGeneral(
  payload: Uint8Array | string,
  signers: readonly Signer[],
  opts: SignOptions = {},
): Promise<GeneralJws> {
  if (!Array.isArray(signers) || signers.length === 0)
    throw new InvalidArgument('at least one signer is required');
  const bytes = typeof payload === 'string' ? utf8(payload) : payload;
  const signatures = await Promise.all(
    signers.map(async ({ key, header, unprotected }) => {
      if (!(key instanceof PrivateKey)) throw new InvalidArgument('every signer needs a PrivateKey handle');
      const input = signingInput(buildHeader(key, { ...(header ? { header } : {}) }), bytes);
      const sig = await signInput(key, input, opts);
      return {
        protected: input.protectedB64,
        ...(unprotected ? { header: unprotected } : {}),
        signature: b64u(sig),
      };
    }),
  );
  return { payload: b64u(bytes), signatures };
}

/**
 * - `any`: at least one signature verifies.
 * - `all`: every signature verifies.
 * - `require-pq`: at least one signature by an ML-DSA or composite key verifies.
 * Under every policy a signature whose key we hold but which does not verify fails the whole
 * JWS: a present-but-broken signature means tampering, not an older verifier.
 */
export type VerificationPolicy = 'any' | 'all' | 'require-pq';

export interface GeneralVerifyOptions {
  algorithms: readonly string[];
  policy?: VerificationPolicy;
  maxTokenBytes?: number;
}

export interface GeneralVerifyResult {
  payload: Uint8Array;
  verified: { protectedHeader: JoseHeader; key: PublicKey }[];
  /** Signatures skipped because no key for them was available (or their alg is not allowed). */
  skipped: { index: number; reason: string }[];
}

export async function verifyGeneral(
  jws: unknown,
  key: VerificationKey,
  opts: GeneralVerifyOptions,
): Promise<GeneralVerifyResult> {
  const algorithms = checkAlgorithms(opts?.algorithms);
  const policy = opts.policy ?? 'all';
  if (!['any', 'all', 'require-pq'].includes(policy))
    throw new InvalidArgument(`unknown policy ${String(policy)}`);
  const text = typeof jws === 'string' ? jws : JSON.stringify(jws ?? null);
  checkSize(text, opts.maxTokenBytes);
  let obj: unknown;
  try {
    obj = typeof jws === 'string' ? JSON.parse(jws) : jws;
  } catch {
    throw new JwsInvalid('general JWS is not JSON');
  }
  const g = obj as GeneralJws;
  if (
    typeof g !== 'object' ||
    g === null ||
    typeof g.payload !== 'string' ||
    !Array.isArray(g.signatures) ||
    g.signatures.length === 0
  ) {
    throw new JwsInvalid('not a general JWS JSON serialization');
  }
  const payload = b64uDecode(g.payload);
  if (!payload) throw new JwsInvalid('payload is not base64url');

  const verified: GeneralVerifyResult['verified'] = [];
  const skipped: GeneralVerifyResult['skipped'] = [];
  for (const [index, s] of g.signatures.entries()) {
    if (typeof s?.protected !== 'string' || typeof s.signature !== 'string')
      throw new JwsInvalid(`signature ${index} is malformed`);
    let header: JoseHeader;
    try {
      header = parseProtectedHeader(s.protected, algorithms);
    } catch (e) {
      if (e instanceof AlgorithmNotAllowed && policy !== 'all') {
        skipped.push({ index, reason: (e as Error).message });
        continue;
      }
      throw e;
    }
    const sig = b64uDecode(s.signature);
    if (!sig) throw new JwsInvalid(`signature ${index} is not base64url`);
    let keys: readonly PublicKey[];
    try {
      keys = await candidateKeys(key, header);
    } catch (e) {
      if (
        policy !== 'all' &&
        ['ERR_JWKS_NO_MATCHING_KEY', 'ERR_KEY_MISMATCH'].includes((e as { code?: string }).code ?? '')
      ) {
        skipped.push({ index, reason: (e as Error).message });
        continue;
      }
      throw e;
    }
    const entry = lookup(header.alg);
    const input = receivedInput(s.protected, header, g.payload);
    let ok: PublicKey | undefined;
    for (const k of keys) {
      if (entry.plausibleSignature(sig) && (await entry.verify(materialOf(k), input, sig))) {
        ok = k;
        break;
      }
    }
    if (!ok) throw new SignatureVerificationFailed(`signature ${index} (${header.alg}) failed verification`);
    verified.push({ protectedHeader: header, key: ok });
  }
  if (verified.length === 0) throw new SignatureVerificationFailed('no signature could be verified');
  if (policy === 'require-pq' && !verified.some((v) => v.key.pq)) {
    throw new SignatureVerificationFailed('policy require-pq: no post-quantum signature verified');
  }
  return { payload, verified, skipped };
}
