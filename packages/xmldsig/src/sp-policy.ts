/**
 * SP-side policy for node-saml / passport-saml SPs that accept a post-quantum IdP.
 *
 * `installNodeSamlIntegration()` covers the signature layer. Everything after the signature is
 * node-saml's job, and several of its defaults are weak: `validateInResponseTo` is `'never'` (so
 * the same Response can be replayed and unsolicited Responses are accepted),
 * `acceptedClockSkewMs` is 0, the AuthnRequest signing algorithm is SHA-1, the request-ID cache
 * keeps IDs for 8 hours, and nothing caps the size or shape of a message before it is decoded,
 * inflated and searched with XPath. `recommendedNodeSamlOptions()` returns the options an SP should
 * set; `checkSamlHttpMessage()` (sp-guard.ts) is the guard to run in front of node-saml, and
 * `checkSamlResponseAddressing()` (addressing.ts) the Destination/Recipient check node-saml lacks.
 *
 * The types here are structural so this package does not need node-saml's types at runtime or
 * compile time (node-saml is an optional peer). `validateInResponseTo` is node-saml's string enum,
 * so TypeScript callers may need a cast when they spread the result into `new SAML({...})`.
 */

/** node-saml's `CacheProvider` (request IDs for `validateInResponseTo`). */
export interface NodeSamlCacheProvider {
  saveAsync(key: string, value: string): Promise<unknown>;
  getAsync(key: string): Promise<string | null>;
  removeAsync(key: string | null): Promise<string | null>;
}

export interface RecommendedNodeSamlOptionsInput {
  /** The IdP signing certificate(s) you pinned (PEM). Give the same list to installNodeSamlIntegration. */
  idpCert: string | string[];
  /** The IdP entityID; node-saml checks the Issuer only when this is set. */
  idpIssuer: string;
  /** This SP's entityID. */
  issuer: string;
  /** This SP's Assertion Consumer Service URL. */
  callbackUrl: string;
  /** The Audience to require; default `issuer`. */
  audience?: string;
  /** Tolerated clock difference for NotBefore/NotOnOrAfter; default 30 s. */
  acceptedClockSkewMs?: number;
  /**
   * How long an AuthnRequest ID stays redeemable; default 15 minutes (node-saml: 8 hours). The pqid
   * IdP refuses requests older than `saml.requestMaxAge` (10 minutes) anyway.
   */
  requestIdExpirationPeriodMs?: number;
  /**
   * Where request IDs are kept. node-saml's default is in memory, in one process: an SP with
   * several instances needs a shared store, or a Response is accepted only by the instance that
   * sent the request.
   */
  cacheProvider?: NodeSamlCacheProvider;
}

export interface RecommendedNodeSamlOptions {
  idpCert: string | string[];
  idpIssuer: string;
  issuer: string;
  callbackUrl: string;
  audience: string;
  wantAuthnResponseSigned: true;
  wantAssertionsSigned: true;
  validateInResponseTo: 'always';
  requestIdExpirationPeriodMs: number;
  acceptedClockSkewMs: number;
  signatureAlgorithm: 'sha256';
  digestAlgorithm: 'sha256';
  cacheProvider?: NodeSamlCacheProvider;
}

/**
 * The node-saml options a hardened SP sets against a pqid IdP. Spread them into the
 * `new SAML({...})` / `new Strategy({...})` options, and add your own (entryPoint, logoutUrl,
 * identifierFormat, privateKey for request signing, …).
 *
 * - `wantAuthnResponseSigned` and `wantAssertionsSigned`: both true (register the SP with `sign: 'both'`).
 * - `validateInResponseTo: 'always'`: a Response must answer a request this SP sent and has not
 *   seen answered, which refuses replays and unsolicited (IdP-initiated) Responses.
 * - `audience`: explicit, this SP's entityID.
 * - `idpIssuer`: required, so the Issuer is checked.
 * - `acceptedClockSkewMs`: 30 s unless you pass another value; node-saml's default is 0.
 * - `signatureAlgorithm` and `digestAlgorithm`: SHA-256 for the SP's own request signatures
 *   (node-saml's default is SHA-1).
 */
export function recommendedNodeSamlOptions(o: RecommendedNodeSamlOptionsInput): RecommendedNodeSamlOptions {
  for (const k of ['idpIssuer', 'issuer', 'callbackUrl'] as const)
    if (typeof o[k] !== 'string' || o[k] === '')
      throw new TypeError(`recommendedNodeSamlOptions: ${k} is required`);
  if (o.idpCert === undefined || (Array.isArray(o.idpCert) && o.idpCert.length === 0))
    throw new TypeError('recommendedNodeSamlOptions: idpCert is required');
  return {
    idpCert: o.idpCert,
    idpIssuer: o.idpIssuer,
    issuer: o.issuer,
    callbackUrl: o.callbackUrl,
    audience: o.audience ?? o.issuer,
    wantAuthnResponseSigned: true,
    wantAssertionsSigned: true,
    validateInResponseTo: 'always',
    requestIdExpirationPeriodMs: o.requestIdExpirationPeriodMs ?? 15 * 60_000,
    acceptedClockSkewMs: o.acceptedClockSkewMs ?? 30_000,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    ...(o.cacheProvider ? { cacheProvider: o.cacheProvider } : {}),
  };
}
