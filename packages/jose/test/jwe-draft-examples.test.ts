/**
 * The JOSE HPKE drafts' own worked examples, Appendix A of draft-ietf-jose-hpke-encrypt-20
 * (HPKE-0 … HPKE-7, each with -KE) and of draft-ietf-jose-hpke-pq-pqt-00 (HPKE-8, -9, -10, -12,
 * -13, each with -KE): for every identifier a private JWK, a flattened JWE with JWE AAD and a
 * compact JWE, made by the drafts' authors (provenance: test/vectors/jose-hpke/README.md).
 *
 * On both HPKE backends each must decrypt to the plaintext exactly, its JWK must import with the
 * draft's `kid` as our thumbprint, and one changed byte anywhere that is authenticated — the
 * ciphertext, the encrypted key, `ek`, the IV and tag of Key Encryption, the JWE AAD — must be
 * refused with the one JweDecryptionFailed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  type DecryptionKey,
  decryptCompact,
  decryptFlattened,
  defaultHpkeBackend,
  exportEncryptionKey,
  type HpkeBackend,
  importEncryptionKey,
  jweRegistry,
} from '@pqid/jose';
import { describe, expect, it } from 'vitest';
import { recipientStructure } from '../src/jwe/encrypt.ts';
import { rejects } from './helpers/assert.ts';
import { vectorPath } from './helpers/vectors.ts';

interface DraftExample {
  alg: string;
  jwk: Record<string, string>;
  flattened: {
    protected: string;
    aad: string;
    encrypted_key: string;
    iv?: string;
    ciphertext: string;
    tag?: string;
  };
  compact: string;
}

/** The files and their checksums, as test/vectors/jose-hpke/README.md lists them. */
const SETS = [
  {
    draft: 'draft-ietf-jose-hpke-encrypt-20',
    examples: [
      'draft-ietf-jose-hpke-encrypt-20-appendix-a.json',
      '235fade8057e5e114d3e6b6e39c7187509178f148e0518a4117e8a3d3c1c3884',
    ],
    plaintext: [
      'draft-ietf-jose-hpke-encrypt-20-plaintext.txt',
      '40f8c64c1eaaabec674c37469b1137cd1d1d4e8999b72ee6d03e77fabfcd99b4',
    ],
  },
  {
    draft: 'draft-ietf-jose-hpke-pq-pqt-00',
    examples: [
      'draft-ietf-jose-hpke-pq-pqt-00-appendix-a.json',
      '97e5fd1c5bd417b3af3f8948e8c54914c7c9f544ad786182d18cf15a011bd2c0',
    ],
    plaintext: [
      'draft-ietf-jose-hpke-pq-pqt-00-plaintext.txt',
      'f5c3e318a8c09ba078afdf853fcbb871e91844fa444ee8764bacf5dece5bc8b4',
    ],
  },
] as const;

const read = ([file, sha256]: readonly [string, string]): Buffer => {
  const bytes = readFileSync(vectorPath('jose-hpke', file));
  expect(createHash('sha256').update(bytes).digest('hex'), file).toBe(sha256);
  return bytes;
};

const BACKENDS: HpkeBackend[] = defaultHpkeBackend() === 'node' ? ['node', 'noble'] : ['noble'];
const FAILED = 'ERR_JWE_DECRYPTION_FAILED';
// The drafts' flattened examples carry this JWE AAD (their generator's `aadString`).
const AAD = 'The Fellowship of the Ring';

// Independent of src/lib/encoding.ts on purpose.
const unb64u = (s: string) => Buffer.from(s, 'base64url');
/** The base64url segment with one bit of its middle byte flipped. */
const flip = (seg: string) => {
  const b = unb64u(seg);
  b[b.length >> 1] = (b[b.length >> 1] as number) ^ 1;
  return b.toString('base64url');
};
const withSegment = (jwe: string, i: number, f: (s: string) => string) =>
  jwe
    .split('.')
    .map((s, j) => (j === i ? f(s) : s))
    .join('.');
/** The protected header re-encoded with its `ek` changed by one bit. */
const flipEk = (protectedB64: string) => {
  const h = JSON.parse(unb64u(protectedB64).toString('utf8'));
  h.ek = flip(h.ek);
  return Buffer.from(JSON.stringify(h)).toString('base64url');
};

