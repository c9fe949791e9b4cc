/**
 * Every public ML-DSA verify path, on every backend, against signatures with exactly one
 * FIPS 204 defect (and their valid twins at the same boundary), made at test time over each
 * path's own signed bytes (test/vectors/pqid-mldsa-verify/cases.ts):
 *
 *   mldsa.verify / verifySync, verifyCompact, verifyJwt, verifyGeneral, the ML-DSA half of a
 *   composite JWS, and XML-DSig (SAML) through @pqid/xmldsig.
 *
 * (The IdP's private_key_jwt path is in idp/test/private-key-jwt-vectors.test.ts.) On the
 * liboqs 0.13 AVX2 verifier pqid used before mldsa-native, unpatched, the `native` backend
 * accepted the z-norm cases and rejected the valid r0 = 0 hint case on every path.
 */
import crypto from 'node:crypto';
import {
  type BackendName,
  backends,
  configure,
  generateKeyPair,
  importJWK,
  type Jwk,
  type MlDsaAlg,
  mldsa,
  type PublicKey,
  verifyCompact,
  verifyGeneral,
  verifyJwt,
} from '@pqid/jose';
import { createRootCertificate, issueCertificate, signXml, verifyXml } from '@pqid/xmldsig';
import { DOMParser } from '@xmldom/xmldom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ExclusiveCanonicalization } from 'xml-crypto';
import { getBackend } from '../packages/jose/src/backends/select.ts';
import { samlResponse } from '../packages/xmldsig/test/helpers/fixtures.ts';
import { type CaseSet, type PathCase, pathCases } from './vectors/pqid-mldsa-verify/cases.ts';

const ALGS: MlDsaAlg[] = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];
const BACKENDS = backends().filter((b) => b.available);
const te = new TextEncoder();
const b64u = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');
const cat = (...p: Uint8Array[]) => new Uint8Array(Buffer.concat(p));

/** Runs fn pinned to one backend (configure({ backend })) and proves that backend did the verifying. */
async function on<T>(name: BackendName, fn: () => Promise<T> | T): Promise<T> {
  const b = getBackend(name);
  const spies = [vi.spyOn(b, 'verify'), vi.spyOn(b, 'verifySync')];
  const prev = configure({ backend: name });
  try {
    const r = await fn();
    expect(
      spies.reduce((n, s) => n + s.mock.calls.length, 0),
      `${name} was not used`,
    ).toBeGreaterThan(0);
    return r;
  } finally {
    configure(prev);
    for (const s of spies) s.mockRestore();
  }
}

/** Verdict of a verify that throws on refusal: true, or the error code. */
async function outcome(p: () => Promise<unknown> | unknown): Promise<true | string> {
  try {
    await p();
    return true;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') throw e;
    return code;
  }
}

const pubOf = (set: CaseSet, c: PathCase) =>
  c.key === 'zero-t1' ? set.zeroT1PublicKey : set.ordinary.publicKey;

// --- composite: the traditional half is honest, the ML-DSA half is the case -------------------
const COMPOSITE: Record<
  MlDsaAlg,
  { alg: string; label: string; ph: 'sha512' | 'shake256'; trad: 'ed25519' | 'ed448' }
> = {
  'ML-DSA-44': {
    alg: 'ML-DSA-44-Ed25519',
    label: 'COMPSIG-MLDSA44-Ed25519-SHA512',
    ph: 'sha512',
    trad: 'ed25519',
  },
  'ML-DSA-65': {
    alg: 'ML-DSA-65-Ed25519',
    label: 'COMPSIG-MLDSA65-Ed25519-SHA512',
    ph: 'sha512',
    trad: 'ed25519',
  },
  'ML-DSA-87': {
    alg: 'ML-DSA-87-Ed448',
    label: 'COMPSIG-MLDSA87-Ed448-SHAKE256',
    ph: 'shake256',
    trad: 'ed448',
  },
};
/** draft-ietf-jose-pq-composite-sigs-05: M′ = Prefix ‖ Label ‖ 0x00 ‖ PH(signing input), ctx = Label. */
const compositeMessage = (spec: (typeof COMPOSITE)[MlDsaAlg], input: Uint8Array) =>
  cat(
    te.encode('CompositeAlgorithmSignatures2025'),
    te.encode(spec.label),
    Uint8Array.of(0),
    new Uint8Array(
      crypto
        .createHash(spec.ph, spec.ph === 'shake256' ? { outputLength: 64 } : {})
        .update(input)
        .digest(),
    ),
  );

