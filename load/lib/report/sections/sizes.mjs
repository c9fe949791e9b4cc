/**
 * "Sizes": what each algorithm's tokens, proofs, request objects and SAML messages weigh where
 * they travel (cookies, header lines, URLs), against the transport limits. The plots stay on a
 * linear axis: the limit lines are the point, and the bars are within an order of magnitude.
 */
import { accepted, int, yes } from '../format.mjs';
import { barChart, sizeChart } from '../plots.mjs';

/** @typedef {import('../../types.d.ts').Results} Results */
/** @typedef {import('../../types.d.ts').Sizes} Sizes */
/** @typedef {import('../../types.d.ts').SizeRow} SizeRow */
/** @typedef {import('../../types.d.ts').Budgets} Budgets */
/** @typedef {import('../../types.d.ts').Section} Section */
/** @typedef {import('../../types.d.ts').Chart} Chart */

/** @param {SizeRow} r */
const tokenRow = (r) =>
  `| ${r.alg} | ${r.profile} | ${int(r.idToken)} | ${int(r.setCookie)} (${yes(r.fitsCookie)}) | ${int(r.accessToken)} | ${int(r.authorizationHeader)} (${yes(r.fitsHeaderLine)}) | ${int(r.logoutUrl)} (${yes(r.fitsUrlConservative)}, ${yes(r.fitsUrl)}) | ${r.dpopHeader === undefined ? '–' : `${int(r.dpopHeader)} (${yes(r.dpopFitsHeaderLine)}, ${yes(r.dpopFitsNodeHeaders)})`} | ${accepted(r.bearerAcceptedByIdp)} | ${accepted(r.dpopAcceptedByIdp)} |`;

/**
 * @param {Sizes} s
 * @param {Budgets} b
 * @param {number} keys how many keys the live JWKS holds
 */
const tokenTable = (s, b, keys) => [
  '## Sizes',
  '',
  `Minimal profile = tokens the IdP issued in a real login (access tokens: ${s.accessTokenFormat}); typical/rich = the same claims plus profile, group and role claims, signed by the runner under the same algorithm. Cookie = \`id_token=<jwt>; Path=/; Secure; HttpOnly; SameSite=Lax\` against ${b.cookie} B (RFC 6265 counts name, value and attributes); Authorization = \`Authorization: Bearer <access token>\` against ${b.headerLine} B (nginx/Apache line) and ${b.nodeHeaders} B (Node's total header limit); logout URL = end_session_endpoint with \`id_token_hint\` against ${b.urlConservative} and ${b.url} B; DPoP = \`DPoP: <proof>\` with the client's public key of that algorithm. Live JWKS (all ${keys} keys): ${int(s.jwksLive)} B.${s.endSessionEndpoint ? '' : ' (The IdP does not advertise an end_session_endpoint yet: the logout URL uses <issuer>/logout.)'}`,
  '',
  '| alg | profile | ID token | Set-Cookie (≤ cookie?) | AT | Authorization line (≤ 8190?) | logout URL (≤ 2048? ≤ 8000?) | DPoP header (≤ 8190? ≤ 16384?) | bearer accepted by IdP | DPoP proof accepted by IdP |',
  '|---|---|---:|---|---:|---|---|---|---|---|',
  ...s.rows.map(tokenRow),
];

/**
 * Signed authorization requests by value against PAR (none without request objects).
 * @param {SizeRow[]} jarRows
 * @param {Budgets} b
 */
const jarTable = (jarRows, b) =>
  jarRows.length
    ? [
        '',
        '### Signed authorization requests: by value or pushed (PAR)',
        '',
        `A request object (JAR, RFC 9101: the code-flow parameters signed by the client with its key of that algorithm) sent by value makes the authorization URL \`authorization_endpoint?client_id=…&request=<jwt>\`; pushed to the PAR endpoint (RFC 9126, a back-channel POST the IdP answered live here), the browser's URL carries only \`client_id\` and a \`request_uri\`. Against ${b.urlConservative} B (old proxies, CDNs) and ${b.url} B (RFC 9110).`,
        '',
        `| alg | request | URL with the request object (≤ ${b.urlConservative}? ≤ ${b.url}?) | URL through PAR (≤ ${b.urlConservative}?) | pushed to the IdP |`,
        '|---|---|---|---|---|',
        ...jarRows.map(
          (r) =>
            `| ${r.alg} | ${r.profile === 'rich' ? 'rich (+ claims, authorization_details)' : 'code flow'} | ${int(r.authorizationUrlJar)} (${yes(r.jarFitsUrlConservative)}, ${yes(r.jarFitsUrl)}) | ${int(r.authorizationUrlPar)} (${yes(r.parFitsUrlConservative)}) | ${accepted(r.parAcceptedByIdp)} |`,
        ),
      ]
    : [];

/**
 * @param {Sizes} s
 * @param {Budgets} b
 */
