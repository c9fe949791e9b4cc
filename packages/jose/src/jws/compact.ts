/** Compact JWS (RFC 7515 §7.1) over the registry. */
import { lookup } from '../algorithms/registry.ts';
import type { SignOptions } from '../algorithms/types.ts';
import { InvalidArgument, JwsInvalid, SignatureVerificationFailed } from '../errors.ts';
import { PrivateKey, type PublicKey } from '../keys/handles.ts';
import { signInput } from '../keys/sign.ts';
import { b64u, b64uDecode, utf8 } from '../lib/encoding.ts';
import { materialOf } from '../lib/handles.ts';
import {
  checkAlgorithms,
  checkSize,
  type JoseHeader,
  parseJson,
  parseProtectedHeader,
  receivedInput,
  signingInput,
} from './parse.ts';
import { candidateKeys, type VerificationKey } from './verification-keys.ts';

export interface CompactSignOptions extends SignOptions {
  /** Extra protected header parameters (`alg` and `kid` come from the key). */
  header?: Record<string, unknown>;
  /** Leave `kid` out of the header (default: include the key's kid). */
  omitKid?: boolean;
}

export function buildHeader(
  key: PrivateKey,
  opts: { header?: Record<string, unknown>; omitKid?: boolean },
): JoseHeader {
  const extra = opts.header ?? {};
  if ('alg' in extra && extra.alg !== key.alg)
    throw new InvalidArgument(`header alg ${String(extra.alg)} does not match the key (${key.alg})`);
  if ('crit' in extra || 'b64' in extra) throw new InvalidArgument('"crit" and "b64" are not supported');
  const header: JoseHeader = { alg: key.alg, ...(opts.omitKid ? {} : { kid: key.kid }), ...extra };
  header.alg = key.alg;
  return header;
}

function checkPrivateKey(key: unknown): PrivateKey {
  if (!(key instanceof PrivateKey))
    throw new InvalidArgument('signing needs a PrivateKey handle (importJWK of a private JWK)');
  return key;
}

export async function signCompact(
  payload: Uint8Array | string,
  key: PrivateKey,
  opts: CompactSignOptions = {},
): Promise<string> {
  const k = checkPrivateKey(key);
  const input = signingInput(buildHeader(k, opts), typeof payload === 'string' ? utf8(payload) : payload);
  const sig = await signInput(k, input, opts);
  return `${input.protectedB64}.${input.payloadB64}.${b64u(sig)}`;
}

export interface CompactVerifyOptions {
  /** Allowed algorithms: mandatory. */
  algorithms: readonly string[];
  /** Reject larger tokens before parsing (default 64 KiB). */
  maxTokenBytes?: number;
}

export interface CompactVerifyResult {
  payload: Uint8Array;
  protectedHeader: JoseHeader;
  key: PublicKey;
}

export async function verifyCompact(
  token: unknown,
  key: VerificationKey,
  opts: CompactVerifyOptions,
): Promise<CompactVerifyResult> {
  const algorithms = checkAlgorithms(opts?.algorithms);
  if (typeof token !== 'string') throw new JwsInvalid('a compact JWS must be a string');
  checkSize(token, opts.maxTokenBytes);
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwsInvalid('a compact JWS has exactly three segments');
  const [h, p, s] = parts as [string, string, string];
  const header = parseProtectedHeader(h, algorithms);
  const input = receivedInput(h, header, p);
  const sig = b64uDecode(s);
  if (!sig) throw new JwsInvalid('signature is not base64url');
  const entry = lookup(header.alg);
  for (const k of await candidateKeys(key, header)) {
    if (entry.plausibleSignature(sig) && (await entry.verify(materialOf(k), input, sig))) {
      return { payload: input.payload, protectedHeader: header, key: k };
    }
  }
  throw new SignatureVerificationFailed();
}

/** Decodes the protected header without verifying anything (for routing, never for trust). */
export function decodeProtectedHeader(token: string): Record<string, unknown> {
  if (typeof token !== 'string') throw new JwsInvalid('a compact JWS must be a string');
  checkSize(token);
  const h = token.split('.')[0] ?? '';
  return parseJson(h, 'protected header');
}
