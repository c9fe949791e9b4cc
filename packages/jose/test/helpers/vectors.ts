/**
 * Loaders for the reference vectors the repository carries in `test/vectors/` (see its
 * SCHEMAS.md and PROVENANCE.md), or in `PQID_VECTORS` if set.
 *
 * Everything is parsed from the upstream files; nothing here is derived from our own output.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const VECTORS_DIR: string = process.env.PQID_VECTORS
  ? process.env.PQID_VECTORS
  : fileURLToPath(new URL('../../../../test/vectors/', import.meta.url));

if (!existsSync(join(VECTORS_DIR, 'SCHEMAS.md'))) {
  throw new Error(`test vectors not found at ${VECTORS_DIR} (set PQID_VECTORS to a vectors directory)`);
}

export const vectorPath = (...p: string[]): string => join(VECTORS_DIR, ...p);

/**
 * A vector file, or its `.gz` copy (the large ACVP files are stored gzipped); a decompressed
 * ACVP file must match the checksum its directory lists: `SHA256SUMS.upstream-mirror` (ML-DSA,
 * whole upstream files) or `SHA256SUMS` (the SLH-DSA subset, see its extract.py).
 */
function readJson<T>(...p: string[]): T {
  const path = vectorPath(...p);
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as T;
  const bytes = gunzipSync(readFileSync(`${path}.gz`));
  const name = p.slice(-2).join('/');
  const dir = p[0] as string;
  const sumsFile = ['SHA256SUMS.upstream-mirror', 'SHA256SUMS'].find((f) => existsSync(vectorPath(dir, f)));
  if (!sumsFile) throw new Error(`${dir}: no SHA256SUMS file`);
  const sums = readFileSync(vectorPath(dir, sumsFile), 'utf8');
  const want = sums
    .split('\n')
    .find((l) => l.endsWith(`  ${name}`))
    ?.split(' ')[0];
  const got = createHash('sha256').update(bytes).digest('hex');
  if (want !== got) throw new Error(`${name}: sha256 ${got} does not match upstream ${want}`);
  return JSON.parse(bytes.toString('utf8')) as T;
}
const readText = (...p: string[]): string => readFileSync(vectorPath(...p), 'utf8');

/** ACVP hex is uppercase; "" is the empty byte string. Strict: odd length or junk throws. */
export function unhex(s: string): Uint8Array {
  if (typeof s !== 'string' || s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s))
    throw new Error(`bad hex: ${String(s).slice(0, 20)}`);
  return new Uint8Array(Buffer.from(s, 'hex'));
}
export const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
export const b64uToBytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64url'));
export const bytesToB64u = (b: Uint8Array): string => Buffer.from(b).toString('base64url');

export type MlDsaParamSet = 'ML-DSA-44' | 'ML-DSA-65' | 'ML-DSA-87';

// ---- HPKE vectors in RFC 9180's JSON format (jose-hpke/) --------------------------------------

/** One HPKE test vector as RFC 9180's test-vector file writes it: the fields the tests read. */
export interface HpkeVector {
  mode: number;
  kem_id: number;
  kdf_id: number;
  aead_id: number;
  info: string;
  ikmR: string;
  skRm: string;
  pkRm: string;
  enc: string;
  encryptions: { aad: string; ct: string; pt: string }[];
  exports?: { exporter_context: string; L: number; exported_value: string }[];
}

// ---- ACVP ---------------------------------------------------------------------------------

const ACVP = 'acvp-v1.1.0.43';

interface AcvpFile<G> {
  vsId: number;
  algorithm: string;
  mode: string;
  revision: string;
  testGroups: (G & { tgId: number; tests: { tcId: number; [k: string]: unknown }[] })[];
}
interface ExpectedFile {
  testGroups: { tgId: number; tests: { tcId: number; [k: string]: unknown }[] }[];
}

/** Joins prompt and expectedResults on tcId (unique within a file); every prompt test must have a result. */
function joinOnTcId<G extends object, R>(
  dir: string,
  base: string = ACVP,
): { revision: string; groups: (G & { tgId: number; tests: R[] })[] } {
  const prompt = readJson<AcvpFile<G>>(base, dir, 'prompt.json');
  const expected = readJson<ExpectedFile>(base, dir, 'expectedResults.json');
  const byTc = new Map<number, Record<string, unknown>>();
  for (const g of expected.testGroups) for (const t of g.tests) byTc.set(t.tcId, t);
  const groups = prompt.testGroups.map(({ tests, ...group }) => ({
    ...(group as unknown as G & { tgId: number }),
    tests: tests.map((t) => {
      const r = byTc.get(t.tcId);
      if (!r) throw new Error(`${dir}: tcId ${t.tcId} has no expected result`);
      return { ...r, ...t } as R;
    }),
  }));
  const nPrompt = groups.reduce((n, g) => n + g.tests.length, 0);
  if (nPrompt !== byTc.size)
    throw new Error(`${dir}: ${nPrompt} prompt tests vs ${byTc.size} expected results`);
  return { revision: prompt.revision, groups };
}

