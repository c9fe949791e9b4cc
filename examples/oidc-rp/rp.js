/**
 * A relying party for the pqid IdP, on plain node:http and openid-client v6.
 *
 * An ML-DSA-65 ID token is about 4.4 KB and an ML-DSA-87 one 6.5 KB: more than one cookie
 * (4096 bytes) can hold. This RP shows the two ways to live with that:
 *
 *   session  (default) the browser gets only a random session id; tokens stay on the server.
 *   cookie   the ID token itself travels in chunked cookies (rp_id_token.0, .1, …) built with
 *            chunkCookie() from @pqid/jose and re-joined with joinCookieChunks(); the RP keeps
 *            no state and re-verifies the token's ML-DSA signature on every request.
 *
 * Pick one per login: /login?store=session or /login?store=cookie. Add &acr=mfa to demand two
 * factors (acr_values=urn:pqid:acr:mfa): the IdP then asks for a passkey after the password, and
 * this RP checks the ID token's `acr` before it accepts the login.
 *
 * With `idTokenEncryption`, the RP publishes an encryption key at /jwks (its client's jwks_uri)
 * and the IdP encrypts each ID token to it (e.g. HPKE-9: X-Wing, ML-KEM-768 + X25519).
 * openid-client decrypts only classical JWE, so @pqid/jose decrypts the token response before
 * openid-client validates the signed ID token inside, exactly as it would an unencrypted one.
 *
 * With `dpopAlg`, each login gets a fresh DPoP key (RFC 9449) of that algorithm: the
 * authorization request names its thumbprint (`dpop_jkt`), so only this key redeems the code,
 * and the access token is bound to it (`token_type: DPoP`): every use, such as the userinfo
 * call, carries a proof signed by the key, and a stolen token is worthless without it.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import {
  chunkCookie,
  contentEncryptionRegistry,
  createRemoteJWKSet,
  decryptCompact,
  exportEncryptionKey,
  importEncryptionKey,
  inspectToken,
  joinCookieChunks,
  verifyJwt,
} from '@pqid/jose';
import * as oidc from 'openid-client';
import { errorPage, esc, page } from '../shared/page.js';

/**
 * @typedef {object} RpOptions
 * @property {string} issuer          the IdP, e.g. http://localhost:3000
 * @property {string} clientId
 * @property {string} clientSecret
 * @property {string} [alg]           the client's id_token_signed_response_alg (default ML-DSA-65)
 * @property {number} [port]          0 picks a free port (default 3001)
 * @property {string} [host]          default 127.0.0.1
 * @property {string} [baseUrl]       the RP's public URL (default http://localhost:<port>)
 * @property {'session' | 'cookie'} [store]  default token storage (default session)
 * @property {{ alg: string, privateJwk: Record<string, unknown> }} [idTokenEncryption]
 *   ask for encrypted ID tokens: the client's id_token_encrypted_response_alg and this RP's
 *   private key for it (its public half is served at /jwks)
 * @property {string} [dpopAlg]       bind access tokens to a DPoP key of this alg, one of DPOP_ALGS
 *   (a fresh key per login)
 */

/**
 * @typedef {{ handle: oidc.DPoPHandle, alg: string, jkt: string }} DpopKey  a login's DPoP key
 * @typedef {{ idToken: string, claims: Record<string, unknown>, accessToken: string,
 *             userinfo: Record<string, unknown>, encrypted?: { alg: string, bytes: number },
 *             dpop?: DpopKey }} Session
 */

/** The DPoP key algorithms openid-client makes keys for (randomDPoPKeyPair). */
export const DPOP_ALGS = [
  'ML-DSA-44',
  'ML-DSA-65',
  'ML-DSA-87',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
];

/** The class of a two-factor sign-in at pqid (its discovery lists acr_values_supported). */
export const ACR_MFA = 'urn:pqid:acr:mfa';

const SESSION_COOKIE = 'rp_sid';
const TX_COOKIE = 'rp_tx';
const TOKEN_COOKIE = 'rp_id_token';

/** @param {string | undefined} header */
function parseCookies(header) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

/**
 * Decrypts the ID token in token endpoint responses (a Nested JWT: a JWE around the signed
 * token), so openid-client validates the signed token as usual. Returns what it saw, by token.
 * @param {{ alg: string, privateJwk: Record<string, unknown> }} enc
 */
