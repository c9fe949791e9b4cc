/**
 * The `sizes` scenario: tokens the IdP issued in real logins (plus richer claim profiles signed
 * by the runner, DPoP proofs, request objects and SAML messages), measured by k6 where they
 * travel, against the transport budgets.
 */
import { loginFlow } from '../../flow.mjs';
import { buildSizeItems } from '../../samples.mjs';
import { SAML_ALGS } from '../../variants.mjs';
import { k6run, metric } from '../k6.mjs';
import { encryption } from './encryption.mjs';

/** @typedef {import('../../types.d.ts').Server<import('../../types.d.ts').IdpInfo>} Idp */
/** @typedef {import('../../types.d.ts').K6Summary} K6Summary */
/** @typedef {import('../../types.d.ts').Budgets} Budgets */
/** @typedef {import('../../types.d.ts').Sizes} Sizes */
/** @typedef {import('../../types.d.ts').SizeRow} SizeRow */
/** @typedef {import('../context.mjs').RunContext} RunContext */
/**
 * The discovery document's endpoints the scenario sends to.
 * @typedef {{ token_endpoint: string, jwks_uri: string, userinfo_endpoint: string, authorization_endpoint: string,
 *   pushed_authorization_request_endpoint: string, end_session_endpoint?: string }} Discovery
 */
/** @typedef {import('../../samples.mjs').SizeItem} SizeItem */
/** @typedef {{ alg: string, profile: string, signatureBytes: number, responseXmlBytes: number }} SamlItem */

/**
 * The largest value k6 saw of a size metric for one (alg, profile).
 * @param {K6Summary} summary
 * @param {string} kind
 * @param {string} alg
 * @param {string} profile
 */
const sizeOf = (summary, kind, alg, profile) =>
  metric(summary, `size_${kind}`, { alg, profile })?.values?.max;

/**
 * Whether k6 saw the IdP answer `status` for this algorithm on a tagged counter.
 * @param {K6Summary} summary
 * @param {string} name
 * @param {string} alg
 * @param {string} status
 */
const answered = (summary, name, alg, status) =>
  (metric(summary, name, { alg, status })?.values?.count ?? 0) > 0;

/**
 * Bytes of every line of one (alg, profile) item, and which budgets each one crosses.
 * @param {K6Summary} summary
 * @param {SizeItem} item
 * @param {Budgets} b
 * @returns {SizeRow}
 */
function sizeRow(summary, { alg, profile, source, dpopProof, requestObject }, b) {
  /** @param {string} kind */
  const val = (kind) => sizeOf(summary, kind, alg, profile);
  /** @type {SizeRow} */
  const r = {
    alg,
    profile,
    source,
    idToken: val('id_token'),
    accessToken: val('access_token'),
    authorizationHeader: val('authorization_header'),
    setCookie: val('set_cookie'),
    setCookieLine: val('set_cookie_line'),
    logoutUrl: val('logout_url'),
    dpopHeader: dpopProof ? val('dpop_header') : undefined,
    authorizationUrlJar: requestObject ? val('authorization_url_jar') : undefined,
    authorizationUrlPar: requestObject ? val('authorization_url_par') : undefined,
  };
  /** @param {number | undefined} n @param {number} limit */
  const fits = (n, limit) => /** @type {number} */ (n) <= limit;
  r.fitsCookie = fits(r.setCookie, b.cookie);
  r.fitsHeaderLine = fits(r.authorizationHeader, b.headerLine);
  r.fitsNodeHeaders = fits(r.authorizationHeader, b.nodeHeaders);
  r.fitsUrlConservative = fits(r.logoutUrl, b.urlConservative);
  r.fitsUrl = fits(r.logoutUrl, b.url);
  if (r.dpopHeader !== undefined) {
    r.dpopFitsHeaderLine = r.dpopHeader <= b.headerLine;
    r.dpopFitsNodeHeaders = r.dpopHeader <= b.nodeHeaders;
    r.dpopAcceptedByIdp = answered(summary, 'dpop_status', alg, '200');
  }
  if (r.authorizationUrlJar !== undefined) {
    r.jarFitsUrlConservative = r.authorizationUrlJar <= b.urlConservative;
    r.jarFitsUrl = r.authorizationUrlJar <= b.url;
    r.parFitsUrlConservative = fits(r.authorizationUrlPar, b.urlConservative);
    r.parAcceptedByIdp = answered(summary, 'par_status', alg, '201');
  }
  if (source === 'idp') r.bearerAcceptedByIdp = answered(summary, 'transport_status', alg, '200');
  return r;
}