export interface KeyGenCase {
  tcId: number;
  seed: Uint8Array;
  pk: Uint8Array;
  sk: Uint8Array;
}
export interface KeyGenGroup {
  tgId: number;
  parameterSet: MlDsaParamSet;
  tests: KeyGenCase[];
}

export function acvpKeyGen(): KeyGenGroup[] {
  const { groups } = joinOnTcId<
    { parameterSet: MlDsaParamSet },
    { tcId: number; seed: string; pk: string; sk: string }
  >('ML-DSA-keyGen-FIPS204');
  return groups.map((g) => ({
    tgId: g.tgId,
    parameterSet: g.parameterSet,
    tests: g.tests.map((t) => ({ tcId: t.tcId, seed: unhex(t.seed), pk: unhex(t.pk), sk: unhex(t.sk) })),
  }));
}

export interface SigGenCase {
  tcId: number;
  /** The secret key as the group gives it: a 32-byte seed (tr1 keyFormat seed) or the expanded sk. */
  secret: Uint8Array;
  message?: Uint8Array;
  mu?: Uint8Array;
  context?: Uint8Array;
  hashAlg?: string;
  rnd?: Uint8Array;
  signature: Uint8Array;
}
export interface SigGenGroup {
  file: 'FIPS204' | 'FIPS204-tr1';
  tgId: number;
  parameterSet: MlDsaParamSet;
  deterministic: boolean;
  signatureInterface: 'external' | 'internal';
  preHash?: 'pure' | 'preHash';
  externalMu?: boolean;
  keyFormat: 'seed' | 'expanded';
  tests: SigGenCase[];
}

type RawSigGen = {
  tcId: number;
  sk?: string;
  seed?: string;
  message?: string;
  mu?: string;
  context?: string;
  hashAlg?: string;
  rnd?: string;
  signature: string;
};

export function acvpSigGen(revision: 'FIPS204' | 'FIPS204-tr1'): SigGenGroup[] {
  const dir = revision === 'FIPS204' ? 'ML-DSA-sigGen-FIPS204' : 'ML-DSA-sigGen-FIPS204-tr1';
  const { revision: rev, groups } = joinOnTcId<
    Omit<SigGenGroup, 'tests' | 'file' | 'keyFormat'> & { keyFormat?: 'seed' | 'expanded' },
    RawSigGen
  >(dir);
  if (rev !== revision) throw new Error(`${dir}: revision ${rev}`);
  return groups.map((g) => {
    const keyFormat = g.keyFormat ?? 'expanded'; // FIPS204 (non-tr1) groups always carry the expanded sk
    return {
      file: revision,
      tgId: g.tgId,
      parameterSet: g.parameterSet,
      deterministic: g.deterministic,
      signatureInterface: g.signatureInterface,
      ...(g.preHash !== undefined ? { preHash: g.preHash } : {}),
      ...(g.externalMu !== undefined ? { externalMu: g.externalMu } : {}),
      keyFormat,
      tests: g.tests.map((t) => {
        const secretHex = keyFormat === 'seed' ? t.seed : t.sk;
        if (secretHex === undefined)
          throw new Error(`${dir} tcId ${t.tcId}: no ${keyFormat === 'seed' ? 'seed' : 'sk'}`);
        return {
          tcId: t.tcId,
          secret: unhex(secretHex),
          ...(t.message !== undefined ? { message: unhex(t.message) } : {}),
          ...(t.mu !== undefined ? { mu: unhex(t.mu) } : {}),
          ...(t.context !== undefined ? { context: unhex(t.context) } : {}),
          ...(t.hashAlg !== undefined ? { hashAlg: t.hashAlg } : {}),
          ...(t.rnd !== undefined ? { rnd: unhex(t.rnd) } : {}),
          signature: unhex(t.signature),
        };
      }),
    };
  });
}

export interface SigVerCase {
  tcId: number;
  pk: Uint8Array;
  message?: Uint8Array;
  mu?: Uint8Array;
  context?: Uint8Array;
  hashAlg?: string;
  signature: Uint8Array;
  testPassed: boolean;
}
export interface SigVerGroup {
  tgId: number;
  parameterSet: MlDsaParamSet;
  signatureInterface: 'external' | 'internal';
  preHash?: 'pure' | 'preHash';
  externalMu?: boolean;
  tests: SigVerCase[];
}

