/**
 * "Encrypted ID tokens": the sizes scenario's ID tokens inside each JWE configuration, where
 * they travel (one cookie, a logout URL), and what encrypting costs per token next to signing
 * alone, as ratios measured side by side in one run.
 */
import { jweLabel } from '../../encryption.mjs';
import { LARGE_SPREAD, MIN_SAMPLES, spreadText } from '../../spread.mjs';
import { int, yes } from '../format.mjs';

/** @typedef {import('../../types.d.ts').Results} Results */
/** @typedef {import('../../types.d.ts').Section} Section */
/** @typedef {import('../../types.d.ts').Budgets} Budgets */
/** @typedef {import('../../types.d.ts').Encryption} Encryption */
/** @typedef {import('../../types.d.ts').EncryptedSizeRow} EncryptedSizeRow */
/** @typedef {import('../../types.d.ts').JweConfig} JweConfig */
/** @typedef {import('../../types.d.ts').SignCost} SignCost */

const STANDARDS =
  'HPKE per draft-ietf-jose-hpke-encrypt-20 (HPKE-9 = X-Wing, ML-KEM-768 + X25519; HPKE-8 = ML-KEM-768 + P-256; HPKE-10 = ML-KEM-1024 + P-384; HPKE-12 = ML-KEM-768 alone: draft-ietf-jose-hpke-pq-pqt-00), classical per RFC 7518';

/**
 * @param {EncryptedSizeRow | undefined} r
 * @param {(r: EncryptedSizeRow) => string} cell
 */
const cellOf = (r, cell) => (r ? cell(r) : '–');

/**
 * One table: a row per (alg, profile), a column per configuration (signed only first).
 * @param {Encryption} e
 * @param {(r: EncryptedSizeRow) => string} cell
 */
function sizeTable(e, cell) {
  const configs = e.cost.configs;
  /** @type {Map<string, EncryptedSizeRow[]>} */
  const byToken = new Map();
  for (const r of e.sizes) {
    const k = `${r.alg}|${r.profile}`;
    byToken.set(k, [...(byToken.get(k) ?? []), r]);
  }
  /** @param {EncryptedSizeRow[]} rs @param {JweConfig} c */
  const find = (rs, c) => rs.find((r) => r.jwe?.alg === c.alg && r.jwe?.enc === c.enc);
  return [
    `| alg | profile | signed only | ${configs.map((c) => `in ${jweLabel(c)} (${c.quantumSafe})`).join(' | ')} |`,
    `|---|---|---|${configs.map(() => '---|').join('')}`,
    ...[...byToken.values()].map(
      (rs) =>
        `| ${rs[0]?.alg} | ${rs[0]?.profile} | ${cellOf(
          rs.find((r) => r.jwe === null),
          cell,
        )} | ${configs.map((c) => cellOf(find(rs, c), cell)).join(' | ')} |`,
    ),
  ];
}

/**
 * @param {Encryption} e
 * @param {Budgets} b
 */
const sizesMd = (e, b) => [
  '### Encrypted ID tokens: sizes',
  '',
  `The ID tokens of the table above (minimal = issued by the IdP in a real login, typical = + profile claims), each encrypted by the runner with \`@pqid/jose\` as a Nested JWT (signed, then encrypted with \`cty: "JWT"\`, OpenID Connect Core §10.2) to one throw-away recipient key per configuration: ${STANDARDS}. PQ/T = post-quantum/traditional hybrid, PQ = ML-KEM alone, no = classical only (recorded traffic is readable once a large quantum computer exists). An encrypted ID token carries the whole signed token base64url-encoded once more, plus the KEM's encapsulated secret (1,088–1,665 bytes for the post-quantum KEMs).`,
  '',
  `Set-Cookie value \`id_token=<token>; Path=/; Secure; HttpOnly; SameSite=Lax\`, bytes (≤ ${b.cookie}?):`,
  '',
  ...sizeTable(e, (r) => `${int(r.setCookie)} (${yes(r.fitsCookie)})`),
  '',
  `Logout URL with the token as \`id_token_hint\`, bytes (≤ ${b.urlConservative}? ≤ ${b.url}?):`,
  '',
  ...sizeTable(e, (r) => `${int(r.logoutUrl)} (${yes(r.fitsUrlConservative)}, ${yes(r.fitsUrl)})`),
  '',
];

/**
 * @param {SignCost | undefined} c
 */
const us = (c) => (c ? `${int(c.usPerOp)}${c.spread.large ? ' ⚠' : ''}` : '–');

/**
 * @param {number | undefined} a
 * @param {number | undefined} b
 */
const ratio = (a, b) =>
  a !== undefined && b !== undefined && b > 0 && Number.isFinite(a / b) ? `${(a / b).toFixed(2)}×` : '–';

/**
 * @param {Encryption} e
 * @param {Results['meta']} meta
 */
function costMd(e, meta) {
  const { cost, signAlg } = e.cost;
  const sign = cost[`sign ${signAlg}`];
  const es = cost['sign ES256'];
  const m = meta.machine;
  const spreads = Object.values(cost).filter((c) => c.spread.large).length;
  return [
    '### Encrypted ID tokens: CPU per token (runner process)',
    '',
    `Measured side by side in one run on ${m.cpus} × ${m.cpuModel} (flags: ${m.cpuFlags}), Node ${m.node}, OpenSSL ${m.openssl}; HPKE backend \`${e.cost.hpkeBackend}\`. Each figure is the median of timed loops of process CPU time repeated in turn across every operation (at least ${MIN_SAMPLES}, as for the sign cost); ⚠ marks a spread above ${Math.round(LARGE_SPREAD * 100)}% of the median${spreads ? ` (${spreads} here: the machine was busy, read those rows with care)` : ''}. "encrypt" encrypts the signed ${signAlg} ID token; "sign + encrypt" is what an IdP spends per encrypted ID token; "decrypt" is the relying party's share. Ratios are against signing alone with ${signAlg}: ${us(sign)} µs per token${es ? ` (ES256: ${us(es)} µs)` : ''}.`,
    '',
    `| JWE | quantum-safe | encrypt µs | sign + encrypt µs | sign + encrypt ÷ sign | encrypt ÷ sign | decrypt µs (RP) | sign + encrypt: min–max of the loops |`,
    '|---|---|---:|---:|---:|---:|---:|---|',
    ...e.cost.configs.map((c) => {
      const l = jweLabel(c);
      const enc = cost[`encrypt ${l}`];
      const both = cost[`sign + encrypt ${l}`];
      return `| ${l} | ${c.quantumSafe} | ${us(enc)} | ${us(both)} | ${ratio(both?.usPerOp, sign?.usPerOp)} | ${ratio(enc?.usPerOp, sign?.usPerOp)} | ${us(cost[`decrypt ${l}`])} | ${spreadText(both?.spread, int)} |`;
    }),
    '',
  ];
}

/**
 * @param {Results} results
 * @returns {Section}
 */
export function encryptionSection(results) {
  const e = results.encryption;
  if (!e) return { md: [], charts: [] };
  return { md: [...sizesMd(e, results.meta.budgets), ...costMd(e, results.meta)], charts: [] };
}
