/**
 * A SAML service provider built on an unmodified @node-saml/passport-saml. The only pqid-specific
 * line is installNodeSamlIntegration(), which lets node-saml verify ML-DSA signatures from the
 * IdP certificate it is configured with (and from no other key). A "legacy" SP verifies
 * RSA-SHA256 with stock node-saml, and signs its AuthnRequests with its own RSA key.
 */

import { Strategy } from '@node-saml/passport-saml';
import { installNodeSamlIntegration } from '@pqid/xmldsig';
import express from 'express';
import session from 'express-session';
import passportPkg from 'passport';

const NAMEID_PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

const esc = (s) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

/**
 * @param {object} o
 * @param {string} o.baseUrl        where this SP is reachable, e.g. http://localhost:4000
 * @param {string} o.entityId       this SP's entityID (registered at the IdP)
 * @param {string} o.idpSsoUrl      the IdP's /saml/sso
 * @param {string} o.idpSloUrl      the IdP's /saml/slo
 * @param {string} o.idpEntityId    the IdP's entityID (checked as the Issuer)
 * @param {string} o.idpCert        PEM of the IdP signing certificate this SP trusts (pinned)
 * @param {boolean} [o.pq=true]     accept ML-DSA (installs the @pqid/xmldsig integration)
 * @param {{privateKey: string, certificate: string}} [o.requestSigning]  RSA key to sign AuthnRequests
 * @param {string} [o.sessionSecret]
 */
export function createSp(o) {
  // Process-wide but scoped to this certificate: only signatures by o.idpCert's key verify.
  const integration =
    o.pq === false ? undefined : installNodeSamlIntegration({ trustedCertificates: [o.idpCert] });
  const passport = new passportPkg.Passport();
  const strategy = new Strategy(
    {
      callbackUrl: `${o.baseUrl}/saml/acs`,
      logoutCallbackUrl: `${o.baseUrl}/saml/slo`,
      entryPoint: o.idpSsoUrl,
      logoutUrl: o.idpSloUrl,
      issuer: o.entityId,
      audience: o.entityId,
      idpIssuer: o.idpEntityId,
      idpCert: o.idpCert,
      identifierFormat: NAMEID_PERSISTENT,
      wantAuthnResponseSigned: true,
      wantAssertionsSigned: true,
      disableRequestedAuthnContext: true,
      acceptedClockSkewMs: 5000,
      ...(o.requestSigning
        ? {
            privateKey: o.requestSigning.privateKey,
            publicCert: o.requestSigning.certificate,
            signatureAlgorithm: 'sha256',
          }
        : {}),
    },
    (profile, done) => done(null, profile),
    (profile, done) => done(null, profile),
  );
  passport.use('saml', strategy);
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

  app.get('/', (req, res) => {
    const u = req.user;
    res
      .type('html')
      .send(
        u
          ? `<h1 id="signed-in">Signed in</h1><p>NameID: <code id="nameid">${esc(u.nameID)}</code></p>` +
              `<p>uid: <span id="uid">${esc(u.uid ?? '')}</span>, email: <span id="email">${esc(u.email ?? '')}</span></p>` +
              '<p><a href="/logout">Sign out</a></p>'
          : '<h1 id="signed-out">Not signed in</h1><p><a id="login" href="/login">Sign in with pqid (SAML)</a></p>',
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
  app.post('/saml/slo', passport.authenticate('saml', { failureRedirect: '/error' }), (_req, res) =>
    res.redirect('/?logged_out=1'),
  );
  app.get('/saml/metadata', (_req, res) =>
    res
      .type('application/samlmetadata+xml')
      .send(strategy.generateServiceProviderMetadata(null, o.requestSigning?.certificate ?? null)),
  );
  app.get('/error', (req, res) =>
    res
      .status(401)
      .type('text')
      .send(`SAML login failed: ${(req.session?.messages ?? []).join('; ')}`),
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
