/**
 * GET|POST /saml/sso: an AuthnRequest (HTTP-Redirect | HTTP-POST). A session that meets what
 * the SP asks gets its Response at once; otherwise the request is parked and the browser signs
 * in, coming back at /saml/continue/:uid (continue.ts). What cannot be met is answered to the
 * SP with a status.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomToken } from '../../crypto/secrets.ts';
import type { SignInNeed } from '../../signin/auth-context.ts';
import { requiredClassFor } from '../authn-context.ts';
import { readAuthnRequest, unsupportedNameIdFormat } from '../authn-request.ts';
import { STATUS } from '../constants.ts';
import type { SamlDeps } from '../deps.ts';
import { type PendingSso, pendingSsoKey, pendingSsoOf } from '../parked.ts';
import { acceptSpRequest, type IncomingMessage } from '../requests.ts';
import { sendLoginResponse, sendStatusResponse } from '../sso-answers.ts';
import { messageRoutes } from './message.ts';

export function ssoRoutes(app: FastifyInstance, deps: SamlDeps): void {
  messageRoutes(app, '/saml/sso', (req, reply, msg) => sso(deps, req, reply, msg));
}

async function sso(
  deps: SamlDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  msg: IncomingMessage,
): Promise<FastifyReply> {
  const { ctx, signIn } = deps;
  const accepted = await acceptSpRequest(ctx, deps.sps, msg, 'AuthnRequest', deps.ep.sso);
  const info = readAuthnRequest(accepted);
  const { sp } = accepted;
  const status = (sub: string, message?: string) => sendStatusResponse(deps, reply, sp, info, sub, message);
  if (unsupportedNameIdFormat(accepted))
    return status(STATUS.invalidNameIdPolicy, 'The requested NameID format is not supported.');
  const acr = requiredClassFor(info.requestedAuthnContext, sp.minimumAuthnContext);
  if (acr === 'impossible')
    return status(STATUS.noAuthnContext, 'The requested authentication context is not supported.');
  const need: SignInNeed = {
    reauthenticate: info.forceAuthn,
    ...(acr !== undefined ? { acr: [acr] } : {}),
  };
  const session = await signIn.check(req, need);
  if (session.ok) return sendLoginResponse(deps, req, reply, sp, info, session.auth);
  if (info.isPassive) return status(STATUS.noPassive);
  const uid = randomToken(16);
  const record: PendingSso = { ...info, createdAt: Math.floor(Date.now() / 1000) };
  await pendingSsoOf(ctx).upsert(pendingSsoKey(uid), record, ctx.config.ttl.interaction);
  return signIn.begin(req, reply, {
    next: { returnTo: `${deps.prefix}/saml/continue/${uid}` },
    clientName: sp.name ?? sp.entityId,
    need,
  });
}
