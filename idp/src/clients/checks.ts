/**
 * What a client member's value means, checked once every member is read and defaulted: the
 * algorithms the @pqid/jose registry has, URIs a browser may be sent to or the provider may
 * request, keys that are public and usable, classes this provider can reach. Each check returns
 * the value as stored. Rules that tie several members together are in metadata.ts.
 */
import { algorithms, encryptionKeysFor, importJwks, isJweAlgorithm, type Jwk } from '@pqid/jose';
import { ACR_VALUES } from '../policy/acr.ts';
import type { OutboundAllowlist } from '../policy/addresses.ts';
import { hotPathAlgorithms, isSlowSigner, slowHotPathRefusal } from '../policy/algorithms.ts';
import { ClientError } from './client-error.ts';
import { GRANT_TYPES, type GrantType } from './enums.ts';
import { checkOutboundUrl, OutboundRefused, type Trust } from './outbound.ts';
import { absoluteUrl, checkBrowserUri, checkBrowserUris, type UriRules } from './redirect-uris.ts';

/** What a check knows besides the value. */
export interface CheckContext {
  /** The member being checked (checks serve several). */
  field: string;
  /** The rules of browser URIs: the application type, and whether a registrant nobody vetted. */
  uris: UriRules;
  /** Whose requests the provider makes for this client (clients/outbound.ts). */
  trust: Trust;
  /** `outbound.allow`: hosts and ranges such requests may reach besides public addresses. */
  allow: OutboundAllowlist;
  /** Accept SLH-DSA where the provider signs per token (keys.allowSlhDsaHotPath). */
  allowSlowSigners: boolean;
  /** The client's checked redirect URIs (a front-channel logout URI must share an origin). */
  redirectUris: readonly string[];
}

export type Check<In, Out = In> = (value: In, ctx: CheckContext) => Out | Promise<Out>;

/** An algorithm of the @pqid/jose registry. */
export const availableAlg: Check<string> = (alg, { field }) => {
  if (!algorithms().includes(alg))
    throw new ClientError(
      `${field} ${alg} is not available; choose one of ${algorithms().join(', ')}`,
      field,
    );
  return alg;
};

/**
 * An algorithm the provider signs with per token: SLH-DSA only when the operator accepted its
 * cost. An unknown one is refused with the choices this client has, not the whole registry.
 */
export const hotPathAlg: Check<string> = (alg, ctx) => {
  if (!algorithms().includes(alg)) {
    const slow = ctx.allowSlowSigners ? '' : ' (SLH-DSA only with keys.allowSlhDsaHotPath)';
    throw new ClientError(
      `${ctx.field} ${alg} is not available; choose one of ${hotPathAlgorithms(ctx.allowSlowSigners).join(', ')}${slow}`,
      ctx.field,
    );
  }
  if (!ctx.allowSlowSigners && isSlowSigner(alg))
    throw new ClientError(slowHotPathRefusal(ctx.field, alg), ctx.field);
  return alg;
};

/** Browser targets (redirect_uris, post_logout_redirect_uris): redirect-uris.ts; duplicates dropped. */
export const browserUris: Check<string[]> = (uris, ctx) => checkBrowserUris(ctx.field, uris, ctx.uris);

export const grantTypes: Check<string[], GrantType[]> = (grants, { field }) => {
  const known: GrantType[] = [];
  for (const g of grants) {
    const grant = GRANT_TYPES.find((t) => t === g);
    if (grant === undefined)
      throw new ClientError(
        `grant_types: ${JSON.stringify(g)} is not one of ${GRANT_TYPES.join(', ')}`,
        field,
      );
    known.push(grant);
  }
  return [...new Set(known)];
};

/** `["code"]`, or `[]` for a client that never sends a user to the authorization endpoint. */
export const codeOnly: Check<string[], ['code'] | []> = (types, { field }) => {
  if (types.length === 0) return [];
  if (types.length !== 1 || types[0] !== 'code')
    throw new ClientError('response_types must be ["code"] (only the code flow is supported) or []', field);
  return ['code'];
};

