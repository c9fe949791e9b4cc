/**
 * Stateless access tokens (and `id_token_hint`s) are verified with the OIDC token-signing keys only: a token that
 * carries every claim of a genuine one, `typ: at+jwt` and the `kid` of another published key set
 * (the root, when `keys.publishRoot` puts it in /jwks) or of an unpublished one (SAML) is not an
 * access token of this provider, however valid its signature.
 */
import { signJwt } from '@pqid/jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { registerClient } from '../src/app.ts';
import { verifyHint } from '../src/oidc/logout/hint.ts';
import { SamlCertificates } from '../src/saml/certificates.ts';
import { basicAuth, form, startTestIdp } from './helpers.ts';

const SECRET = 'app-secret-app-secret';
let t: Awaited<ReturnType<typeof startTestIdp>>;

beforeAll(async () => {
  t = await startTestIdp({ accessTokenStorage: 'stateless', keys: { publishRoot: true } as never });
  await registerClient(t.idp.ctx, {
    client_id: 'app',
    client_secret: SECRET,
    redirect_uris: ['https://rp.example/cb'],
    access_token_format: 'jwt',
    grant_types: ['client_credentials'],
  });
  // The root and a SAML signer exist once SAML first needs them.
  const certs = new SamlCertificates(t.idp.ctx);
  await certs.root();
  await certs.signer('ML-DSA-65');
}, 60_000);
afterAll(() => t.close());

const auth = basicAuth('app', SECRET);

async function active(token: string): Promise<boolean> {
  const r = await t.idp.app.inject({
    method: 'POST',
    url: '/introspect',
    ...form({ token }, { authorization: auth }),
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().active === true;
}

async function claimsOfNewToken(): Promise<Record<string, unknown>> {
  const r = await t.idp.app.inject({
    method: 'POST',
    url: '/token',
    ...form({ grant_type: 'client_credentials' }, { authorization: auth }),
  });
  expect(r.statusCode, r.body).toBe(200);
  return JSON.parse(Buffer.from(r.json().access_token.split('.')[1], 'base64url').toString());
}

/** The claims re-signed by the active key of `set` (its kid in the header), as an access token. */
async function resignedBy(
  set: 'oidc' | 'root' | 'saml',
  claims: Record<string, unknown>,
  typ = 'at+jwt',
): Promise<string> {
  const info = t.idp.ctx.keys.list(set).find((k) => k.status === 'active');
  if (!info) throw new Error(`no active ${set} key`);
  const key = await t.idp.ctx.keys.signingKey(info.alg, set);
  return signJwt(claims, key, { typ, issuedAt: false });
}

it('a token signed by the published root key or by a SAML key is inactive; by an OIDC key, active', async () => {
  const claims = await claimsOfNewToken();
  const rootKid = t.idp.ctx.keys.list('root').find((k) => k.status === 'active')?.kid;
  expect(t.idp.ctx.keys.jwks().keys.map((k) => k.kid)).toContain(rootKid);
  expect(await active(await resignedBy('root', claims))).toBe(false);
  expect(await active(await resignedBy('saml', claims))).toBe(false);
  // The same claims under the provider's own token-signing key: the check above can pass.
  expect(await active(await resignedBy('oidc', claims))).toBe(true);
}, 60_000);

it('an id_token_hint signed by the published root key is not an ID token of this provider', async () => {
  const now = Math.floor(Date.now() / 1000);
  const idToken = {
    iss: t.idp.ctx.config.issuer,
    sub: 'alice',
    aud: 'app',
    iat: now,
    exp: now + 300,
    auth_time: now,
  };
  await expect(verifyHint(t.idp.ctx, await resignedBy('root', idToken, 'JWT'))).rejects.toThrow(
    /not a valid ID token/,
  );
  await expect(verifyHint(t.idp.ctx, await resignedBy('oidc', idToken, 'JWT'))).resolves.toMatchObject({
    sub: 'alice',
  });
}, 60_000);
