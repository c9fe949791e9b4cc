/**
 * The types a TypeScript user gets from key import and export: a private JWK imports as the
 * handle that signs or decrypts, a public one as the handle that verifies or encrypts, and a JWK
 * whose type cannot tell (a `Jwk`, `unknown`, `any`) as either, never as a guess. Each case runs
 * (the handle really is of that class) and is checked by the compiler: `npm run typecheck`
 * compiles this file, and the last test compiles it here too, so the suite fails when a type
 * drifts even where the typecheck is not run.
 */
import { fileURLToPath } from 'node:url';
import {
  DecryptionKey,
  decryptAndVerifyJwt,
  EncryptionKey,
  exportEncryptionKey,
  exportJWK,
  generateEncryptionKeyPair,
  generateKeyPair,
  importEncryptionKey,
  importJWK,
  type Jwk,
  type KeyHandle,
  PrivateKey,
  PublicKey,
  signAndEncryptJwt,
  signJwt,
  verifyJwt,
} from '@pqid/jose';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it } from 'vitest';

const claims = { sub: 'alice' };

describe('importJWK', () => {
  it("gives a PrivateKey for generateKeyPair's privateJwk: the README's sign-then-verify compiles", async () => {
    const { privateJwk, publicJwk } = await generateKeyPair('ML-DSA-44');
    const key = await importJWK(privateJwk);
    expectTypeOf(key).toEqualTypeOf<PrivateKey>();
    expect(key).toBeInstanceOf(PrivateKey);
    const token = await signJwt(claims, key);
    const pub = await importJWK(publicJwk);
    expectTypeOf(pub).toEqualTypeOf<PublicKey>();
    expect(pub).toBeInstanceOf(PublicKey);
    expect((await verifyJwt(token, pub, { algorithms: ['ML-DSA-44'] })).claims.sub).toBe('alice');
    // @ts-expect-error: a public key does not sign
    await expect(signJwt(claims, pub)).rejects.toThrow(/PrivateKey/);
  });

  it('tells private from public JWK literals by their members (priv for AKP, d for EC/OKP/RSA)', async () => {
    const { privateJwk } = await generateKeyPair('ES256');
    const { kty, crv, x, y, d } = privateJwk as { kty: 'EC'; crv: string; x: string; y: string; d: string };
    const priv = await importJWK({ kty, crv, x, y, d });
    expectTypeOf(priv).toEqualTypeOf<PrivateKey>();
    expect(priv).toBeInstanceOf(PrivateKey);
    const pub = await importJWK({ kty, crv, x, y });
    expectTypeOf(pub).toEqualTypeOf<PublicKey>();
    expect(pub).toBeInstanceOf(PublicKey);
  });

  it('gives either handle when the type cannot tell: a Jwk, unknown, any', async () => {
    const { privateJwk } = await generateKeyPair('ML-DSA-44');
    const asJwk: Jwk = privateJwk;
    const asUnknown: unknown = privateJwk;
    // biome-ignore lint/suspicious/noExplicitAny: what JSON.parse gives
    const asAny: any = JSON.parse(JSON.stringify(privateJwk));
    expectTypeOf(await importJWK(asJwk)).toEqualTypeOf<PublicKey | PrivateKey>();
    expectTypeOf(await importJWK(asUnknown)).toEqualTypeOf<PublicKey | PrivateKey>();
    expectTypeOf(await importJWK(asAny)).toEqualTypeOf<KeyHandle>();
    const key = await importJWK(asAny);
    // @ts-expect-error: narrow first (key.type === 'private', or instanceof PrivateKey)
    await signJwt(claims, key);
    if (key.type === 'private') expect(await signJwt(claims, key)).toMatch(/^ey/);
  });
});

describe('exportJWK and generateKeyPair', () => {
  it('give private and public JWKs that import back as the same kind of handle', async () => {
    const pair = await generateKeyPair('ML-DSA-44');
    const key = await importJWK(pair.privateJwk);
    const privateJwk = exportJWK(key);
    const publicJwk = exportJWK(key.publicKey);
    expect(privateJwk).toEqual(pair.privateJwk);
    expect(publicJwk).toEqual(pair.publicJwk);
    expectTypeOf(await importJWK(privateJwk)).toEqualTypeOf<PrivateKey>();
    expectTypeOf(await importJWK(publicJwk)).toEqualTypeOf<PublicKey>();
    expectTypeOf(await importJWK(key.publicKey.jwk)).toEqualTypeOf<PublicKey>();
    expectTypeOf(privateJwk.kid).toEqualTypeOf<string | undefined>();
  });
});

describe('importEncryptionKey', () => {
  it("gives a DecryptionKey and an EncryptionKey for generateEncryptionKeyPair's JWKs: the README's nested JWT compiles", async () => {
    const { privateJwk, publicJwk } = await generateEncryptionKeyPair('HPKE-9');
    const decryptionKey = await importEncryptionKey(privateJwk);
    const encryptionKey = await importEncryptionKey(publicJwk);
    expectTypeOf(decryptionKey).toEqualTypeOf<DecryptionKey>();
    expectTypeOf(encryptionKey).toEqualTypeOf<EncryptionKey>();
    expect(decryptionKey).toBeInstanceOf(DecryptionKey);
    expect(encryptionKey).toBeInstanceOf(EncryptionKey);
    const signer = await importJWK((await generateKeyPair('ML-DSA-44')).privateJwk);
    const jwe = await signAndEncryptJwt(claims, signer, encryptionKey);
    const { claims: got } = await decryptAndVerifyJwt(jwe, [decryptionKey], signer.publicKey, {
      decrypt: { keyManagementAlgorithms: ['HPKE-9'] },
      verify: { algorithms: ['ML-DSA-44'] },
    });
    expect(got.sub).toBe('alice');
    // @ts-expect-error: an EncryptionKey does not decrypt
    await expect(decryptAndVerifyJwt(jwe, [encryptionKey], signer.publicKey, {})).rejects.toThrow();
  });

  it('round-trips through exportEncryptionKey, and gives either handle for a Jwk', async () => {
    const { privateJwk } = await generateEncryptionKeyPair('ECDH-ES+A128KW');
    const key = await importEncryptionKey(privateJwk);
    expectTypeOf(await importEncryptionKey(exportEncryptionKey(key))).toEqualTypeOf<DecryptionKey>();
    expectTypeOf(
      await importEncryptionKey(exportEncryptionKey(key.publicKey)),
    ).toEqualTypeOf<EncryptionKey>();
    const asJwk: Jwk = privateJwk;
    expectTypeOf(await importEncryptionKey(asJwk)).toEqualTypeOf<EncryptionKey | DecryptionKey>();
  });
});

describe('the compiler', () => {
  it('accepts every type assertion of this file (strict, against the package sources)', () => {
    const file = fileURLToPath(import.meta.url);
    const config = ts.getParsedCommandLineOfConfigFile(
      fileURLToPath(new URL('./tsconfig.json', import.meta.url)),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => expect.fail(String(d.messageText)) },
    );
    if (!config) throw new Error('test/tsconfig.json does not parse');
    const program = ts.createProgram([file], config.options);
    const errors = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => {
      const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      return `types.test.ts:${at}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(errors).toEqual([]);
  }, 60_000);
});