/** RFC 6749 §3.3: scope tokens separated by single spaces. */
export const scopeTokens: Check<string> = (scope, { field }) => {
  if (!/^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/.test(scope))
    throw new ClientError('scope must be space-separated scope tokens', field);
  return scope;
};

/** A minimum this provider cannot reach would lock the client out: refuse it now. */
export const reachableAcrs: Check<string[]> = (acr, { field }) => {
  if (acr.length === 0 || acr.some((v) => !ACR_VALUES.includes(v)))
    throw new ClientError(`default_acr_values must be a non-empty array of: ${ACR_VALUES.join(', ')}`, field);
  return [...acr];
};

const PRIVATE_MEMBERS = ['d', 'priv', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'seed'];

const isPublicJwk = (k: unknown): k is Jwk =>
  typeof k === 'object' && k !== null && !PRIVATE_MEMBERS.some((m) => m in k);

/** The client's keys: public ones only (never private material stored), at least one usable. */
export const publicJwks: Check<{ keys: unknown[] }, { keys: Jwk[] }> = async ({ keys }, { field }) => {
  // importJwks silently skips private keys; refuse them so private material is never stored.
  const jwks = keys.filter(isPublicJwk);
  if (jwks.length !== keys.length) throw new ClientError('jwks must hold public keys only', field);
  const usable = await importJwks({ keys: jwks }).catch((e: Error) => {
    throw new ClientError(`jwks is not a usable JWK set: ${e.message}`, field);
  });
  if (usable.length === 0 && !(await anyEncryptionKey(jwks)))
    throw new ClientError('jwks holds no usable public signing or encryption key', field);
  return { keys: jwks.map((k) => ({ ...k })) };
};

/** Whether some `use: "enc"` key imports as an encryption key (for its `alg`, else a classical one). */
async function anyEncryptionKey(jwks: Jwk[]): Promise<boolean> {
  for (const k of jwks.filter((j) => j.use === 'enc')) {
    const algs = isJweAlgorithm(k.alg) ? [k.alg as string] : ['ECDH-ES', 'RSA-OAEP-256'];
    for (const alg of algs) if ((await encryptionKeysFor({ keys: [k] }, alg)).length > 0) return true;
  }
  return false;
}

/**
 * A URL this provider itself requests (jwks_uri, backchannel_logout_uri): the outbound rules
 * on its text (clients/outbound.ts), so a URL the provider would refuse to fetch is refused at
 * registration already. Its addresses are checked again at every connection.
 */
export const serverUrl: Check<string> = (uri, { field, trust, allow }) => {
  absoluteUrl(field, uri);
  try {
    checkOutboundUrl(uri, trust, allow);
  } catch (e) {
    if (e instanceof OutboundRefused) throw new ClientError(`${field}: ${e.message}`, field);
    throw e;
  }
  if (uri.includes('*')) throw new ClientError(`${field}: ${uri} must not contain a wildcard (*)`, field);
  return uri;
};

/**
 * OIDC Front-Channel Logout 1.0 §2. The browser loads this URI in an iframe of the IdP's
 * signed-out page, so: the rules of a redirect URI, but http(s) only (an https page may frame
 * nothing else); the scheme, host and port of a registered redirect URI (a MUST of §2, and it
 * keeps a client from framing someone else's site in our page); a host that can be written in
 * the page's CSP `frame-src` (WHATWG URLs allow `;` `,` `'` in hosts, CSP host-sources do not,
 * nor IPv6 literals); a query kept as registered, but without `iss` or `sid`, which the IdP
 * appends.
 */
export const frontchannelUri: Check<string> = (uri, ctx) => {
  const { field } = ctx;
  const url = checkBrowserUri(field, uri, { ...ctx.uris, webOnly: true });
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(url.hostname))
    throw new ClientError(`${field}: the host must be a DNS name or an IPv4 address`, field);
  if (url.searchParams.has('iss') || url.searchParams.has('sid'))
    throw new ClientError(`${field}: iss and sid are appended by the provider`, field);
  const origins = ctx.redirectUris.map((r) => new URL(r).origin);
  if (!origins.includes(url.origin))
    throw new ClientError(
      `${field}: scheme, host and port must be those of a registered redirect_uri`,
      field,
    );
  return uri;
};