interface Prepared {
  set: CaseSet;
  keys: Record<'zero-t1' | 'ordinary', PublicKey>;
  composite: {
    spec: (typeof COMPOSITE)[MlDsaAlg];
    trad: crypto.KeyObject;
    keys: Record<'zero-t1' | 'ordinary', PublicKey>;
  };
  certs: Record<'zero-t1' | 'ordinary', string>;
  signedXml: string;
  /** Per case: compact JWT, general JWS, composite JWT, XML document. */
  tokens: Map<string, { jwt: string; general: object; composite: string; xml: string; raw: Uint8Array }>;
}

const prepared = new Map<MlDsaAlg, Prepared>();
let rootCert: { key: Jwk; certificate: string };

beforeAll(async () => {
  const { privateJwk } = await generateKeyPair('ML-DSA-65');
  const { pem } = await createRootCertificate({
    subject: { commonName: 'verify-paths root' },
    key: privateJwk,
  });
  rootCert = { key: privateJwk, certificate: pem };
  for (const alg of ALGS) {
    const set = pathCases(alg);
    const spec = COMPOSITE[alg];
    const trad = crypto.generateKeyPairSync(spec.trad as 'ed25519');
    const tradPub = Buffer.from(trad.publicKey.export({ format: 'jwk' }).x as string, 'base64url');
    const jwkOf = (pk: Uint8Array): Jwk => ({ kty: 'AKP', alg, pub: b64u(pk) }) as Jwk;
    const compJwk = (pk: Uint8Array): Jwk =>
      ({ kty: 'AKP', alg: spec.alg, pub: b64u(cat(pk, tradPub)) }) as Jwk;
    const kinds = ['zero-t1', 'ordinary'] as const;
    const pk = { 'zero-t1': set.zeroT1PublicKey, ordinary: set.ordinary.publicKey };
    const keys = Object.fromEntries(
      await Promise.all(kinds.map(async (k) => [k, await importJWK(jwkOf(pk[k]))])),
    ) as Prepared['keys'];
    const ckeys = Object.fromEntries(
      await Promise.all(kinds.map(async (k) => [k, await importJWK(compJwk(pk[k]))])),
    ) as Prepared['keys'];
    const certs = Object.fromEntries(
      await Promise.all(
        kinds.map(async (k) => [
          k,
          (
            await issueCertificate({
              subject: { commonName: `${alg} ${k}` },
              subjectPublicKey: jwkOf(pk[k]),
              issuerKey: rootCert.key,
              issuerCertificate: rootCert.certificate,
              validity: { days: 1 },
            })
          ).pem,
        ]),
      ),
    ) as Prepared['certs'];
    // A real SAML Response signed by the ordinary key; each case swaps in its own signature value.
    const signedXml = signXml(samlResponse(), {
      key: { ...jwkOf(pk.ordinary), priv: b64u(set.ordinary.seed) } as Jwk,
      certificate: certs.ordinary,
    });
    prepared.set(alg, {
      set,
      keys,
      composite: { spec, trad: trad.privateKey, keys: ckeys },
      certs,
      signedXml,
      tokens: new Map(),
    });
  }
}, 120_000);

