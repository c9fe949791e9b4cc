/**
 * A SAML service provider built on an unmodified @node-saml/passport-saml. The only pqid-specific
 * line is installNodeSamlIntegration(), which lets node-saml verify ML-DSA signatures from the
 * IdP certificate it is configured with (and from no other key). A "legacy" SP verifies
 * RSA-SHA256 with stock node-saml, and signs its AuthnRequests with its own RSA key.
 */

import { Strategy } from '@node-saml/passport-saml';
import {
  checkSamlHttpMessage,
  checkSamlResponseAddressing,
  installNodeSamlIntegration,
  recommendedNodeSamlOptions,
} from '@pqid/xmldsig';
import express from 'express';
import session from 'express-session';
import passportPkg from 'passport';
import { errorPage, esc, page } from '../shared/page.js';

const NAMEID_PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

/** An error page with the message (escaped) and a way back. */
const failure = (res, status, title, message) =>
  res
    .status(status)
    .type('html')
    .send(errorPage(title, `<p id="error">${esc(message)}</p>`));

/**
 * @param {object} o
 * @param {string} o.baseUrl        where this SP is reachable, e.g. http://localhost:3002
 * @param {string} o.entityId       this SP's entityID (registered at the IdP)
 * @param {string} o.idpSsoUrl      the IdP's /saml/sso
 * @param {string} o.idpSloUrl      the IdP's /saml/slo
 * @param {string} o.idpEntityId    the IdP's entityID (checked as the Issuer)
 * @param {string} o.idpCert        PEM of the IdP signing certificate this SP trusts (pinned)
 * @param {boolean} [o.pq=true]     accept ML-DSA (installs the @pqid/xmldsig integration)
 * @param {{privateKey: string, certificate: string}} [o.requestSigning]  RSA key to sign AuthnRequests
 * @param {{classRefs: string[], comparison?: 'exact' | 'minimum' | 'maximum' | 'better'}} [o.authnContext]
 *        send a RequestedAuthnContext, e.g. REFEDS MFA (https://refeds.org/profile/mfa) at minimum
 * @param {string} [o.sessionSecret]
 */
