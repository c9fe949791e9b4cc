/**
 * Where a token can travel. PQ signatures add 2.4–4.6 KB per token; these are the limits it
 * meets: one cookie (RFC 6265 §6.1 minimum that browsers implement: 4096 bytes for name, value
 * and attributes), one header line (nginx/Apache default 8190), URLs (2048 conservative,
 * 8000 the RFC 9110 §4.1 floor).
 */

import { InvalidArgument, JwsInvalid } from './errors.ts';
import { checkSize, parseJson } from './jws/parse.ts';
import { b64uDecode } from './lib/encoding.ts';

export const LIMITS = {
  cookie: 4096,
  headerLine: 8190,
  nodeHeaders: 16384,
  urlConservative: 2048,
  url: 8000,
} as const;

export const DEFAULT_COOKIE_ATTRIBUTES = '; Path=/; Secure; HttpOnly; SameSite=Lax';

export interface Fit {
  bytes: number;
  limit: number;
  fits: boolean;
}

export interface TokenInspection {
  header: Record<string, unknown>;
  claims: Record<string, unknown> | undefined;
  bytes: { token: number; header: number; payload: number; signature: number; signatureRaw: number };
  fits: {
    /** `Set-Cookie` value `name=token; attributes` in one cookie. */
    cookie: Fit;
    /** `Authorization: Bearer <token>` as one header line. */
    authorizationHeader: Fit;
    /** An `id_token_hint` query parameter on a URL of `urlBase` (conservative 2048). */
    urlConservative: Fit;
    url: Fit;
  };
}

const fit = (bytes: number, limit: number): Fit => ({ bytes, limit, fits: bytes <= limit });

export interface InspectOptions {
  cookieName?: string;
  cookieAttributes?: string;
  /** The URL a token would be appended to as a query parameter (default a typical logout URL). */
  urlBase?: string;
}

/** Where a token of `tokenBytes` bytes fits: one cookie, one Authorization header line, a URL. */
export function transportFits(tokenBytes: number, opts: InspectOptions = {}): TokenInspection['fits'] {
  const { cookieName = 'id_token', cookieAttributes = DEFAULT_COOKIE_ATTRIBUTES } = opts;
  const urlBase =
    opts.urlBase ??
    'https://idp.example.com/session/end?post_logout_redirect_uri=https%3A%2F%2Fapp.example.com%2F&id_token_hint=';
  const urlBytes = Buffer.byteLength(urlBase) + tokenBytes;
  return {
    cookie: fit(
      Buffer.byteLength(`${cookieName}=`) + tokenBytes + Buffer.byteLength(cookieAttributes),
      LIMITS.cookie,
    ),
    authorizationHeader: fit(Buffer.byteLength('Authorization: Bearer ') + tokenBytes, LIMITS.headerLine),
    urlConservative: fit(urlBytes, LIMITS.urlConservative),
    url: fit(urlBytes, LIMITS.url),
  };
}

export function inspectToken(token: string, opts: InspectOptions = {}): TokenInspection {
  if (typeof token !== 'string') throw new InvalidArgument('token must be a string');
  checkSize(token);
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwsInvalid('a compact JWS has exactly three segments');
  const [h, p, s] = parts as [string, string, string];
  const decode = (seg: string, what: string) => {
    const b = b64uDecode(seg);
    if (!b) throw new JwsInvalid(`${what} is not base64url`);
    return b;
  };
  const header = parseJson(h, 'protected header');
  let claims: Record<string, unknown> | undefined;
  try {
    claims = parseJson(p, 'payload');
  } catch {
    claims = undefined; // a JWS need not carry JSON: sizes still apply
  }
  return {
    header,
    claims,
    bytes: {
      token: Buffer.byteLength(token),
      header: h.length,
      payload: p.length,
      signature: s.length,
      signatureRaw: decode(s, 'signature').length,
    },
    fits: transportFits(Buffer.byteLength(token), opts),
  };
}

export interface ChunkOptions {
  /** Per-cookie budget for `name=value` plus attributes (default 4096). */
  limit?: number;
  attributes?: string;
}

export interface CookieChunk {
  name: string;
  value: string;
}

/**
 * Splits a cookie value into `name.0`, `name.1`, … each fitting one cookie, the scheme Auth.js
 * and express-openid-connect use. A value that fits stays a single cookie named `name`.
 */
export function chunkCookie(name: string, value: string, opts: ChunkOptions = {}): CookieChunk[] {
  const { limit = LIMITS.cookie, attributes = DEFAULT_COOKIE_ATTRIBUTES } = opts;
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw new InvalidArgument('invalid cookie name');
  // RFC 6265 cookie-octets only: ASCII without controls, space, quote, comma, semicolon, backslash.
  // (Base64url tokens always qualify; anything else must be encoded by the caller first.)
  if (!/^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/.test(value)) {
    throw new InvalidArgument(
      'cookie values must be RFC 6265 cookie-octets (printable ASCII, no space " , ; \\)',
    );
  }
  const overhead = (n: string) => Buffer.byteLength(`${n}=`) + Buffer.byteLength(attributes);
  if (overhead(name) + Buffer.byteLength(value) <= limit) return [{ name, value }];
  const chunks: CookieChunk[] = [];
  for (let i = 0, off = 0; off < value.length; i++) {
    const n = `${name}.${i}`;
    const room = limit - overhead(n);
    if (room <= 0) throw new InvalidArgument('cookie attributes leave no room for a value');
    chunks.push({ name: n, value: value.slice(off, off + room) });
    off += room;
  }
  return chunks;
}

/** Reassembles a chunked cookie from a name→value map (e.g. a parsed Cookie header). */
export function joinCookieChunks(
  name: string,
  cookies: Record<string, string | undefined>,
): string | undefined {
  // Own string members only: a parsed cookie jar is a plain object, and a name such as
  // `constructor` must not read Object.prototype's members.
  const get = (key: string): string | undefined => {
    const v = Object.hasOwn(cookies, key) ? cookies[key] : undefined;
    return typeof v === 'string' ? v : undefined;
  };
  const whole = get(name);
  if (whole !== undefined) return whole;
  let out = '';
  for (let i = 0; ; i++) {
    const v = get(`${name}.${i}`);
    if (v === undefined) return i === 0 ? undefined : out;
    out += v;
  }
}
