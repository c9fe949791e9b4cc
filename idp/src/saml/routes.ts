/**
 * The SAML IdP endpoints, next to the OIDC ones and sharing their users and browser session:
 *   GET  /saml/metadata            signed EntityDescriptor
 *   GET|POST /saml/sso             AuthnRequest (HTTP-Redirect | HTTP-POST)
 *   GET  /saml/continue/:uid       back from the shared login page
 *   GET|POST /saml/slo             LogoutRequest (HTTP-Redirect | HTTP-POST)
 *   POST /saml/slo/confirm/:uid    the user's answer when a LogoutRequest was not authenticated
 * Until the issuer and the ACS URL are verified against the registration, every problem is an
 * error page: nothing is ever redirected or posted to a URL taken from an unverified request.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endpoints, type IdpContext } from '../context.ts';
import { randomToken } from '../crypto/secrets.ts';
import { pageErrorHandler } from '../http/errors.ts';
import type { AuthContext, SignInNeed } from '../signin/auth-context.ts';
import { SESSION_COOKIE } from '../signin/session.ts';
import type { SignIn } from '../signin/sign-in.ts';
import { classRefFor, requiredClass } from './authn-context.ts';
import { type AuthnRequestInfo, readAuthnRequest, unsupportedNameIdFormat } from './authn-request.ts';
import { SamlRequestError, sendPostForm } from './bindings.ts';
import { pairwiseId, SamlCertificates } from './certificates.ts';
import { type NameIdFormatName, STATUS } from './constants.ts';
import { samlEndpoints } from './endpoints.ts';
import { MetadataCache } from './metadata.ts';
import { acceptSpRequest, type IncomingMessage } from './requests.ts';
import { signedLoginResponse, signedStatusResponse } from './response.ts';
import { rememberSessionSp } from './session-sps.ts';
import { SamlLogout, sessionIndexFor } from './slo.ts';
import { type SamlSp, SamlSps } from './sps.ts';
import { samlId } from './xml.ts';

const messageSchema = (where: 'query' | 'body') =>
  ({
    type: 'object',
    required: ['SAMLRequest'],
    properties: {
      // Redirect: deflated, so smaller; POST: the request may carry an ML-DSA-87 signature and certificate.
      SAMLRequest: { type: 'string', minLength: 1, maxLength: where === 'query' ? 32768 : 98304 },
      RelayState: { type: 'string', maxLength: 800 },
      SigAlg: { type: 'string', maxLength: 256 },
      Signature: { type: 'string', maxLength: 16384 },
    },
  }) as const;

interface SamlParams {
  SAMLRequest: string;
  RelayState?: string;
  SigAlg?: string;
  Signature?: string;
}

/** Everything after the first `?`, as received (a `?` may appear, unencoded, inside a value). */
const rawQueryOf = (url: string) => (url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');

interface PendingSso extends AuthnRequestInfo {
  [member: string]: unknown;
  createdAt: number;
}

export async function samlRoutes(
  app: FastifyInstance,
  { ctx, signIn }: { ctx: IdpContext; signIn: SignIn },
): Promise<void> {
  if (!ctx.config.saml.enabled) return;
  const ep = samlEndpoints(ctx.config);
  const { prefix } = endpoints(ctx.config.issuer);
  const certs = new SamlCertificates(ctx);
  const sps = new SamlSps(ctx);
  const metadata = new MetadataCache(certs);
  const pending = ctx.storage.adapter('Interaction');
  // Keys exist before the first request: generating one (RSA especially) is no job for a login.
  await ctx.keys.ensure([ctx.keys.coldAlg()], 'root');
  await ctx.keys.ensure(
    [...ctx.config.saml.metadataAlgs, ...(await sps.list()).map((s) => s.signatureAlgorithm)],
    'saml',
  );

  // A refused request (SamlRequestError) is shown with its reason, never redirected: the
  // destination is not trusted yet.
  app.setErrorHandler(
    pageErrorHandler({
      what: 'saml endpoint failure',
      malformed: 'The SAML request is malformed.',
      clamp: true,
      refused: 'This sign-in request cannot be processed',
    }),
  );

  async function metadataAlgs(): Promise<string[]> {
    const fromSps = (await sps.list()).map((s) => s.signatureAlgorithm);
    return [...new Set([...ctx.config.saml.metadataAlgs, ...fromSps])];
  }

  app.get('/saml/metadata', async (_req, reply) => {
    const xml = await metadata.get({
      endpoints: ep,
      algs: await metadataAlgs(),
      validitySeconds: ctx.config.saml.metadataValidity,
    });
    return reply
      .header('content-type', 'application/samlmetadata+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(xml);
  });

  const incoming = (req: FastifyRequest, binding: 'redirect' | 'post', p: SamlParams): IncomingMessage => ({
    binding,
    message: p.SAMLRequest,
    relayState: p.RelayState,
    sigAlg: p.SigAlg,
    signature: p.Signature,
    rawQuery: rawQueryOf(req.raw.url ?? ''),
  });

  // ---- SSO ----------------------------------------------------------------------------------

  async function sso(req: FastifyRequest, reply: FastifyReply, msg: IncomingMessage) {
    const accepted = await acceptSpRequest(ctx, sps, msg, 'AuthnRequest', ep.sso);
    const info = readAuthnRequest(accepted);
    const { sp } = accepted;
    if (unsupportedNameIdFormat(accepted))
      return status(
        reply,
        sp,
        info,
        STATUS.invalidNameIdPolicy,
        'The requested NameID format is not supported.',
      );
    const acr = requiredClass(info.requestedAuthnContext);
    if (acr === 'impossible')
      return status(
        reply,
        sp,
        info,
        STATUS.noAuthnContext,
        'The requested authentication context is not supported.',
      );
    const need: SignInNeed = {
      reauthenticate: info.forceAuthn,
      ...(acr !== undefined ? { acr: [acr] } : {}),
    };
    const session = await signIn.check(req, need);
    if (session.ok) return login(req, reply, sp, info, session.auth);
    if (info.isPassive) return status(reply, sp, info, STATUS.noPassive);
    const uid = randomToken(16);
    const record: PendingSso = { ...info, createdAt: Math.floor(Date.now() / 1000) };
    await pending.upsert(`saml:${uid}`, record, ctx.config.ttl.interaction);
    return signIn.begin(req, reply, {
      next: { returnTo: `${prefix}/saml/continue/${uid}` },
      clientName: sp.name ?? sp.entityId,
      need,
    });
  }

  app.get<{ Querystring: SamlParams }>(
    '/saml/sso',
    { schema: { querystring: messageSchema('query') } },
    (req, reply) => sso(req, reply, incoming(req, 'redirect', req.query)),
  );
  app.post<{ Body: SamlParams }>('/saml/sso', { schema: { body: messageSchema('body') } }, (req, reply) =>
    sso(req, reply, incoming(req, 'post', req.body)),
  );

  app.get<{ Params: { uid: string } }>(
    '/saml/continue/:uid',
    { schema: { params: { type: 'object', properties: { uid: { type: 'string', maxLength: 64 } } } } },
    async (req, reply) => {
      const key = `saml:${req.params.uid}`;
      const record = (await pending.find(key)) as PendingSso | undefined;
      const acr = requiredClass(record?.requestedAuthnContext);
      const session = await signIn.check(req, {
        ...(record?.forceAuthn ? { authenticatedSince: record.createdAt } : {}),
        ...(acr !== undefined && acr !== 'impossible' ? { acr: [acr] } : {}),
      });
      if (!record || (!session.ok && session.unmet === 'session') || !(await pending.consume(key)))
        throw new SamlRequestError(
          'This sign-in has expired. Go back to the application and start again.',
          'expired',
        );
      const sp = await sps.find(record.spEntityId);
      // Re-checked: the registration may have changed while the user was signing in.
      if (!sp?.acsUrls.includes(record.acsUrl))
        throw new SamlRequestError('The application is no longer registered.', 'unknown_sp');
      // The user could not reach the class the SP asked for: the SP hears it, as SAML says.
      if (!session.ok && session.unmet === 'acr')
        return status(
          reply,
          sp,
          record,
          STATUS.noAuthnContext,
          'The requested authentication context was not met.',
        );
      if (!session.ok) throw new SamlRequestError('A fresh sign-in was required.', 'login_required');
      return login(req, reply, sp, record, session.auth);
    },
  );

  function nameIdFor(
    format: NameIdFormatName,
    account: { sub: string; email?: string },
    sp: SamlSp,
    salt: Buffer,
  ): string | undefined {
    if (format === 'persistent') return pairwiseId(salt, sp.entityId, account.sub);
    if (format === 'transient') return samlId();
    return account.email;
  }

  async function login(
    req: FastifyRequest,
    reply: FastifyReply,
    sp: SamlSp,
    info: AuthnRequestInfo,
    session: AuthContext,
  ) {
    const account = await ctx.accounts.find(session.accountId);
    if (!account) throw new SamlRequestError('Your account is no longer available.', 'login_required');
    const format = info.nameIdFormat ?? sp.nameIdFormat;
    const salt = await certs.pairwiseSalt();
    const value = nameIdFor(format, account, sp, salt);
    if (value === undefined)
      return status(reply, sp, info, STATUS.invalidNameIdPolicy, 'No value for the requested NameID format.');
    // What the sign-in really was, in the terms the SP asked for (authn-context.ts).
    const authnContext = classRefFor(
      session,
      info.requestedAuthnContext,
      ctx.config.issuer.startsWith('https:'),
    );
    if (authnContext === undefined)
      return status(
        reply,
        sp,
        info,
        STATUS.noAuthnContext,
        'The requested authentication context was not met.',
      );
    const signer = await certs.signer(sp.signatureAlgorithm);
    const cookie = req.cookies[SESSION_COOKIE] ?? '';
    const xml = await signedLoginResponse(
      {
        idpEntityId: ep.entityId,
        spEntityId: sp.entityId,
        acsUrl: info.acsUrl,
        inResponseTo: info.id,
        nameId: { format, value },
        account,
        authTime: session.authTime,
        // Derived from the session and the SP: what binds this SP's LogoutRequest to the session.
        sessionIndex: sessionIndexFor(salt, session.sid ?? cookie, sp.entityId),
        authnContext,
        now: Date.now(),
        lifetime: ctx.config.saml.assertionLifetime,
      },
      signer,
      sp.sign,
    );
    // This SP now takes part in the session: its signed LogoutRequest may end it (slo.ts).
    if (session.sid !== undefined) await rememberSessionSp(ctx, session.sid, account.sub, sp.entityId);
    // Who and how, never the response itself.
    req.log.info(
      { sp: sp.entityId, alg: signer.alg, kid: signer.kid, sign: sp.sign },
      'saml response issued',
    );
    return sendPostForm(reply, info.acsUrl, {
      SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'),
      RelayState: info.relayState,
    });
  }

  async function status(
    reply: FastifyReply,
    sp: SamlSp,
    info: AuthnRequestInfo,
    sub: string,
    message?: string,
  ) {
    const signer = await certs.signer(sp.signatureAlgorithm);
    const xml = await signedStatusResponse(
      { idpEntityId: ep.entityId, destination: info.acsUrl, inResponseTo: info.id, now: Date.now() },
      signer,
      STATUS.responder,
      sub,
      message,
    );
    return sendPostForm(reply, info.acsUrl, {
      SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'),
      RelayState: info.relayState,
    });
  }

  // ---- SLO (slo.ts) --------------------------------------------------------------------------

  const logout = new SamlLogout(ctx, certs, sps, ep);
  logout.register(app);
  app.get<{ Querystring: SamlParams }>(
    '/saml/slo',
    { schema: { querystring: messageSchema('query') } },
    (req, reply) => logout.handle(req, reply, incoming(req, 'redirect', req.query)),
  );
  app.post<{ Body: SamlParams }>('/saml/slo', { schema: { body: messageSchema('body') } }, (req, reply) =>
    logout.handle(req, reply, incoming(req, 'post', req.body)),
  );
}