async function idTokenDecryption(enc) {
  const key = await importEncryptionKey(enc.privateJwk, { alg: enc.alg });
  if (key.type !== 'private') throw new Error('idTokenEncryption.privateJwk must be a private key');
  /** @type {Map<string, { alg: string, bytes: number }>} what each ID token arrived as */
  const received = new Map();
  /** @param {Response} res */
  async function decrypt(res) {
    const body = await res.json();
    if (typeof body.id_token !== 'string' || body.id_token.split('.').length !== 5)
      throw new Error('the IdP sent no encrypted ID token, though this RP asked for one');
    const { plaintext, protectedHeader } = await decryptCompact(body.id_token, key, {
      keyManagementAlgorithms: [enc.alg],
      contentEncryptionAlgorithms: contentEncryptionRegistry().map((e) => e.enc),
    });
    if (String(protectedHeader.cty).toUpperCase() !== 'JWT') throw new Error('the JWE does not carry a JWT');
    const signed = new TextDecoder().decode(plaintext);
    received.set(signed, { alg: protectedHeader.alg, bytes: body.id_token.length });
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(JSON.stringify({ ...body, id_token: signed }), { status: res.status, headers });
  }
  return { jwks: { keys: [exportEncryptionKey(key.publicKey)] }, decrypt, received };
}

