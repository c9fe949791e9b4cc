/**
 * What encrypting an ID token (a Nested JWT: signed, then encrypted, OIDC Core §10.2) adds: the
 * bytes where it travels (one cookie, a logout URL with `id_token_hint`), and the CPU per token
 * next to signing alone. The JWE configurations are measured side by side in one run, each with
 * one throw-away recipient key; CPU is measured in the runner process like the sign cost
 * (bench.mjs: repeated timed loops taking turns, the median loop and the loops' spread).
 */
import {
  decryptCompact,
  defaultHpkeBackend,
  encryptJwt,
  generateEncryptionKeyPair,
  generateKeyPair,
  getJweAlgorithm,
  importEncryptionKey,
  signJwt,
} from '@pqid/jose';
import { CLAIMS, interleaved } from './bench.mjs';
import { importPrivateJwk } from './samples.mjs';

/** @typedef {import('./types.d.ts').Budgets} Budgets */
/** @typedef {import('./types.d.ts').JweConfig} JweConfig */
/** @typedef {import('./types.d.ts').EncryptedSizeRow} EncryptedSizeRow */
/** @typedef {import('./types.d.ts').EncryptionCost} EncryptionCost */
/** @typedef {import('./samples.mjs').SizeItem} SizeItem */

/**
 * The JWE configurations measured: X-Wing (ML-KEM-768 + X25519), the NIST-curve hybrids, pure
 * ML-KEM-768 (draft-ietf-jose-hpke-pq-pqt-00), X-Wing in Key Encryption mode, and the two
 * classical ones OIDC providers offer today (RFC 7518).
 * @type {JweConfig[]}
 */
export const JWE_CONFIGS = [
  { alg: 'HPKE-9' },
  { alg: 'HPKE-8' },
  { alg: 'HPKE-10' },
  { alg: 'HPKE-12' },
  { alg: 'HPKE-9-KE', enc: 'A256GCM' },
  { alg: 'ECDH-ES+A256KW', enc: 'A256GCM' },
  { alg: 'RSA-OAEP-256', enc: 'A256GCM' },
];

/** @param {JweConfig} c */
export const jweLabel = (c) => (c.enc ? `${c.alg} / ${c.enc}` : c.alg);

/** The profiles whose ID tokens are encrypted: what the IdP issued, and with profile claims. */
export const ENCRYPTED_PROFILES = ['minimal', 'typical'];

/** As the sizes scenario's k6 script sends them (load/scenarios/sizes.js). */
const COOKIE_ATTRS = '; Path=/; Secure; HttpOnly; SameSite=Lax';

/**
 * The Set-Cookie value and the logout URL carrying `token`, in bytes.
 * @param {string} token
 * @param {{ endSessionEndpoint: string, postLogoutRedirectUri: string }} where
 */
export const carried = (token, where) => ({
  setCookie: Buffer.byteLength(`id_token=${token}${COOKIE_ATTRS}`),
  logoutUrl: Buffer.byteLength(
    `${where.endSessionEndpoint}?id_token_hint=${token}&post_logout_redirect_uri=${encodeURIComponent(where.postLogoutRedirectUri)}&state=af0ifjsldkj`,
  ),
});

/**
 * A fresh key pair of `c.alg`: the public half to encrypt to, the private one to decrypt with.
 * @param {JweConfig} c
 */
async function recipient(c) {
  const { publicJwk, privateJwk } = await generateEncryptionKeyPair(c.alg);
  return {
    pub: /** @type {import('@pqid/jose').EncryptionKey} */ (await importEncryptionKey(publicJwk)),
    priv: /** @type {import('@pqid/jose').DecryptionKey} */ (await importEncryptionKey(privateJwk)),
  };
}

/** @param {JweConfig} c */
const encryptOptions = (c) => (c.enc ? { enc: c.enc } : {});

/**
 * Every (alg, profile) ID token of `items` signed only and inside each JWE configuration: bytes,
 * Set-Cookie and logout URL, against the budgets. The signed-only figures are the same tokens
 * k6 measured.
 * @param {SizeItem[]} items
 * @param {Budgets} b
 * @param {{ endSessionEndpoint: string, postLogoutRedirectUri: string }} where
 * @param {JweConfig[]} [configs]
 * @returns {Promise<EncryptedSizeRow[]>}
 */
export async function encryptedSizes(items, b, where, configs = JWE_CONFIGS) {
  const keys = await Promise.all(configs.map(recipient));
  /** @type {EncryptedSizeRow[]} */
  const rows = [];
  for (const item of items.filter((i) => ENCRYPTED_PROFILES.includes(i.profile))) {
    /** @param {string} token @param {JweConfig | null} jwe */
    const row = (token, jwe) => {
      const c = carried(token, where);
      return {
        alg: item.alg,
        profile: item.profile,
        jwe,
        bytes: Buffer.byteLength(token),
        ...c,
        fitsCookie: c.setCookie <= b.cookie,
        fitsUrlConservative: c.logoutUrl <= b.urlConservative,
        fitsUrl: c.logoutUrl <= b.url,
      };
    };
    rows.push(row(item.idToken, null));
    for (const [i, c] of configs.entries()) {
      const key = keys[i]?.pub;
      if (key) rows.push(row(await encryptJwt(item.idToken, key, encryptOptions(c)), c));
    }
  }
  return rows;
}

/**
 * CPU µs per token in the runner process, side by side: signing a typical ID token with
 * `signAlg` (and with ES256, the classical reference), and for each JWE configuration encrypting
 * that signed token, signing and encrypting it (what an IdP does per encrypted ID token), and
 * decrypting it (what the relying party does).
 * @param {string} signAlg
 * @param {{ repeats: number, minOps: number, minMs: number }} settings
 * @param {JweConfig[]} [configs]
 * @returns {Promise<EncryptionCost>}
 */
export async function encryptionCost(signAlg, settings, configs = JWE_CONFIGS) {
  /** @param {string} alg */
  const signer = async (alg) => {
    const key = await importPrivateJwk((await generateKeyPair(alg)).privateJwk);
    return () => signJwt(CLAIMS, key, { expiresIn: 600 });
  };
  const sign = await signer(signAlg);
  const jws = await sign();
  /** @type {[string, () => Promise<unknown>][]} */
  const ops = [[`sign ${signAlg}`, sign]];
  if (signAlg !== 'ES256') ops.push(['sign ES256', await signer('ES256')]);
  for (const c of configs) {
    const { pub, priv } = await recipient(c);
    const label = jweLabel(c);
    const jwe = await encryptJwt(jws, pub, encryptOptions(c));
    const dopts = { keyManagementAlgorithms: [c.alg], contentEncryptionAlgorithms: c.enc ? [c.enc] : [] };
    await decryptCompact(jwe, priv, dopts); // warm-up, and proof the JWE opens
    ops.push(
      [`encrypt ${label}`, () => encryptJwt(jws, pub, encryptOptions(c))],
      [`sign + encrypt ${label}`, async () => encryptJwt(await sign(), pub, encryptOptions(c))],
      [`decrypt ${label}`, () => decryptCompact(jwe, priv, dopts)],
    );
  }
  const cost = await interleaved(ops, settings);
  return {
    signAlg,
    hpkeBackend: defaultHpkeBackend(),
    configs: configs.map((c) => {
      const e = getJweAlgorithm(c.alg);
      return { ...c, quantumSafe: e.hybrid ? 'PQ/T' : e.pq ? 'PQ' : 'no' };
    }),
    cost,
  };
}
