/**
 * Hostile and malformed JWEs. Everything checkable without a key fails with a precise typed
 * error (JweInvalid, AlgorithmNotAllowed, KeyMismatch, TokenTooLarge); everything after that
 * fails with one and the same JweDecryptionFailed, whichever part was altered.
 */
import {
  type DecryptionKey,
  decryptCompact,
  decryptFlattened,
  type EncryptionKey,
  encryptCompact,
  encryptFlattened,
  generateEncryptionKeyPair,
  generateKeyPair,
  importEncryptionKey,
  importJWK,
  jweRegistry,
  type PqidError,
  type PublicKey,
  verifyCompact,
} from '@pqid/jose';
import * as fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { rejects } from './helpers/assert.ts';

// Independent of src/lib/encoding.ts on purpose.
const b64u = (x: Uint8Array | string) => Buffer.from(x).toString('base64url');
const unb64u = (s: string) => new Uint8Array(Buffer.from(s, 'base64url'));
const header = (jwe: string) => JSON.parse(Buffer.from(jwe.split('.')[0] as string, 'base64url').toString());
const withHeader = (jwe: string, h: Record<string, unknown>) =>
  [b64u(JSON.stringify(h)), ...jwe.split('.').slice(1)].join('.');
const setSegment = (jwe: string, i: number, v: string) => {
  const p = jwe.split('.');
  p[i] = v;
  return p.join('.');
};
/** Flips one bit in the middle of a base64url segment's bytes. */
const flip = (seg: string) => {
  const b = unb64u(seg);
  b[b.length >> 1] = (b[b.length >> 1] as number) ^ 1;
  return b64u(b);
};

const ENCS = ['A128GCM', 'A256GCM', 'A128CBC-HS256', 'A256CBC-HS512'];
/** One algorithm per family and mode, and each PQ KEM kind. */
const SAMPLE: [string, string | undefined][] = [
  ['HPKE-9', undefined],
  ['HPKE-9-KE', 'A128CBC-HS256'],
  ['HPKE-12-KE', 'A256GCM'],
  ['HPKE-8', undefined],
  ['HPKE-0', undefined],
  ['HPKE-3-KE', 'A128GCM'],
  ['RSA-OAEP-256', 'A256GCM'],
  ['ECDH-ES+A128KW', 'A128CBC-HS256'],
  ['ECDH-ES', 'A256GCM'],
];

const keys = new Map<string, { priv: DecryptionKey; pub: EncryptionKey }>();
beforeAll(async () => {
  for (const [alg] of SAMPLE) {
    const { privateJwk, publicJwk } = await generateEncryptionKeyPair(alg);
    keys.set(alg, {
      priv: (await importEncryptionKey(privateJwk)) as DecryptionKey,
      pub: (await importEncryptionKey(publicJwk)) as EncryptionKey,
    });
  }
});
const kp = (alg: string) => keys.get(alg) as { priv: DecryptionKey; pub: EncryptionKey };
const allow = (alg: string) => ({ keyManagementAlgorithms: [alg], contentEncryptionAlgorithms: ENCS });

