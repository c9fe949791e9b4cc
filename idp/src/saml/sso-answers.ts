/**
 * What the IdP answers an accepted AuthnRequest with, always over HTTP-POST to the ACS URL the
 * request named and the registration holds: a signed Response with the signed-in user's
 * Assertion, or a signed status Response saying why not (NoPassive, InvalidNameIDPolicy,
 * NoAuthnContext).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../accounts/accounts.ts';
import { type AuthContext, acrAtLeast } from '../signin/auth-context.ts';
import { SESSION_COOKIE } from '../signin/session.ts';
import { classRefFor, requiredClassFor } from './authn-context.ts';
import type { AuthnRequestInfo } from './authn-request.ts';
import { SamlRequestError, sendPostForm } from './bindings.ts';
import { pairwiseId } from './certificates.ts';
import { type NameIdFormatName, STATUS } from './constants.ts';
import type { SamlDeps } from './deps.ts';
import { signedLoginResponse, signedStatusResponse } from './response.ts';
import { rememberSessionSp } from './session-sps.ts';
import { sessionIndexFor } from './slo.ts';
import type { SamlSp } from './sps.ts';
import { samlId } from './xml.ts';

function nameIdFor(format: NameIdFormatName, account: Account, sp: SamlSp, salt: Buffer): string | undefined {
  if (format === 'persistent') return pairwiseId(salt, sp.entityId, account.sub);
  if (format === 'transient') return samlId();
  return account.email;
}

/** The signed-in user's Assertion for `sp`, in a Response signed as `sp` registered. */
export async function sendLoginResponse(
  deps: SamlDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  sp: SamlSp,
  info: AuthnRequestInfo,
  session: AuthContext,
): Promise<FastifyReply> {
  const { ctx, certs, ep } = deps;
  const account = await ctx.accounts.find(session.accountId);
  if (!account) throw new SamlRequestError('Your account is no longer available.', 'login_required');
  const status = (sub: string, message?: string) => sendStatusResponse(deps, reply, sp, info, sub, message);
  const format = info.nameIdFormat ?? sp.nameIdFormat;
  const salt = await certs.pairwiseSalt();
  const value = nameIdFor(format, account, sp, salt);
  if (value === undefined)
    return status(STATUS.invalidNameIdPolicy, 'No value for the requested NameID format.');
  // What the sign-in really was, in the terms the SP asked for (authn-context.ts).
  const authnContext = classRefFor(
    session,
    info.requestedAuthnContext,
    ctx.config.issuer.startsWith('https:'),
  );
  // The SP's floor, checked here too: whatever path led to this answer, no weaker assertion.
  const floor = requiredClassFor(undefined, sp.minimumAuthnContext);
  if (authnContext === undefined || (floor !== undefined && !acrAtLeast(session.acr, floor)))
    return status(STATUS.noAuthnContext, 'The requested authentication context was not met.');
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
    sp,
  );
  // This SP now takes part in the session: its signed LogoutRequest may end it (slo.ts).
  if (session.sid !== undefined) await rememberSessionSp(ctx, session.sid, account.sub, sp.entityId);
  // Who and how, never the response itself.
  req.log.info(
    {
      sp: sp.entityId,
      alg: signer.alg,
      kid: signer.kid,
      sign: sp.sign,
      keyInfo: sp.keyInfo ?? 'certificate',
    },
    'saml response issued',
  );
  return postResponse(reply, info, xml);
}

/** A signed Response with status Responder and the second-level status `sub`. */
export async function sendStatusResponse(
  deps: SamlDeps,
  reply: FastifyReply,
  sp: SamlSp,
  info: AuthnRequestInfo,
  sub: string,
  message?: string,
): Promise<FastifyReply> {
  const signer = await deps.certs.signer(sp.signatureAlgorithm);
  const xml = await signedStatusResponse(
    { idpEntityId: deps.ep.entityId, destination: info.acsUrl, inResponseTo: info.id, now: Date.now() },
    signer,
    sp,
    STATUS.responder,
    sub,
    message,
  );
  return postResponse(reply, info, xml);
}

const postResponse = (reply: FastifyReply, info: AuthnRequestInfo, xml: string) =>
  sendPostForm(reply, info.acsUrl, {
    SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'),
    RelayState: info.relayState,
  });