const samlTable = (s, b) =>
  s.saml?.length
    ? [
        '### SAML',
        '',
        `From the IdP's own SAML signing code (\`samlSizes()\`): a signed AuthnRequest over HTTP-Redirect (the signature travels in the query, so it meets URL limits: ${b.urlConservative} and ${b.url} B) and a signed Response (Response and Assertion both signed, the leaf certificate from an ML-DSA-87 root in each KeyInfo) in its auto-submitting HTTP-POST form. Responses always use POST.`,
        '',
        `| alg | signature | Redirect URL (≤ ${b.urlConservative}? ≤ ${b.url}?) | Response XML | POST form |`,
        '|---|---:|---|---:|---:|',
        ...s.saml.map(
          (r) =>
            `| ${r.alg} | ${int(r.signature)} | ${int(r.redirectUrl)} (${yes(r.fitsUrlConservative)}, ${yes(r.fitsUrl)}) | ${int(r.responseXml)} | ${int(r.postForm)} |`,
        ),
        '',
      ]
    : ['SAML sizes: none of the SAML algorithms (ES256, RS256, ML-DSA-44/65/87) was among --algs.', ''];

/**
 * The URL limits as rule lines.
 * @param {Budgets} b
 */
const urlLimits = (b) => [
  { bytes: b.urlConservative, label: `${b.urlConservative} B URL` },
  { bytes: b.url, label: `${b.url} B URL (RFC 9110)` },
];

/**
 * The header limits as rule lines.
 * @param {Budgets} b
 */
const headerLimits = (b) => [
  { bytes: b.headerLine, label: `${b.headerLine} B header line` },
  { bytes: b.nodeHeaders, label: `${b.nodeHeaders} B Node headers` },
];

/**
 * The authorization URL with a request object by value, and through PAR.
 * @param {SizeRow[]} jarRows
 * @param {Budgets} b
 * @param {string[]} algs
 * @returns {Chart}
 */
const jarChart = (jarRows, b, algs) => ({
  name: 'size-authorization-request',
  caption:
    'Authorization URL carrying a signed request object by value, and the URL PAR leaves, against 2048 and 8000 bytes.',
  spec: barChart(
    jarRows.flatMap((r) => [
      { alg: r.alg, series: `${r.profile}: request object by value`, bytes: r.authorizationUrlJar },
      ...(r.profile === 'minimal'
        ? [{ alg: r.alg, series: 'through PAR', bytes: r.authorizationUrlPar }]
        : []),
    ]),
    {
      title: 'Authorization URL: signed request object vs PAR',
      y: 'bytes',
      yTitle: 'bytes',
      color: 'series',
      sort: algs,
      rule: urlLimits(b),
      scale: 'linear',
    },
  ),
});

/**
 * @param {Sizes} s
 * @param {Budgets} b
 * @param {string[]} algs
 * @returns {Chart[]}
 */
function sizeCharts(s, b, algs) {
  const jarRows = s.rows.filter((r) => r.authorizationUrlJar !== undefined);
  /** @param {string} name @param {string} caption @param {string} field @param {string} title @param {{ bytes: number, label: string }[]} limits @param {object[]} [rows] */
  const chart = (name, caption, field, title, limits, rows = s.rows) => ({
    name,
    caption,
    spec: sizeChart(rows, field, title, limits, algs),
  });
  return [
    chart(
      'size-cookie',
      'ID token as one Set-Cookie value (name=value; attributes) against the 4096-byte cookie limit.',
      'setCookie',
      'ID token in one cookie',
      [{ bytes: b.cookie, label: `${b.cookie} B cookie` }],
    ),
    chart(
      'size-authorization',
      'JWT access token as an Authorization header line against 8190 (nginx/Apache) and 16384 (Node) bytes.',
      'authorizationHeader',
      'Authorization: Bearer <JWT access token>',
      headerLimits(b),
    ),
    chart(
      'size-logout',
      'Logout URL with id_token_hint against 2048 and 8000 bytes.',
      'logoutUrl',
      'Logout URL with id_token_hint',
      urlLimits(b),
    ),
    chart(
      'size-dpop',
      "DPoP proof header with the client's public key, against the 8190-byte header line and Node's 16384-byte default for all headers (the IdP raises it: maxHeaderBytes).",
      'dpopHeader',
      'DPoP: <proof>',
      headerLimits(b),
    ),
    ...(jarRows.length ? [jarChart(jarRows, b, algs)] : []),
    ...(s.saml?.length
      ? [
          chart(
            'size-saml-redirect',
            'Signed AuthnRequest as an HTTP-Redirect URL (signature in the query), against 2048 and 8000 bytes.',
            'redirectUrl',
            'SAML HTTP-Redirect URL, signed AuthnRequest',
            urlLimits(b),
            s.saml.map((r) => ({ ...r, profile: 'typical' })),
          ),
        ]
      : []),
  ];
}

/**
 * @param {Results} results
 * @returns {Section}
 */
export function sizesSection(results) {
  const s = results.sizes;
  if (!s) return { md: [], charts: [] };
  const b = results.meta.budgets;
  const algs = results.meta.algs;
  const jwks = Object.entries(s.jwks)
    .map(([a, n]) => `${a} ${int(n)} B`)
    .join(', ');
  const md = [
    ...tokenTable(s, b, algs.length),
    ...jarTable(
      s.rows.filter((r) => r.authorizationUrlJar !== undefined),
      b,
    ),
    '',
    `JWKS with one key, per algorithm: ${jwks}.`,
    '',
    ...samlTable(s, b),
  ];
  return { md, charts: sizeCharts(s, b, algs) };
}