export function createSp(o) {
  // Process-wide but scoped to this certificate: only signatures by o.idpCert's key verify.
  const integration =
    o.pq === false ? undefined : installNodeSamlIntegration({ trustedCertificates: [o.idpCert] });
  const passport = new passportPkg.Passport();
  const acsUrl = `${o.baseUrl}/saml/acs`;
  const sloUrl = `${o.baseUrl}/saml/slo`;
  const options = {
    // The protocol checks node-saml leaves off by default: both signatures required,
    // validateInResponseTo 'always' (no replays, no unsolicited Responses), an explicit
    // audience, the IdP Issuer, clock skew, SHA-256 for our own request signatures.
    ...recommendedNodeSamlOptions({
      idpCert: o.idpCert,
      idpIssuer: o.idpEntityId,
      issuer: o.entityId,
      callbackUrl: acsUrl,
      acceptedClockSkewMs: 5000,
    }),
    logoutCallbackUrl: sloUrl,
    entryPoint: o.idpSsoUrl,
    logoutUrl: o.idpSloUrl,
    identifierFormat: NAMEID_PERSISTENT,
    // No RequestedAuthnContext unless asked: the IdP then reports whatever the sign-in was.
    ...(o.authnContext
      ? {
          authnContext: o.authnContext.classRefs,
          racComparison: o.authnContext.comparison ?? 'exact',
          disableRequestedAuthnContext: false,
        }
      : { disableRequestedAuthnContext: true }),
    ...(o.requestSigning
      ? { privateKey: o.requestSigning.privateKey, publicCert: o.requestSigning.certificate }
      : {}),
  };
  // node-saml checks neither the Response's Destination nor the bearer Recipient: a Response the
  // IdP issued for another ACS would sign the user in here. Checked on what node-saml verified.
  // The session keeps plain data: the profile plus the class of the sign-in the IdP asserted.
  const signIn = (profile, done) => {
    try {
      checkSamlResponseAddressing(profile, acsUrl);
      const xml = profile?.getAssertionXml?.() ?? '';
      done(null, { ...profile, authnContextClassRef: /AuthnContextClassRef>([^<]+)</.exec(xml)?.[1] });
    } catch (e) {
      done(e);
    }
  };
  const strategy = new Strategy(options, signIn, (profile, done) => done(null, profile));
  // node-saml 5.1 reads InResponseTo over HTTP-POST only from a samlp:Response, so with 'always'
  // it refuses every LogoutResponse. The SLO endpoint gets its own instance without that check;
  // the guard below lets only signed LogoutResponse/LogoutRequest reach it, so a login Response
  // cannot use it to skip the InResponseTo check (and it would sign nobody in if one did).
  const sloStrategy = new Strategy(
    { ...options, validateInResponseTo: 'never' },
    (_profile, done) => done(new Error('the SLO endpoint signs nobody in')),
    (profile, done) => done(null, profile),
  );
  passport.use('saml', strategy);
  passport.use('saml-slo', sloStrategy);
  passport.serializeUser((user, done) => done(null, user));
  passport.deserializeUser((user, done) => done(null, user));

  const app = express();
  app.use(
    session({
      secret: o.sessionSecret ?? crypto.randomUUID(),
      resave: false,
      saveUninitialized: false,
      cookie: { httpOnly: true, sameSite: 'lax' },
      name: 'sp_session',
    }),
  );
  app.use(passport.initialize());
  app.use(passport.session());
  // ML-DSA-87 responses with both signatures are ~30 KB once base64-encoded in the form.
  app.use(express.urlencoded({ extended: false, limit: '256kb' }));
  // passport-saml reads SAMLRequest/SAMLResponse from the query first, on every route it is
  // mounted on (/login too), and node-saml accepts an unsigned Redirect-binding LogoutRequest and
  // decodes, inflates and XPath-searches whatever arrives. So every request passes this guard:
  // only the ACS and the SLO endpoint take a SAML message, only over HTTP-POST, only the kinds
  // they handle, addressed to them (Destination), within size and shape limits, and a logout
  // message only when signed. Everything else with a SAML parameter is a 400 before node-saml.
  // (Routing is case-insensitive; an unlisted spelling of a path gets the no-message rule.)
  const SAML_ROUTES = new Map([
    ['POST /saml/acs', { post: ['Response'], required: true, destination: acsUrl }],
    ['POST /saml/slo', { post: ['LogoutResponse', 'LogoutRequest'], required: true, destination: sloUrl }],
  ]);
  app.use((req, res, next) => {
    try {
      checkSamlHttpMessage(req, SAML_ROUTES.get(`${req.method} ${req.path}`) ?? {});
      next();
    } catch (e) {
      failure(res, 400, 'Request refused', `SAML message refused: ${e.message}`);
    }
  });

  app.get('/', (req, res) => {
    const u = req.user;
    if (!u)
      return res
        .type('html')
        .send(
          page(
            'pqid example SAML SP',
            '<h1>pqid example SAML service provider</h1>' +
              `<p id="signed-out">${req.query.logged_out ? 'Signed out.' : 'Not signed in.'}</p>` +
              '<p><a class="button" id="login" href="/login">Sign in with pqid (SAML)</a></p>',
          ),
        );
    const who = u.uid ?? u.email ?? '';
    res
      .type('html')
      .send(
        page(
          'Signed in',
          `<h1 class="ok" id="signed-in">Signed in${who ? ` as ${esc(who)}` : ''}</h1><table>` +
            `<tr><th>NameID</th><td><code id="nameid">${esc(u.nameID)}</code></td></tr>` +
            `<tr><th>uid</th><td id="uid">${esc(u.uid ?? '')}</td></tr>` +
            `<tr><th>email</th><td id="email">${esc(u.email ?? '')}</td></tr>` +
            `<tr><th>authentication context</th><td><code id="authn-context">${esc(u.authnContextClassRef ?? '')}</code></td></tr>` +
            `<tr><th>IdP</th><td>${esc(u.issuer ?? '')}</td></tr></table>` +
            `<h2>Attributes</h2><pre id="attributes" tabindex="0">${esc(JSON.stringify(u.attributes ?? {}, null, 2))}</pre>` +
            '<p><a class="button" href="/logout">Sign out</a></p>',
        ),
      );
  });
  app.get('/login', passport.authenticate('saml', { failureRedirect: '/', failureMessage: true }));
  app.post(
    '/saml/acs',
    passport.authenticate('saml', { failureRedirect: '/error', failureMessage: true }),
    (_req, res) => res.redirect('/'),
  );
  app.get('/logout', (req, res, next) => {
    if (!req.user) return res.redirect('/');
    strategy.logout(req, (err, url) => {
      if (err) return next(err);
      req.logout((e) => (e ? next(e) : res.redirect(url)));
    });
  });
  // The IdP's signed LogoutResponse (HTTP-POST): passport-saml verifies it and passes on.
  app.post('/saml/slo', passport.authenticate('saml-slo', { failureRedirect: '/error' }), (_req, res) =>
    res.redirect('/?logged_out=1'),
  );
  app.get('/saml/metadata', (_req, res) =>
    res
      .type('application/samlmetadata+xml')
      .send(strategy.generateServiceProviderMetadata(null, o.requestSigning?.certificate ?? null)),
  );
  app.get('/error', (req, res) =>
    failure(res, 401, 'Sign-in failed', `SAML login failed: ${(req.session?.messages ?? []).join('; ')}`),
  );
  // node-saml's refusals (replay, expiry, audience, signature, …) arrive as errors: a 401 that
  // says why, not express's 500 page with a stack trace.
  app.use((err, _req, res, _next) =>
    failure(res, err.status === 413 ? 413 : 401, 'Sign-in failed', `SAML login failed: ${err.message}`),
  );
  return { app, strategy, close: () => integration?.uninstall() };
}

/** The first signing certificate in IdP metadata whose key has this algorithm. */
export async function idpCertificateFromMetadata(metadataXml, alg) {
  const { parseCertificate } = await import('@pqid/xmldsig');
  for (const m of metadataXml.matchAll(
    /<md:KeyDescriptor use="signing">[\s\S]*?<ds:X509Certificate>([^<]+)</g,
  )) {
    const cert = parseCertificate(m[1]);
    if (cert.publicKey.alg === alg) return cert.pem;
  }
  throw new Error(`the IdP metadata has no ${alg} signing certificate`);
}