/** @param {RpOptions} opts */
export async function createRp(opts) {
  const alg = opts.alg ?? 'ML-DSA-65';
  const defaultStore = opts.store ?? 'session';
  const insecure = new URL(opts.issuer).protocol === 'http:';
  const config = await oidc.discovery(
    new URL(opts.issuer),
    opts.clientId,
    { id_token_signed_response_alg: alg },
    oidc.ClientSecretBasic(opts.clientSecret),
    insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
  );
  // Verify the ID token's signature against the IdP's JWKS even though it came over a direct
  // back-channel: the point of the exercise is an ML-DSA signature that is actually checked.
  oidc.enableNonRepudiationChecks(config);
  const meta = config.serverMetadata();
  const encryption = opts.idTokenEncryption ? await idTokenDecryption(opts.idTokenEncryption) : undefined;
  if (encryption)
    config[oidc.customFetch] = async (/** @type {string} */ url, /** @type {RequestInit} */ init) => {
      const res = await fetch(url, init);
      return url === meta.token_endpoint && res.status === 200 ? encryption.decrypt(res) : res;
    };
  const jwks = createRemoteJWKSet(new URL(/** @type {string} */ (meta.jwks_uri)));
  const dpopAlg = opts.dpopAlg;
  if (dpopAlg !== undefined && !meta.dpop_signing_alg_values_supported?.includes(dpopAlg))
    throw new Error(
      `the IdP accepts no ${dpopAlg} DPoP proofs (its dpop_signing_alg_values_supported: ${meta.dpop_signing_alg_values_supported?.join(', ') ?? 'none'})`,
    );

  /** A fresh DPoP key for one login; its private half never leaves WebCrypto (not extractable). */
  async function dpopKey(/** @type {string} */ alg) {
    const handle = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair(alg));
    return { handle, alg, jkt: await handle.calculateThumbprint() };
  }

  /** @type {Map<string, Session>} server-side sessions (use a real store in production) */
  const sessions = new Map();
  /** @type {Map<string, { verifier: string, state: string, nonce: string, store: string, acr?: string, dpop?: DpopKey }>} */
  const transactions = new Map();

  let baseUrl = opts.baseUrl ?? '';
  const secure = () => baseUrl.startsWith('https:');
  const attrs = () => `; Path=/; HttpOnly; SameSite=Lax${secure() ? '; Secure' : ''}`;
  const expire = (/** @type {string} */ name) => `${name}=; Path=/; Max-Age=0`;

  /** Who is signed in, from whichever storage the login chose. */
  async function current(/** @type {Record<string, string>} */ cookies) {
    const sid = cookies[SESSION_COOKIE];
    const s = sid ? sessions.get(sid) : undefined;
    if (s)
      return {
        ...s,
        name: s.userinfo.preferred_username ?? s.userinfo.name,
        heldIn: 'a server-side session (the cookie holds only a 43-byte id)',
      };
    const idToken = joinCookieChunks(TOKEN_COOKIE, cookies);
    if (!idToken) return undefined;
    try {
      // The browser holds the token, so it is checked again on every request: signature
      // (ML-DSA, from the JWKS), issuer, audience, expiry.
      const { claims } = await verifyJwt(idToken, jwks, {
        algorithms: [alg],
        issuer: meta.issuer,
        audience: opts.clientId,
      });
      const n = Object.keys(cookies).filter(
        (k) => k === TOKEN_COOKIE || k.startsWith(`${TOKEN_COOKIE}.`),
      ).length;
      return {
        idToken,
        claims,
        heldIn: `${n} chunked cookie${n === 1 ? '' : 's'} (${TOKEN_COOKIE}.0…), re-verified on each request`,
      };
    } catch {
      return undefined;
    }
  }

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', baseUrl);
      const cookies = parseCookies(req.headers.cookie);
      /** @param {number} status @param {string} html @param {string[]} [setCookies] */
      const send = (status, html, setCookies = []) => {
        res.writeHead(status, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          ...(setCookies.length ? { 'set-cookie': setCookies } : {}),
        });
        res.end(html);
      };
      /** @param {string} location @param {string[]} [setCookies] */
      const redirect = (location, setCookies = []) => {
        res.writeHead(303, { location, 'cache-control': 'no-store', 'set-cookie': setCookies });
        res.end();
      };

      if (url.pathname === '/jwks' && encryption) {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
        return res.end(JSON.stringify(encryption.jwks));
      }

      if (url.pathname === '/') {
        const who = await current(cookies);
        if (!who)
          return send(
            200,
            page(
              'pqid example RP',
              `<h1>pqid example relying party</h1><p>Not signed in.</p>
<p><a class="button" id="login-session" href="/login?store=session">Log in (server-side session)</a>
<a class="button" id="login-cookie" href="/login?store=cookie">Log in (chunked cookies)</a>
<a class="button" id="login-mfa" href="/login?store=session&amp;acr=mfa">Log in with two factors</a></p>`,
            ),
          );
        const header = JSON.parse(Buffer.from(who.idToken.split('.')[0] ?? '', 'base64url').toString());
        const size = inspectToken(who.idToken);
        return send(
          200,
          page(
            'Signed in',
            `<h1 class="ok" id="signed-in">Signed in${'name' in who && who.name ? ` as ${esc(who.name)}` : ''}</h1>
<table>
<tr><th>subject</th><td id="sub">${esc(who.claims.sub)}</td></tr>
<tr><th>ID token algorithm</th><td id="alg">${esc(header.alg)}</td></tr>
<tr><th>ID token size</th><td id="size">${size.bytes.token} bytes (signature ${size.bytes.signatureRaw} bytes)</td></tr>
<tr><th>fits one cookie?</th><td>${size.fits.cookie.fits ? 'yes' : `no: ${size.fits.cookie.bytes} &gt; ${size.fits.cookie.limit} bytes`}</td></tr>
<tr><th>ID token encryption</th><td id="enc">${'encrypted' in who && who.encrypted ? `${esc(who.encrypted.alg)} (${who.encrypted.bytes} bytes as received, decrypted by this RP)` : 'none'}</td></tr>
<tr><th>held in</th><td id="held-in">${esc(who.heldIn)}</td></tr>
${'accessToken' in who ? `<tr><th>access token</th><td id="access-token">${who.dpop ? `DPoP-bound to this login's ${esc(who.dpop.alg)} key (jkt <code>${esc(who.dpop.jkt)}</code>)` : 'Bearer'}</td></tr>` : ''}
<tr><th>authentication class (acr)</th><td id="acr">${esc(who.claims.acr ?? '(none)')}</td></tr>
<tr><th>methods (amr)</th><td id="amr">${esc(Array.isArray(who.claims.amr) ? who.claims.amr.join(' ') : '(none)')}</td></tr>
<tr><th>signed in at (auth_time)</th><td id="auth-time">${typeof who.claims.auth_time === 'number' ? new Date(who.claims.auth_time * 1000).toISOString() : '(none)'}</td></tr>
</table>
<h2>ID token claims</h2><pre id="claims" tabindex="0">${esc(JSON.stringify(who.claims, null, 2))}</pre>
<p><a class="button" href="/logout">Log out of this app</a></p>`,
          ),
        );
      }

      if (url.pathname === '/login') {
        const store = url.searchParams.get('store') ?? defaultStore;
        if (store !== 'session' && store !== 'cookie')
          return send(400, errorPage('Bad request', '<p>store must be session or cookie.</p>'));
        const mfa = url.searchParams.get('acr') === 'mfa';
        const verifier = oidc.randomPKCECodeVerifier();
        const tx = {
          verifier,
          state: oidc.randomState(),
          nonce: oidc.randomNonce(),
          store,
          ...(mfa ? { acr: ACR_MFA } : {}),
          ...(dpopAlg ? { dpop: await dpopKey(dpopAlg) } : {}),
        };
        const txId = randomBytes(32).toString('base64url');
        transactions.set(txId, tx);
        setTimeout(() => transactions.delete(txId), 600_000).unref();
        const authUrl = oidc.buildAuthorizationUrl(config, {
          redirect_uri: `${baseUrl}/callback`,
          scope: 'openid profile email',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state: tx.state,
          nonce: tx.nonce,
          ...(tx.acr ? { acr_values: tx.acr } : {}),
          // The code is bound to the login's DPoP key: a stolen code is worthless without it.
          ...(tx.dpop ? { dpop_jkt: tx.dpop.jkt } : {}),
        });
        return redirect(authUrl.href, [`${TX_COOKIE}=${txId}${attrs()}; Max-Age=600`]);
      }

      if (url.pathname === '/callback') {
        const txId = cookies[TX_COOKIE];
        const tx = txId ? transactions.get(txId) : undefined;
        if (!tx || !txId) return send(400, errorPage('Login expired', '<p>No login in progress.</p>'));
        transactions.delete(txId);
        const clearTx = expire(TX_COOKIE);
        // Validates state, iss (RFC 9207), the code exchange with PKCE, and the ID token:
        // signature (ML-DSA via the IdP's JWKS), iss, aud, exp, nonce.
        const dpop = tx.dpop ? { DPoP: tx.dpop.handle } : undefined;
        let tokens;
        try {
          tokens = await oidc.authorizationCodeGrant(
            config,
            url,
            {
              pkceCodeVerifier: tx.verifier,
              expectedState: tx.state,
              expectedNonce: tx.nonce,
              idTokenExpected: true,
            },
            undefined,
            dpop,
          );
        } catch (e) {
          // An error the IdP sent back (after openid-client checked state and iss), e.g.
          // unmet_authentication_requirements when two factors were demanded and not given.
          if (e instanceof oidc.AuthorizationResponseError)
            return send(
              403,
              errorPage(
                'Not signed in',
                `<p id="login-error">The IdP answered <code>${esc(e.error)}</code>.</p>`,
              ),
              [clearTx],
            );
          throw e;
        }
        // Asked for a bound token, a bearer one would be a silent downgrade (RFC 9449 §5).
        if (tx.dpop && tokens.token_type !== 'dpop')
          throw new Error(`the IdP issued a ${tokens.token_type} token, not the DPoP-bound one asked for`);
        const idToken = /** @type {string} */ (tokens.id_token);
        const claims = /** @type {Record<string, unknown>} */ (tokens.claims());
        const encrypted = encryption?.received.get(idToken);
        encryption?.received.delete(idToken);
        // acr_values is only a request: the RP itself checks the class it demanded.
        if (tx.acr && claims.acr !== tx.acr)
          return send(
            403,
            errorPage(
              'Not signed in',
              `<p id="login-error">Two factors were required; the ID token says <code>${esc(claims.acr)}</code>.</p>`,
            ),
            [clearTx],
          );
        if (tx.store === 'session') {
          // Profile claims live at userinfo (the IdP keeps PQ ID tokens minimal).
          const userinfo = await oidc.fetchUserInfo(
            config,
            tokens.access_token,
            /** @type {string} */ (claims.sub),
            dpop,
          );
          const sid = randomBytes(32).toString('base64url');
          sessions.set(sid, {
            idToken,
            claims,
            accessToken: tokens.access_token,
            userinfo,
            ...(encrypted ? { encrypted } : {}),
            // Every later use of a bound access token needs a proof by its key.
            ...(tx.dpop ? { dpop: tx.dpop } : {}),
          });
          return redirect('/', [clearTx, `${SESSION_COOKIE}=${sid}${attrs()}`]);
        }
        // Each Set-Cookie stays within 4096 bytes including name and attributes.
        const chunks = chunkCookie(TOKEN_COOKIE, idToken, { attributes: attrs() });
        return redirect('/', [clearTx, ...chunks.map((c) => `${c.name}=${c.value}${attrs()}`)]);
      }

      if (url.pathname === '/logout') {
        const sid = cookies[SESSION_COOKIE];
        if (sid) sessions.delete(sid);
        const stale = Object.keys(cookies).filter(
          (k) => k === SESSION_COOKIE || k === TOKEN_COOKIE || k.startsWith(`${TOKEN_COOKIE}.`),
        );
        return redirect('/', stale.map(expire));
      }
      return send(404, errorPage('Not found', '<p>There is no page here.</p>'));
    } catch (e) {
      // Never echo tokens or codes: the error class and message only.
      console.error('rp: request failed:', e instanceof Error ? `${e.name}: ${e.message}` : e);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/html; charset=utf-8' });
        res.end(errorPage('Login failed', '<p>Something went wrong; the RP logged why.</p>'));
      }
    }
  });

  await new Promise((resolve) =>
    server.listen(opts.port ?? 3001, opts.host ?? '127.0.0.1', () => resolve(undefined)),
  );
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  if (!baseUrl) baseUrl = `http://localhost:${address.port}`;
  return {
    url: baseUrl,
    redirectUri: `${baseUrl}/callback`,
    server,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
