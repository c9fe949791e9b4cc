/**
 * "Encrypted ID tokens on the running IdP": pqid's refresh_token for a client that asked for
 * its ID tokens encrypted, next to the same IdP's signed-only row of the same algorithm, measured
 * in one run on one server process: server CPU and bytes per response, as ratios.
 */
import { getJweAlgorithm } from '@pqid/jose';
import { jweLabel } from '../../encryption.mjs';
import { ENCRYPTED_ID_TOKEN_ALG, kindOf } from '../../variants.mjs';
import { findRow } from '../capacity.mjs';
import { f, int } from '../format.mjs';
import { phaseSpread } from './capacity.mjs';

/** @typedef {import('../../types.d.ts').Results} Results */
/** @typedef {import('../../types.d.ts').Derived} Derived */
/** @typedef {import('../../types.d.ts').Section} Section */
/** @typedef {import('../../types.d.ts').CapacityRow} CapacityRow */

/** @param {string} alg */
const quantumSafe = (alg) => {
  const e = getJweAlgorithm(alg);
  return e.hybrid ? 'PQ/T' : e.pq ? 'PQ' : 'no';
};

/**
 * @param {number | undefined} a
 * @param {number | undefined} b
 */
const ratio = (a, b) =>
  a !== undefined && b !== undefined && b > 0 && Number.isFinite(a / b) ? `${(a / b).toFixed(2)}×` : '–';

/**
 * @param {CapacityRow} r
 * @param {CapacityRow} signed
 */
function row(r, signed) {
  const e = r.idTokenEncryption;
  const name = e ? `in ${jweLabel(e)}` : `${r.alg} signed only`;
  const extra = (r.responseBytes ?? Number.NaN) - (signed.responseBytes ?? Number.NaN);
  const opened = e
    ? `${e.sample.alg}${e.sample.enc ? ` / ${e.sample.enc}` : ''} → ${e.sample.signedWith} verified`
    : '–';
  return `| ${name} | ${e ? quantumSafe(e.alg) : '–'} | ${f(r.cpuMsPerToken, 3)} | ${phaseSpread(r)} | ${ratio(r.cpuMsPerToken, signed.cpuMsPerToken)} | ${f(r.tokensPerCoreSecond, 0)} | ${int(r.responseBytes)} | ${e ? int(extra) : '–'} | ${int(r.idTokenBytes)} | ${f(r.p99)} | ${f(r.errorRate * 100, 2)}% | ${opened} |`;
}

/**
 * @param {Results} results
 * @param {Derived} derived
 * @returns {Section}
 */
export function encryptedIdTokensSection(results, { capacity }) {
  const encrypted = capacity.filter((r) => kindOf(r.target) === 'encrypted' && r.grant === 'refresh_token');
  const signed = findRow(capacity, 'pqid', 'refresh_token', ENCRYPTED_ID_TOKEN_ALG);
  if (!encrypted.length || !signed) return { md: [], charts: [] };
  const m = results.meta.machine;
  return {
    md: [
      '## Encrypted ID tokens on the running IdP',
      '',
      `refresh_token on the same pqid process in the same run (${m.cpus} × ${m.cpuModel}, flags: ${m.cpuFlags}): a public client (no secret to verify) whose every response carries a new JWT access token, a rotated refresh token and a freshly signed ${ENCRYPTED_ID_TOKEN_ALG} ID token; in the rows below the client registered \`id_token_encrypted_response_alg\`, so that ID token is then encrypted to its key (a Nested JWT, OpenID Connect Core §10.2). HPKE-9 = X-Wing (ML-KEM-768 + X25519, draft-ietf-jose-hpke-encrypt-20); ECDH-ES+A256KW per RFC 7518. k6 checked that every ID token was a five-part JWE of the client's alg; before each phase the runner redeemed one refresh token itself, decrypted the ID token with the client's private key and verified the signature inside against the IdP's JWKS (last column). Bytes are k6's means over the saturate phase; "+ bytes" is against the signed-only response. node-oidc-provider is not in this table: its comparison runs client_credentials only, which carries no ID token.`,
      '',
      '| ID token | quantum-safe | server CPU ms / response | saturate / steady | ÷ signed only | responses / core-s | bytes / response | + bytes | ID token bytes | p99 @70% (ms) | errors | sample opened |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
      row(signed, signed),
      ...encrypted.map((r) => row(r, signed)),
      '',
    ],
    charts: [],
  };
}