/** Every one-byte change the decryption must refuse, for a compact JWE of this example. */
function tamperedCompact(ex: DraftExample): [string, string][] {
  const cases: [string, string][] = [
    ['ciphertext', withSegment(ex.compact, 3, flip)],
    ['encrypted key', withSegment(ex.compact, 1, flip)],
  ];
  if (ex.alg.endsWith('-KE'))
    cases.push(
      ['ek', withSegment(ex.compact, 0, flipEk)],
      ['iv', withSegment(ex.compact, 2, flip)],
      ['tag', withSegment(ex.compact, 4, flip)],
    );
  return cases;
}

describe('the JOSE HPKE drafts’ Appendix A examples', () => {
  const hpkeAlgs = jweRegistry()
    .filter((e) => e.family === 'hpke')
    .map((e) => e.alg)
    .sort();
  const loaded = SETS.map((s) => ({
    draft: s.draft,
    examples: JSON.parse(read(s.examples).toString('utf8')) as DraftExample[],
    plaintext: new Uint8Array(read(s.plaintext)),
  }));

  it('cover exactly the HPKE identifiers of the registry, with the same key types', () => {
    const algs = loaded.flatMap((s) => s.examples.map((e) => e.alg)).sort();
    expect(algs).toEqual(hpkeAlgs);
    for (const s of loaded)
      for (const ex of s.examples) {
        const entry = jweRegistry().find((e) => e.alg === ex.alg);
        expect(entry?.keyTypes, ex.alg).toContainEqual(
          ex.jwk.crv ? { kty: ex.jwk.kty, crv: ex.jwk.crv } : { kty: ex.jwk.kty },
        );
        expect(entry?.standard.startsWith(s.draft), ex.alg).toBe(true);
      }
  });

  it('Recipient_structure is the example of draft-ietf-jose-hpke-encrypt-20 §6.1.1', () => {
    expect(Buffer.from(recipientStructure('A128GCM')).toString('hex')).toBe(
      '4a4f53452d48504b452072637074ff4131323847434dff',
    );
  });

  for (const { draft, examples, plaintext } of loaded) {
    describe(draft, () => {
      for (const ex of examples) {
        const opts = (backend: HpkeBackend) => ({
          keyManagementAlgorithms: [ex.alg],
          contentEncryptionAlgorithms: ['A128GCM', 'A256GCM'],
          backend,
        });
        const key = async () => (await importEncryptionKey(ex.jwk)) as DecryptionKey;

        it(`${ex.alg}: the JWK imports, and its thumbprint is the draft's kid`, async () => {
          const { kid, ...withoutKid } = ex.jwk;
          const imported = await importEncryptionKey(withoutKid);
          expect(exportEncryptionKey(imported).kid).toBe(kid);
          expect(exportEncryptionKey(imported).alg).toBe(ex.alg);
        });

        for (const backend of BACKENDS) {
          it(`${ex.alg} (${backend}): compact and flattened decrypt to the plaintext`, async () => {
            const k = await key();
            const c = await decryptCompact(ex.compact, k, opts(backend));
            expect(c.plaintext).toEqual(plaintext);
            expect(c.protectedHeader.alg).toBe(ex.alg);
            const f = await decryptFlattened(ex.flattened, k, opts(backend));
            expect(f.plaintext).toEqual(plaintext);
            expect(Buffer.from(f.additionalAuthenticatedData ?? []).toString('utf8')).toBe(AAD);
          });

          it(`${ex.alg} (${backend}): one changed byte is refused`, async () => {
            const k = await key();
            for (const [what, jwe] of tamperedCompact(ex)) {
              const e = await rejects(() => decryptCompact(jwe, k, opts(backend)), FAILED);
              expect(e.message, what).toBe('decryption failed');
            }
            const aad = Buffer.from(`${AAD}!`).toString('base64url');
            await rejects(() => decryptFlattened({ ...ex.flattened, aad }, k, opts(backend)), FAILED);
            const ciphertext = flip(ex.flattened.ciphertext);
            await rejects(() => decryptFlattened({ ...ex.flattened, ciphertext }, k, opts(backend)), FAILED);
          });
        }
      }
    });
  }
});