/**
 * Per (alg, profile): bytes of every line, and which budgets each crosses; the JWKS; SAML.
 * @param {K6Summary} summary
 * @param {SizeItem[]} items
 * @param {Record<string, number>} jwks
 * @param {Budgets} b
 * @param {SamlItem[]} samlItems
 * @returns {Sizes}
 */
export function collectSizes(summary, items, jwks, b, samlItems) {
  return {
    rows: items.map((item) => sizeRow(summary, item, b)),
    jwks,
    jwksLive: metric(summary, 'size_jwks', { alg: 'all', profile: 'live' })?.values?.max,
    saml: samlItems.map((s) => {
      const tags = { alg: s.alg, profile: s.profile };
      const redirectUrl = metric(summary, 'size_saml_redirect_url', tags)?.values?.max;
      return {
        alg: s.alg,
        signature: s.signatureBytes,
        redirectUrl,
        fitsUrlConservative: /** @type {number} */ (redirectUrl) <= b.urlConservative,
        fitsUrl: /** @type {number} */ (redirectUrl) <= b.url,
        responseXml: s.responseXmlBytes,
        postForm: metric(summary, 'size_saml_post_form', tags)?.values?.max,
      };
    }),
  };
}

/**
 * The IdP's own tokens, one real login per algorithm.
 * @param {Idp} idp
 * @param {string[]} algs
 */
async function issuedTokens(idp, algs) {
  /** @type {Record<string, { idToken: string, accessToken: string }>} */
  const issued = {};
  for (const alg of algs) {
    const t = await loginFlow({
      issuer: idp.info.issuer,
      clientId: idp.info.clients[alg]?.public.id ?? '',
      redirectUri: idp.info.redirectUri,
      username: idp.info.users[0] ?? '',
      password: idp.info.password,
    });
    issued[alg] = { idToken: t.id_token, accessToken: t.access_token };
  }
  return issued;
}

/**
 * @param {RunContext} ctx
 * @param {Idp} idp
 */
export async function sizes(ctx, idp) {
  const { opts, results } = ctx;
  const issued = await issuedTokens(idp, opts.algs);
  const discovery = /** @type {Discovery} */ (
    await (await fetch(`${idp.info.issuer}/.well-known/openid-configuration`)).json()
  );
  const jarClients = Object.fromEntries(opts.algs.map((alg) => [alg, idp.info.clients[alg]?.jar]));
  const { items, jwks } = await buildSizeItems(issued, discovery.token_endpoint, jarClients, {
    issuer: idp.info.issuer,
    redirectUri: idp.info.redirectUri,
  });
  // The DPoP proofs are sent to the token endpoint as this algorithm's confidential client.
  for (const item of items) if (item.dpopProof) item.ccClient = idp.info.clients[item.alg]?.confidential;
  const accessTokenFormat = Object.values(issued).every((t) => t.accessToken.split('.').length === 3)
    ? 'jwt'
    : 'reference';
  // Imported here, not at the top: the runner's own process loads the IdP (node:sqlite and all)
  // only when it measures sizes; the IdP under test is a child process.
  const { samlSizes } = await import('@pqid/idp');
  // SAML messages from the IdP's own signing code (samlSizes: a signed AuthnRequest over
  // HTTP-Redirect, a signed Response in its HTTP-POST form, leaf certificate from an
  // ML-DSA-87 root in KeyInfo), for the SAML algorithms among --algs.
  const samlItems = (await samlSizes(SAML_ALGS.filter((a) => opts.algs.includes(a)))).map((r) => ({
    ...r,
    profile: 'typical',
  }));
  const endSessionEndpoint = discovery.end_session_endpoint ?? `${idp.info.issuer}/logout`;
  const postLogoutRedirectUri = 'http://127.0.0.1:9/bye';
  const { summary, thresholdsCrossed } = await k6run(ctx, 'sizes', 'sizes', {
    budgets: opts.budgets,
    items,
    jwks,
    jwksUri: discovery.jwks_uri,
    userinfoEndpoint: discovery.userinfo_endpoint,
    tokenEndpoint: discovery.token_endpoint,
    authorizationEndpoint: discovery.authorization_endpoint,
    parEndpoint: discovery.pushed_authorization_request_endpoint,
    endSessionEndpoint,
    postLogoutRedirectUri,
    saml: samlItems,
  });
  results.sizes = {
    ...collectSizes(summary, items, jwks, opts.budgets, samlItems),
    accessTokenFormat,
    endSessionEndpoint: discovery.end_session_endpoint ?? null,
    budgetsCrossed: thresholdsCrossed,
  };
  ctx.progress.step(
    `sizes: ${items.length} token sets, ${results.sizes.rows.filter((r) => !r.fitsCookie).length} ID tokens too big for one cookie`,
  );
  await encryption(ctx, items, { endSessionEndpoint, postLogoutRedirectUri });
}