export function acvpSigVer(): SigVerGroup[] {
  type Raw = {
    tcId: number;
    pk: string;
    message?: string;
    mu?: string;
    context?: string;
    hashAlg?: string;
    signature: string;
    testPassed: boolean;
  };
  const { groups } = joinOnTcId<Omit<SigVerGroup, 'tests'>, Raw>('ML-DSA-sigVer-FIPS204');
  return groups.map((g) => ({
    tgId: g.tgId,
    parameterSet: g.parameterSet,
    signatureInterface: g.signatureInterface,
    ...(g.preHash !== undefined ? { preHash: g.preHash } : {}),
    ...(g.externalMu !== undefined ? { externalMu: g.externalMu } : {}),
    tests: g.tests.map((t) => {
      if (typeof t.testPassed !== 'boolean')
        throw new Error(`sigVer tcId ${t.tcId}: testPassed is not a boolean`);
      return {
        tcId: t.tcId,
        pk: unhex(t.pk),
        ...(t.message !== undefined ? { message: unhex(t.message) } : {}),
        ...(t.mu !== undefined ? { mu: unhex(t.mu) } : {}),
        ...(t.context !== undefined ? { context: unhex(t.context) } : {}),
        ...(t.hashAlg !== undefined ? { hashAlg: t.hashAlg } : {}),
        signature: unhex(t.signature),
        testPassed: t.testPassed,
      };
    }),
  }));
}

/** External, pure groups: the only ones the JOSE API (pure ML-DSA with a context) can express. */
export const isExternalPure = (g: { signatureInterface: string; preHash?: string }): boolean =>
  g.signatureInterface === 'external' && g.preHash === 'pure';

// ---- ACVP SLH-DSA (FIPS 205), the subset in acvp-slh-dsa/ ----------------------------------

const SLH_ACVP = 'acvp-slh-dsa';
export type SlhDsaParamSet = 'SLH-DSA-SHA2-128s' | 'SLH-DSA-SHA2-128f' | 'SLH-DSA-SHAKE-128s';

export interface SlhKeyGenGroup {
  tgId: number;
  parameterSet: SlhDsaParamSet;
  /** seed = SK.seed‖SK.prf‖PK.seed, the input of slh_keygen_internal. */
  tests: { tcId: number; seed: Uint8Array; sk: Uint8Array; pk: Uint8Array }[];
}

export function slhAcvpKeyGen(): SlhKeyGenGroup[] {
  type Raw = { tcId: number; skSeed: string; skPrf: string; pkSeed: string; sk: string; pk: string };
  const { groups } = joinOnTcId<{ parameterSet: SlhDsaParamSet }, Raw>('SLH-DSA-keyGen-FIPS205', SLH_ACVP);
  return groups.map((g) => ({
    tgId: g.tgId,
    parameterSet: g.parameterSet,
    tests: g.tests.map((t) => ({
      tcId: t.tcId,
      seed: unhex(t.skSeed + t.skPrf + t.pkSeed),
      sk: unhex(t.sk),
      pk: unhex(t.pk),
    })),
  }));
}

export interface SlhSigGenGroup {
  tgId: number;
  parameterSet: SlhDsaParamSet;
  deterministic: boolean;
  signatureInterface: string;
  preHash?: string;
  tests: {
    tcId: number;
    sk: Uint8Array;
    message: Uint8Array;
    context: Uint8Array;
    /** opt_rand of the non-deterministic groups. */
    additionalRandomness?: Uint8Array;
    signature: Uint8Array;
  }[];
}

export function slhAcvpSigGen(): SlhSigGenGroup[] {
  type Raw = {
    tcId: number;
    sk: string;
    message: string;
    context: string;
    additionalRandomness?: string;
    signature: string;
  };
  const { groups } = joinOnTcId<Omit<SlhSigGenGroup, 'tests' | 'tgId'>, Raw>(
    'SLH-DSA-sigGen-FIPS205',
    SLH_ACVP,
  );
  return groups.map(({ tests, ...g }) => ({
    ...g,
    tests: tests.map((t) => ({
      tcId: t.tcId,
      sk: unhex(t.sk),
      message: unhex(t.message),
      context: unhex(t.context),
      ...(t.additionalRandomness !== undefined
        ? { additionalRandomness: unhex(t.additionalRandomness) }
        : {}),
      signature: unhex(t.signature),
    })),
  }));
}