describe('tampering: one error for every authenticity failure', () => {
  for (const [alg, enc] of SAMPLE) {
    it(`${alg}: every altered part fails the same way`, async () => {
      const { priv, pub } = kp(alg);
      const jwe = await encryptCompact('the secret', pub, enc ? { enc } : {});
      const h = header(jwe);
      const variants: Record<string, string> = {
        // A changed but well-formed protected header: only the AAD catches it.
        'protected header': withHeader(jwe, { ...h, typ: 'JWT' }),
        ciphertext: setSegment(jwe, 3, flip(jwe.split('.')[3] as string)),
      };
      if (jwe.split('.')[1])
        variants['encrypted key'] = setSegment(jwe, 1, flip(jwe.split('.')[1] as string));
      if (jwe.split('.')[2]) variants.iv = setSegment(jwe, 2, flip(jwe.split('.')[2] as string));
      if (jwe.split('.')[4]) variants.tag = setSegment(jwe, 4, flip(jwe.split('.')[4] as string));
      if (h.ek) variants.ek = withHeader(jwe, { ...h, ek: flip(h.ek) });
      const other = await generateEncryptionKeyPair(alg);
      const wrongKey = (await importEncryptionKey({ ...other.privateJwk, kid: priv.kid })) as DecryptionKey;

      const errors: PqidError[] = [];
      for (const [what, bad] of Object.entries(variants)) {
        expect(bad, what).not.toBe(jwe);
        errors.push(await rejects(() => decryptCompact(bad, priv, allow(alg)), 'ERR_JWE_DECRYPTION_FAILED'));
      }
      errors.push(
        await rejects(() => decryptCompact(jwe, wrongKey, allow(alg)), 'ERR_JWE_DECRYPTION_FAILED'),
      );
      for (const e of errors) {
        expect(e.message).toBe('decryption failed');
        expect(e.cause).toBeUndefined();
      }
      // The untouched JWE still decrypts: the failures above are the tampering's.
      expect(Buffer.from((await decryptCompact(jwe, priv, allow(alg))).plaintext).toString()).toBe(
        'the secret',
      );
    });
  }

  it('flattened: the JWE AAD is authenticated', async () => {
    for (const [alg, enc] of SAMPLE) {
      const { priv, pub } = kp(alg);
      const flat = await encryptFlattened('x', pub, { ...(enc ? { enc } : {}), aad: 'tenant-1' });
      await rejects(
        () => decryptFlattened({ ...flat, aad: b64u('tenant-2') }, priv, allow(alg)),
        'ERR_JWE_DECRYPTION_FAILED',
      );
      const { aad: _a, ...noAad } = flat;
      await rejects(() => decryptFlattened(noAad, priv, allow(alg)), 'ERR_JWE_DECRYPTION_FAILED');
    }
  });

  it('random mutations never decrypt and never escape as untyped errors', async () => {
    const { priv, pub } = kp('HPKE-9-KE');
    const jwe = await encryptCompact('{"sub":"alice"}', pub, { enc: 'A256GCM' });
    await fc.assert(
      fc.asyncProperty(
        fc.nat(jwe.length - 1),
        fc.constantFrom(...'ABCDEFabcdef0123456789-_.'),
        async (i, c) => {
          const bad = jwe.slice(0, i) + c + jwe.slice(i + 1);
          if (bad === jwe) return;
          await rejects(
            () => decryptCompact(bad, priv, allow('HPKE-9-KE')),
            [
              'ERR_JWE_INVALID',
              'ERR_JWE_DECRYPTION_FAILED',
              'ERR_ALG_NOT_ALLOWED',
              'ERR_JWKS_NO_MATCHING_KEY',
            ],
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('the encapsulated secret', () => {
  for (const alg of ['HPKE-9', 'HPKE-9-KE', 'HPKE-0', 'HPKE-12-KE']) {
    it(`${alg}: too long, too short, not base64url or not a string is malformed, not a decryption failure`, async () => {
      const { priv, pub } = kp(alg);
      const ke = alg.endsWith('-KE');
      const jwe = await encryptCompact('x', pub, ke ? { enc: 'A256GCM' } : {});
      const h = header(jwe);
      const ek = unb64u(ke ? h.ek : (jwe.split('.')[1] as string));
      const put = (v: unknown) => (ke ? withHeader(jwe, { ...h, ek: v }) : setSegment(jwe, 1, v as string));
      const n = jweRegistry().find((e) => e.alg === alg)?.sizes.encapsulatedSecret;
      for (const bad of [
        b64u(new Uint8Array([...ek, 0])),
        b64u(ek.subarray(1)),
        b64u(new Uint8Array(64 * 1024 - 4096)),
        `${b64u(ek)}!`,
        '',
      ]) {
        const e = await rejects(
          () => decryptCompact(put(bad), priv, allow(alg)),
          ['ERR_JWE_INVALID', 'ERR_TOKEN_TOO_LARGE'],
        );
        if (e.code === 'ERR_JWE_INVALID' && bad !== '' && !bad.endsWith('!'))
          expect(e.message).toContain(`${n} bytes`);
      }
      if (ke) await rejects(() => decryptCompact(put(42), priv, allow(alg)), 'ERR_JWE_INVALID');
    });
  }
});

describe('header injection', () => {
  it('refuses crit, zip, psk_id, key-bearing and unknown members, and misplaced ek/epk/enc', async () => {
    const { priv, pub } = kp('HPKE-9-KE');
    const jwe = await encryptCompact('x', pub, { enc: 'A256GCM' });
    const h = header(jwe);
    const cases: Record<string, unknown>[] = [
      { ...h, crit: ['exp'], exp: 1 },
      { ...h, zip: 'DEF' },
      { ...h, psk_id: 'a2V5' },
      { ...h, jwk: { kty: 'OKP', crv: 'X25519', x: 'AAAA' } },
      { ...h, jku: 'https://attacker.example/jwks' },
      { ...h, x5u: 'https://attacker.example/cert' },
      { ...h, x5c: ['MII='] },
      { ...h, foo: 'bar' },
      { ...h, epk: { kty: 'EC' } },
      { ...h, apu: 'YWxpY2U' },
      { ...h, kid: 7 },
      { ...h, enc: undefined },
      { ...h, ek: undefined },
      { alg: h.alg, enc: h.enc, ek: h.ek, kid: h.kid, cty: ['JWT'] },
    ];
    for (const c of cases)
      await rejects(() => decryptCompact(withHeader(jwe, c), priv, allow('HPKE-9-KE')), 'ERR_JWE_INVALID');

    const ie = kp('HPKE-9');
    const ieJwe = await encryptCompact('x', ie.pub);
    const ih = header(ieJwe);
    for (const c of [
      { ...ih, enc: 'A256GCM' },
      { ...ih, ek: b64u(new Uint8Array(1120)) },
    ])
      await rejects(() => decryptCompact(withHeader(ieJwe, c), ie.priv, allow('HPKE-9')), 'ERR_JWE_INVALID');
    // Integrated Encryption has empty IV and tag segments.
    await rejects(
      () => decryptCompact(setSegment(ieJwe, 2, b64u('123456789012')), ie.priv, allow('HPKE-9')),
      'ERR_JWE_INVALID',
    );
    await rejects(
      () => decryptCompact(setSegment(ieJwe, 4, b64u('0123456789abcdef')), ie.priv, allow('HPKE-9')),
      'ERR_JWE_INVALID',
    );
    // Key Encryption: IV and tag sizes of the enc.
    await rejects(
      () => decryptCompact(setSegment(jwe, 2, b64u('short')), priv, allow('HPKE-9-KE')),
      'ERR_JWE_INVALID',
    );
    await rejects(
      () => decryptCompact(setSegment(jwe, 4, b64u('short')), priv, allow('HPKE-9-KE')),
      'ERR_JWE_INVALID',
    );
  });

  it('the allow-lists decide: a JWE never chooses its own algorithm', async () => {
    const { priv, pub } = kp('HPKE-9-KE');
    const jwe = await encryptCompact('x', pub, { enc: 'A256GCM' });
    const h = header(jwe);
    await rejects(
      () =>
        decryptCompact(jwe, priv, {
          keyManagementAlgorithms: ['HPKE-12-KE'],
          contentEncryptionAlgorithms: ENCS,
        }),
      'ERR_ALG_NOT_ALLOWED',
    );
    await rejects(
      () =>
        decryptCompact(jwe, priv, {
          keyManagementAlgorithms: ['HPKE-9-KE'],
          contentEncryptionAlgorithms: ['A128GCM'],
        }),
      'ERR_ALG_NOT_ALLOWED',
    );
    for (const alg of ['none', 'dir', 'HPKE-99', 'RSA1_5', 'A128KW', 'PBES2-HS256+A128KW', 42])
      await rejects(
        () => decryptCompact(withHeader(jwe, { ...h, alg }), priv, allow('HPKE-9-KE')),
        ['ERR_ALG_NOT_ALLOWED', 'ERR_JWE_INVALID'],
      );
    await rejects(
      () => decryptCompact(withHeader(jwe, { ...h, enc: 'A128CBC' }), priv, allow('HPKE-9-KE')),
      'ERR_ALG_NOT_ALLOWED',
    );
    // The allow-lists themselves are checked.
    for (const opts of [
      {},
      { keyManagementAlgorithms: [] },
      { keyManagementAlgorithms: ['none'] },
      { keyManagementAlgorithms: ['ES256'] },
      { keyManagementAlgorithms: ['HPKE-9-KE'] },
      { keyManagementAlgorithms: ['HPKE-9-KE'], contentEncryptionAlgorithms: ['A128CBC'] },
    ])
      await rejects(() => decryptCompact(jwe, priv, opts as never), 'ERR_INVALID_ARGUMENT');
  });

  it('alg in the header must be the key’s, and alg/enc only count in the protected header', async () => {
    const { priv, pub } = kp('HPKE-9-KE');
    const jwe = await encryptCompact('x', pub, { enc: 'A256GCM' });
    // A JWE for HPKE-9 offered to an HPKE-9-KE key: key-type confusion, refused.
    const ie = await encryptCompact('x', kp('HPKE-9').pub);
    await rejects(
      () =>
        decryptCompact(ie, priv, {
          keyManagementAlgorithms: ['HPKE-9', 'HPKE-9-KE'],
          contentEncryptionAlgorithms: ENCS,
        }),
      'ERR_KEY_MISMATCH',
    );
    const flat = await encryptFlattened('x', pub, { enc: 'A256GCM' });
    const p = JSON.parse(Buffer.from(flat.protected, 'base64url').toString());
    const { alg: _alg, ...rest } = p;
    await rejects(
      () =>
        decryptFlattened(
          { ...flat, protected: b64u(JSON.stringify(rest)), unprotected: { alg: p.alg } },
          priv,
          allow('HPKE-9-KE'),
        ),
      'ERR_JWE_INVALID',
    );
    await rejects(
      () => decryptFlattened({ ...flat, header: { kid: p.kid } }, priv, allow('HPKE-9-KE')),
      'ERR_JWE_INVALID',
    );
    expect(jwe).toBeTypeOf('string');
  });
});

describe('serializations', () => {
  let sigKey: PublicKey;
  beforeAll(async () => {
    sigKey = (await importJWK((await generateKeyPair('ES256')).publicJwk)) as PublicKey;
  });

  it('compact, JSON and JWS are not mistaken for one another', async () => {
    const { priv, pub } = kp('HPKE-9');
    const compact = await encryptCompact('x', pub);
    const flat = await encryptFlattened('x', pub);
    const opts = allow('HPKE-9');
    await rejects(() => decryptCompact(flat, priv, opts), 'ERR_JWE_INVALID');
    await rejects(() => decryptCompact(JSON.stringify(flat), priv, opts), 'ERR_JWE_INVALID');
    await rejects(() => decryptFlattened(compact, priv, opts), 'ERR_JWE_INVALID');
    await rejects(() => decryptCompact('eyJhbGciOiJFUzI1NiJ9.e30.c2ln', priv, opts), 'ERR_JWE_INVALID');
    await rejects(() => verifyCompact(compact, sigKey, { algorithms: ['ES256'] }), 'ERR_JWS_INVALID');
    for (const junk of [
      undefined,
      null,
      42,
      '',
      '....',
      'a.b.c.d.e',
      '{',
      '[]',
      { protected: 1 },
      { ciphertext: 'AA' },
    ])
      await rejects(
        () =>
          typeof junk === 'string' ? decryptCompact(junk, priv, opts) : decryptFlattened(junk, priv, opts),
        'ERR_JWE_INVALID',
      );
    // General JSON: one recipient is accepted, two are not.
    const { encrypted_key, ...shared } = flat;
    const general = { ...shared, recipients: [{ encrypted_key }] };
    expect(Buffer.from((await decryptFlattened(general, priv, opts)).plaintext).toString()).toBe('x');
    await rejects(
      () => decryptFlattened({ ...shared, recipients: [{ encrypted_key }, { encrypted_key }] }, priv, opts),
      'ERR_JWE_INVALID',
    );
  });

  it('refuses oversized JWEs before parsing, and non-canonical base64url', async () => {
    const { priv, pub } = kp('HPKE-9');
    const jwe = await encryptCompact('x', pub);
    await rejects(
      () => decryptCompact(jwe, priv, { ...allow('HPKE-9'), maxTokenBytes: 100 }),
      'ERR_TOKEN_TOO_LARGE',
    );
    await rejects(
      () => decryptCompact(`${jwe}${'A'.repeat(70_000)}`, priv, allow('HPKE-9')),
      'ERR_TOKEN_TOO_LARGE',
    );
    const ct = jwe.split('.')[3] as string;
    await rejects(
      () => decryptCompact(setSegment(jwe, 3, `${ct}=`), priv, allow('HPKE-9')),
      'ERR_JWE_INVALID',
    );
    await rejects(
      () => decryptCompact(setSegment(jwe, 3, `+${ct.slice(1)}`), priv, allow('HPKE-9')),
      'ERR_JWE_INVALID',
    );
    await rejects(
      () => decryptCompact(setSegment(jwe, 3, `${ct} `), priv, allow('HPKE-9')),
      'ERR_JWE_INVALID',
    );
  });
});

describe('keys of the wrong type', () => {
  it('import refuses a key type the alg cannot use, a signing key, and a JWK for another alg', async () => {
    const ec = await generateEncryptionKeyPair('HPKE-0');
    await rejects(() => importEncryptionKey(ec.publicJwk, { alg: 'HPKE-3' }), 'ERR_KEY_MISMATCH');
    await rejects(() => importEncryptionKey({ ...ec.publicJwk, alg: 'HPKE-9' }), 'ERR_KEY_MISMATCH');
    await rejects(() => importEncryptionKey({ ...ec.publicJwk, use: 'sig' }), 'ERR_KEY_MISMATCH');
    await rejects(() => importEncryptionKey({ ...ec.publicJwk, crv: 'P-384' }), 'ERR_KEY_MISMATCH');
    const sig = await generateKeyPair('ML-DSA-65');
    await rejects(() => importEncryptionKey(sig.publicJwk), 'ERR_KEY_MISMATCH');
    const x = await generateEncryptionKeyPair('HPKE-9');
    await rejects(() => importEncryptionKey({ ...x.publicJwk, alg: 'HPKE-12' }), 'ERR_JWK_INVALID');
    await rejects(
      () => importEncryptionKey({ ...x.publicJwk, pub: b64u(new Uint8Array(1215)) }),
      'ERR_JWK_INVALID',
    );
    await rejects(
      () => importEncryptionKey({ ...x.privateJwk, priv: b64u(new Uint8Array(31)) }),
      'ERR_JWK_INVALID',
    );
    await rejects(
      () => importEncryptionKey({ ...ec.publicJwk, x: b64u(new Uint8Array(32).fill(1)) }),
      'ERR_JWK_INVALID',
    );
    for (const junk of [null, 'jwk', [], { kty: 1 }])
      await rejects(() => importEncryptionKey(junk), 'ERR_JWK_INVALID');
  });

  it('encryption refuses a signing key, a missing enc, an enc on Integrated Encryption, reserved headers', async () => {
    const sig = (await importJWK((await generateKeyPair('ES256')).publicJwk)) as PublicKey;
    await rejects(() => encryptCompact('x', sig as never), 'ERR_INVALID_ARGUMENT');
    await rejects(() => encryptCompact('x', kp('HPKE-9-KE').pub), 'ERR_INVALID_ARGUMENT');
    await rejects(() => encryptCompact('x', kp('HPKE-9').pub, { enc: 'A256GCM' }), 'ERR_INVALID_ARGUMENT');
    await rejects(() => encryptCompact('x', kp('HPKE-9-KE').pub, { enc: 'A128CBC' }), 'ERR_ALG_UNSUPPORTED');
    for (const h of [{ ek: 'AA' }, { crit: ['b64'] }, { zip: 'DEF' }, { enc: 'A128GCM' }])
      await rejects(() => encryptCompact('x', kp('HPKE-9').pub, { header: h }), 'ERR_INVALID_ARGUMENT');
    await rejects(
      () => encryptCompact('x', kp('HPKE-9').pub, { header: { alg: 'HPKE-12' } }),
      'ERR_KEY_MISMATCH',
    );
    await rejects(
      () => encryptCompact('x', kp('HPKE-9').pub, { backend: 'openssl' as never }),
      'ERR_INVALID_ARGUMENT',
    );
  });
});
