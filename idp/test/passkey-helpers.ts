/**
 * Driving the sign-in pages over inject the way a browser with passkey.js would: a cookie jar,
 * the pages' CSRF tokens, the options fetch, the credential form post.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { IdpContext } from '../src/context.ts';
import { Enrolments } from '../src/signin/passkeys/enrolment.ts';
import { basicAuth, DEMO_REDIRECT, form, pkce, redeemCode } from './helpers.ts';
import type { SoftAlg, SoftAuthenticator, SoftCredential, Tamper } from './webauthn-authenticator.ts';

export const ORIGIN = 'http://localhost:3000';

/** Cookies by name, as one browser holds them for the IdP (paths are not modelled). */
export class Jar {
  readonly cookies = new Map<string, string>();
  take(res: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of res.cookies) {
      const expired =
        c.value === '' || c.maxAge === 0 || (c.expires instanceof Date && c.expires.getTime() < Date.now());
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }
  get header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] as string;

export async function get(app: FastifyInstance, jar: Jar, url: string) {
  return jar.take(await app.inject({ method: 'GET', url, headers: { cookie: jar.header } }));
}

export async function postForm(app: FastifyInstance, jar: Jar, url: string, data: Record<string, string>) {
  return jar.take(
    await app.inject({
      method: 'POST',
      url,
      headers: { cookie: jar.header, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(data).toString(),
    }),
  );
}

export async function postJson(app: FastifyInstance, jar: Jar, url: string, data: unknown) {
  return jar.take(
    await app.inject({
      method: 'POST',
      url,
      headers: { cookie: jar.header, 'content-type': 'application/json' },
      payload: JSON.stringify(data),
    }),
  );
}

/** A page of a parked interaction: where it lives and its CSRF token. */
export interface InteractionPage {
  url: string;
  csrf: string;
  html: string;
}

export async function openInteraction(
  app: FastifyInstance,
  jar: Jar,
  location: string,
): Promise<InteractionPage> {
  const page = await get(app, jar, location);
  if (page.statusCode !== 200) throw new Error(`interaction page: ${page.statusCode} ${page.body}`);
  return { url: new URL(location, ORIGIN).pathname, csrf: csrfOf(page.body), html: page.body };
}

/** GET a protocol URL that parks a sign-in; the interaction page it leads to. */
export async function startSignIn(app: FastifyInstance, jar: Jar, url: string): Promise<InteractionPage> {
  const r = await get(app, jar, url);
  if (r.statusCode !== 303) throw new Error(`expected a redirect to sign in: ${r.statusCode} ${r.body}`);
  return openInteraction(app, jar, r.headers.location as string);
}

/** The password form of a login page. */
export function password(
  app: FastifyInstance,
  jar: Jar,
  page: InteractionPage,
  username: string,
  pw: string,
) {
  return postForm(app, jar, `${page.url}/login`, { csrf: page.csrf, username, password: pw });
}

/** passkey.js: fetch the options, let the authenticator answer, post the credential. */
export async function passkey(
  app: FastifyInstance,
  jar: Jar,
  page: InteractionPage,
  authenticator: SoftAuthenticator,
  t: Tamper = {},
  which?: SoftCredential,
) {
  const options = await postJson(app, jar, `${page.url}/passkey/options`, { csrf: page.csrf });
  if (options.statusCode !== 200) return options;
  const credential = await authenticator.get(options.json(), t, which);
  return postForm(app, jar, `${page.url}/passkey`, {
    csrf: page.csrf,
    credential: JSON.stringify(credential),
  });
}

/**
 * A first passkey for `account` the way a user gets one: the operator's enrolment code, a
 * password sign-in on the account page, the code, the ceremony. Returns the final response.
 */
export async function enrolFirstPasskey(
  idp: { app: FastifyInstance; ctx: IdpContext },
  account: { sub: string; uid: string },
  password: string,
  authenticator: SoftAuthenticator,
  alg: SoftAlg,
  jar = new Jar(),
) {
  await signInToAccount(idp.app, jar, account.uid, password);
  const enrolment = await enrolmentCode(idp.ctx, account.sub);
  return registerPasskey(idp.app, jar, authenticator, alg, {}, { enrolment });
}

/** Sign in with a password through /account; the jar then holds a fresh session. */
export async function signInToAccount(app: FastifyInstance, jar: Jar, username: string, pw: string) {
  const page = await startSignIn(app, jar, '/account');
  const r = await password(app, jar, page, username, pw);
  if (r.statusCode !== 303 || r.headers.location !== '/account')
    throw new Error(`account sign-in: ${r.statusCode} ${r.headers.location} ${r.body}`);
}

/** An enrolment code for the account's first passkey, as `pqid passkeys enrol` issues it. */
export async function enrolmentCode(ctx: IdpContext, accountId: string, ttl = 600): Promise<string> {
  return (await new Enrolments(ctx.storage.adapter('PasskeyEnrolment')).issue(accountId, ttl)).code;
}

/** On the account page (signed in), redeem an enrolment code for the first passkey. */
export async function redeemEnrolment(app: FastifyInstance, jar: Jar, code: string) {
  const page = await get(app, jar, '/account');
  if (page.statusCode !== 200) throw new Error(`account page: ${page.statusCode} ${page.headers.location}`);
  return postForm(app, jar, '/account/enrol', { csrf: csrfOf(page.body), code });
}

/**
 * On the account page (signed in), create a passkey with `authenticator` and register it; a
 * first passkey after redeeming `extra.enrolment`.
 */
export async function registerPasskey(
  app: FastifyInstance,
  jar: Jar,
  authenticator: SoftAuthenticator,
  alg: SoftAlg,
  t: Tamper = {},
  extra: { name?: string; enrolment?: string } = {},
) {
  if (extra.enrolment !== undefined) {
    const r = await redeemEnrolment(app, jar, extra.enrolment);
    if (r.headers.location !== '/account?done=enrolled')
      throw new Error(`enrolment: ${r.statusCode} ${r.headers.location} ${r.body}`);
  }
  const page = await get(app, jar, '/account');
  if (page.statusCode !== 200) throw new Error(`account page: ${page.statusCode} ${page.headers.location}`);
  const csrf = csrfOf(page.body);
  const options = await postJson(app, jar, '/account/passkeys/options', { csrf });
  if (options.statusCode !== 200)
    throw new Error(`registration options: ${options.statusCode} ${options.body}`);
  const credential = await authenticator.create(options.json(), alg, t);
  return postForm(app, jar, '/account/passkeys', {
    csrf,
    credential: JSON.stringify(credential),
    ...(extra.name !== undefined ? { name: extra.name } : {}),
  });
}

/** An authorization request of the demo client (PKCE S256), with `extra` parameters. */
export function demoAuthorize(extra: Record<string, string> = {}): { url: string; verifier: string } {
  const { verifier, challenge } = pkce();
  const q = new URLSearchParams({
    client_id: 'demo-client',
    redirect_uri: DEMO_REDIRECT,
    response_type: 'code',
    scope: 'openid',
    state: 'st',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
  return { url: `/authorize?${q}`, verifier };
}

/** Past the consent page when one is shown (allowing); the redirect to the client. */
export async function pastConsent(app: FastifyInstance, jar: Jar, location: string): Promise<string> {
  if (!location.startsWith('/interaction/')) return location;
  const page = await openInteraction(app, jar, location);
  const r = await postForm(app, jar, `${page.url}/consent`, { csrf: page.csrf, decision: 'allow' });
  return r.headers.location as string;
}

/**
 * A passkey sign-in into the demo client asking for `offline_access`, past the consent page, the
 * code redeemed: the browser's jar (its session) and the token response.
 */
export async function passkeyTokens(app: FastifyInstance, authenticator: SoftAuthenticator, jar = new Jar()) {
  const { url, verifier } = demoAuthorize({ scope: 'openid offline_access' });
  const r = await passkey(app, jar, await startSignIn(app, jar, url), authenticator);
  if (r.statusCode !== 303) throw new Error(`passkey sign-in: ${r.statusCode} ${r.body}`);
  const location = await pastConsent(app, jar, r.headers.location as string);
  const token = await redeemCode(app, new URL(location), DEMO_REDIRECT, {
    verifier,
    headers: { authorization: basicAuth('demo-client', 'demo-secret') },
  });
  if (token.statusCode !== 200) throw new Error(`token: ${token.statusCode} ${token.body}`);
  return {
    jar,
    tokens: token.json() as { access_token: string; refresh_token: string; id_token: string },
  };
}

/** Whether the demo client can redeem refresh token `rt` (and so whether its grant is alive). */
export const refreshes = async (app: FastifyInstance, rt: string): Promise<boolean> =>
  (
    await app.inject({
      method: 'POST',
      url: '/token',
      ...form(
        { grant_type: 'refresh_token', refresh_token: rt },
        { authorization: basicAuth('demo-client', 'demo-secret') },
      ),
    })
  ).statusCode === 200;