/** Builds (once per alg and case) every path's token with the case's ML-DSA signature. */
function tokensFor(alg: MlDsaAlg, c: PathCase) {
  const pr = prepared.get(alg) as Prepared;
  const hit = pr.tokens.get(c.id);
  if (hit) return hit;
  const now = Math.floor(Date.now() / 1000);
  const payload = b64u(JSON.stringify({ iss: 'https://rp.example', sub: c.id, iat: now, exp: now + 3600 }));
  const header = b64u(JSON.stringify({ alg, typ: 'JWT' }));
  const sig = c.sign(te.encode(`${header}.${payload}`));
  const cheader = b64u(JSON.stringify({ alg: pr.composite.spec.alg, typ: 'JWT' }));
  const mPrime = compositeMessage(pr.composite.spec, te.encode(`${cheader}.${payload}`));
  const csig = cat(
    c.sign(mPrime, te.encode(pr.composite.spec.label)),
    crypto.sign(null, mPrime, pr.composite.trad),
  );
  // XML: the exclusive-C14N SignedInfo octets, computed outside @pqid/xmldsig.
  const doc = new DOMParser().parseFromString(pr.signedXml, 'text/xml');
  const DS = 'http://www.w3.org/2000/09/xmldsig#';
  const si = doc.getElementsByTagNameNS(DS, 'SignedInfo').item(0);
  const c14n = te.encode(new ExclusiveCanonicalization().process(si as never, {}).toString());
  const certB64 = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');
  const xml = pr.signedXml
    .replace(
      /<ds:SignatureValue>[^<]*</,
      `<ds:SignatureValue>${Buffer.from(c.sign(c14n)).toString('base64')}<`,
    )
    .replace(/<ds:X509Certificate>[^<]*</, `<ds:X509Certificate>${certB64(pr.certs[c.key])}<`);
  const t = {
    jwt: `${header}.${payload}.${b64u(sig)}`,
    general: { payload, signatures: [{ protected: header, signature: b64u(sig) }] },
    composite: `${cheader}.${payload}.${b64u(csig)}`,
    xml,
    raw: sig,
  };
  pr.tokens.set(c.id, t);
  return t;
}

describe.each(BACKENDS.map((b) => [b.name, b] as const))('backend %s', (backend) => {
  describe.each(ALGS)('%s', (alg) => {
    const set = pathCases(alg);
    it.each(set.cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
      const pr = prepared.get(alg) as Prepared;
      const t = tokensFor(alg, c);
      const key = pr.keys[c.key];
      const want = c.valid ? true : undefined;
      const verdicts: Record<string, true | string> = await on(backend, async () => ({
        'mldsa.verify':
          (await mldsa.verify(
            alg,
            pubOf(set, c),
            te.encode(t.jwt.split('.').slice(0, 2).join('.')),
            t.raw,
          )) || 'false',
        'mldsa.verifySync':
          mldsa.verifySync(alg, pubOf(set, c), te.encode(t.jwt.split('.').slice(0, 2).join('.')), t.raw) ||
          'false',
        verifyCompact: await outcome(() => verifyCompact(t.jwt, key, { algorithms: [alg] })),
        verifyJwt: await outcome(() =>
          verifyJwt(t.jwt, key, { algorithms: [alg], issuer: 'https://rp.example' }),
        ),
        verifyGeneral: await outcome(() => verifyGeneral(t.general, key, { algorithms: [alg] })),
        composite: await outcome(() =>
          verifyJwt(t.composite, pr.composite.keys[c.key], { algorithms: [pr.composite.spec.alg] }),
        ),
        'xmldsig.verifyXml': await outcome(() =>
          verifyXml(t.xml, { trustedCertificates: [pr.certs[c.key]], allowedAlgorithms: [alg] }),
        ),
      }));
      if (want) {
        expect(verdicts).toEqual(Object.fromEntries(Object.keys(verdicts).map((k) => [k, true])));
      } else {
        expect(verdicts).toEqual({
          'mldsa.verify': 'false',
          'mldsa.verifySync': 'false',
          verifyCompact: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
          verifyJwt: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
          verifyGeneral: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
          composite: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
          'xmldsig.verifyXml': 'ERR_XMLDSIG_SIGNATURE_INVALID',
        });
      }
    });
  });
});

describe('coverage', () => {
  it('runs on native, native-ref, node and noble (native required in CI)', () => {
    const names = BACKENDS.map((b) => b.name);
    expect(names).toContain('noble');
    if (process.env.PQID_REQUIRE_NATIVE)
      expect(names).toEqual(expect.arrayContaining(['native', 'native-ref', 'node']));
  });
});