export interface SlhSigVerGroup {
  tgId: number;
  parameterSet: SlhDsaParamSet;
  signatureInterface: string;
  preHash?: string;
  tests: {
    tcId: number;
    pk: Uint8Array;
    message: Uint8Array;
    context: Uint8Array;
    signature: Uint8Array;
    testPassed: boolean;
  }[];
}

export function slhAcvpSigVer(): SlhSigVerGroup[] {
  type Raw = {
    tcId: number;
    pk: string;
    message: string;
    context: string;
    signature: string;
    testPassed: boolean;
  };
  const { groups } = joinOnTcId<Omit<SlhSigVerGroup, 'tests' | 'tgId'>, Raw>(
    'SLH-DSA-sigVer-FIPS205',
    SLH_ACVP,
  );
  return groups.map(({ tests, ...g }) => ({
    ...g,
    tests: tests.map((t) => {
      if (typeof t.testPassed !== 'boolean')
        throw new Error(`sigVer tcId ${t.tcId}: testPassed is not a boolean`);
      return {
        tcId: t.tcId,
        pk: unhex(t.pk),
        message: unhex(t.message),
        context: unhex(t.context),
        signature: unhex(t.signature),
        testPassed: t.testPassed,
      };
    }),
  }));
}

// ---- RFC 9964 (draft-ietf-cose-dilithium) JOSE examples -------------------------------------

export interface Rfc9964Example {
  file: string;
  alg: MlDsaParamSet;
  /** hex seed */
  priv: string;
  jwk: { kid: string; kty: 'AKP'; alg: MlDsaParamSet; pub: string; priv: string };
  jws: string;
  raw_to_be_signed: string;
  raw_signature: string;
  raw_public_key: string;
}

export function rfc9964Examples(): Rfc9964Example[] {
  const dir = join('ietf-cose-dilithium', 'jose');
  const files = readdirSync(vectorPath(dir))
    .filter((f) => /^ML_DSA_\d+\.jose\.json$/.test(f))
    .sort();
  return files.map((file) => {
    const j = readJson<Omit<Rfc9964Example, 'file' | 'alg'>>(dir, file);
    return { file, alg: j.jwk.alg, ...j };
  });
}

// ---- Composite ML-DSA, draft-ietf-jose-pq-composite-sigs-05 Appendix A ----------------------

export interface CompositeExample {
  file: string;
  alg: string;
  mldsa_seed: string;
  ecdsa_d?: string;
  eddsa_seed?: string;
  jwk: { kid: string; kty: 'AKP'; alg: string; pub: string; priv: string };
  jws: string;
  raw_to_be_signed: string;
  raw_message_representative: string;
  raw_composite_signature: string;
  raw_composite_public_key: string;
}

export function compositeExamples(): CompositeExample[] {
  const dir = 'jose-composite-05';
  const files = readdirSync(vectorPath(dir))
    .filter((f) => f.endsWith('.jose.json'))
    .sort();
  return files.map((file) => {
    const j = readJson<Omit<CompositeExample, 'file' | 'alg'>>(dir, file);
    return { file, alg: j.jwk.alg, ...j };
  });
}

// ---- IETF hackathon pqc-certificates JOSE artifacts ------------------------------------------

export const HACKATHON_PROVIDERS = ['pqc-jose-cose-noble-ref', 'pqc-jose-cose-py-ref'] as const;
export type HackathonProvider = (typeof HACKATHON_PROVIDERS)[number];

export interface HackathonArtifact {
  provider: HackathonProvider;
  /** The file-name stem, e.g. "ML-DSA-44-ES256" or "SLH-DSA-SHA2-128s". */
  name: string;
  publicJwk: { alg: string; kid: string; kty: string; pub: string };
  privateJwk: { alg: string; kid: string; kty: string; pub: string; priv: string };
  jws: string;
}

export function hackathonPayload(provider: HackathonProvider): Uint8Array {
  return new Uint8Array(readFileSync(vectorPath('ietf-hackathon-pqc-certificates', provider, 'payload.txt')));
}

export function hackathonArtifacts(provider: HackathonProvider): HackathonArtifact[] {
  const dir = join('ietf-hackathon-pqc-certificates', provider);
  const names = readdirSync(vectorPath(dir))
    .filter((f) => f.endsWith('_jws.txt'))
    .map((f) => f.slice(0, -'_jws.txt'.length))
    .sort();
  return names.map((name) => ({
    provider,
    name,
    publicJwk: readJson(dir, `${name}_jwk_pub.json`),
    privateJwk: readJson(dir, `${name}_jwk_priv.json`),
    jws: readText(dir, `${name}_jws.txt`).trim(),
  }));
}
