/**
 * Loaders for the ML-DSA verification vectors (pqid's own and Wycheproof's), shared by the
 * native, jose and cross-package tests. Reads only files in this directory.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export type MlDsaAlg = 'ML-DSA-44' | 'ML-DSA-65' | 'ML-DSA-87';
export const ML_DSA_ALGS: MlDsaAlg[] = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
const bytes = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));

/** One verification case, decoded: `valid` is the only right answer. */
export interface VerifyCase {
  id: string;
  valid: boolean;
  comment: string;
  /** Unpatched-AVX2 bugs this case exposes (pqid vectors only). */
  catches: string[];
  pk: Uint8Array;
  msg: Uint8Array;
  ctx: Uint8Array;
  sig: Uint8Array;
}

interface PqidFile {
  algorithm: MlDsaAlg;
  vectors: { id: string; valid: boolean; comment: string; catches?: string[]; pk: string; msg: string; ctx: string; sig: string }[];
}

/** test/vectors/pqid-mldsa-verify/<alg>.json (see its README). */
export function pqidVectors(alg: MlDsaAlg): VerifyCase[] {
  const f = JSON.parse(readFileSync(here(`pqid-mldsa-verify/${alg}.json`), 'utf8')) as PqidFile;
  if (f.algorithm !== alg) throw new Error(`${alg}.json holds ${f.algorithm}`);
  return f.vectors.map((v) => ({
    id: v.id,
    valid: v.valid,
    comment: v.comment,
    catches: v.catches ?? [],
    pk: bytes(v.pk),
    msg: bytes(v.msg),
    ctx: bytes(v.ctx),
    sig: bytes(v.sig),
  }));
}

interface WycheproofFile {
  algorithm: string;
  testGroups: {
    publicKey: string;
    tests: { tcId: number; comment: string; msg: string; ctx?: string; sig: string; result: string; flags: string[] }[];
  }[];
}

/**
 * Wycheproof's mldsa_<n>_verify_test.json (gzipped; refused unless its SHA-256 matches
 * wycheproof/SHA256SUMS). A case with an over-long context keeps it: callers must refuse it.
 */
export function wycheproofVectors(alg: MlDsaAlg): VerifyCase[] {
  const name = `mldsa_${alg.slice(-2)}_verify_test.json`;
  const f = wycheproofFile<WycheproofFile>(name);
  if (f.algorithm !== alg) throw new Error(`${name} holds ${f.algorithm}`);
  return f.testGroups.flatMap((g) =>
    g.tests.map((t) => ({
      id: `tcId ${t.tcId} (${t.flags.join(', ') || 'no flags'}): ${t.comment}`,
      valid: t.result === 'valid',
      comment: t.comment,
      catches: [],
      pk: bytes(g.publicKey),
      msg: bytes(t.msg),
      ctx: bytes(t.ctx ?? ''),
      sig: bytes(t.sig),
    })),
  );
}

/** A gzipped Wycheproof file, refused unless its SHA-256 matches wycheproof/SHA256SUMS. */
function wycheproofFile<T>(name: string): T {
  const raw = gunzipSync(readFileSync(here(`wycheproof/${name}.gz`)));
  const want = readFileSync(here('wycheproof/SHA256SUMS'), 'utf8')
    .split('\n')
    .find((l) => l.endsWith(`  ${name}`))
    ?.split(' ')[0];
  const got = createHash('sha256').update(raw).digest('hex');
  if (got !== want) throw new Error(`${name}: sha256 ${got} does not match ${want}`);
  return JSON.parse(raw.toString('utf8')) as T;
}

/** The traditional halves of the composites that Wycheproof covers. */
export type TraditionalVectors = 'ECDSA-P256' | 'ECDSA-P384' | 'Ed25519' | 'Ed448';

/** One traditional verification case: the public key as the composites encode it (raw). */
export interface TraditionalCase {
  id: string;
  valid: boolean;
  flags: string[];
  pk: Uint8Array;
  msg: Uint8Array;
  sig: Uint8Array;
}

const TRADITIONAL_FILES = {
  'ECDSA-P256': ['ecdsa_secp256r1_sha256_test.json', 'ECDSA', 'SHA-256'],
  'ECDSA-P384': ['ecdsa_secp384r1_sha384_test.json', 'ECDSA', 'SHA-384'],
  Ed25519: ['ed25519_test.json', 'EDDSA', undefined],
  Ed448: ['ed448_test.json', 'EDDSA', undefined],
} as const;

interface TraditionalFile {
  algorithm: string;
  testGroups: {
    publicKey: { uncompressed?: string; pk?: string; curve: string };
    sha?: string;
    tests: { tcId: number; comment: string; msg: string; sig: string; result: string; flags: string[] }[];
  }[];
}

/**
 * Wycheproof's EcdsaVerify (DER signatures, the hash the composites use with that curve) and
 * EddsaVerify files: ECDSA keys as X9.62 uncompressed points, EdDSA keys raw.
 */
export function wycheproofTraditional(alg: TraditionalVectors): TraditionalCase[] {
  const [name, algorithm, sha] = TRADITIONAL_FILES[alg];
  const f = wycheproofFile<TraditionalFile>(name);
  if (f.algorithm !== algorithm) throw new Error(`${name} holds ${f.algorithm}`);
  return f.testGroups.flatMap((g) => {
    if (g.sha !== sha) throw new Error(`${name}: a group hashes with ${g.sha}, expected ${sha}`);
    const pk = bytes(g.publicKey.uncompressed ?? g.publicKey.pk ?? '');
    return g.tests.map((t) => {
      if (t.result !== 'valid' && t.result !== 'invalid')
        throw new Error(`${name} tcId ${t.tcId}: result ${t.result} has no single right answer`);
      return {
        id: `tcId ${t.tcId} (${t.flags.join(', ') || 'no flags'}): ${t.comment}`,
        valid: t.result === 'valid',
        flags: t.flags,
        pk,
        msg: bytes(t.msg),
        sig: bytes(t.sig),
      };
    });
  });
}
