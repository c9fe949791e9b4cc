/**
 * The authorization endpoint. A request is validated here; signing in (and the consent page) is
 * the sign-in module's job: a request that needs a login is handed to it with the validated
 * parameters, and comes back through the `oidc` resumer once the user has signed in
 * (authorization/resume.ts). A session below the required authentication class is stepped up
 * first (authorization/acr.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Client } from '../clients/clients.ts';
import type { IdpContext } from '../context.ts';
import { pageErrorHandler } from '../http/errors.ts';
import { sendPage } from '../ui/html.ts';
import { errorPage } from '../ui/pages.ts';
import { requiredAcr, UNMET } from './authorization/acr.ts';
import type { AuthorizeOutcome, AuthorizeParams, AuthRequest } from './authorization/request.ts';
import { answer, respond } from './authorization/respond.ts';
import { afterLogin, type Flow, formTargets, registerResumer } from './authorization/resume.ts';
import { resolveAuthorizeRequest } from './authorization/sources.ts';
import { getAndPost, RESOURCE_SCHEMA } from './shared/http.ts';

const PARAM_NAMES = [
  'client_id',
  'redirect_uri',
  'response_type',
  'response_mode',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'prompt',
  'max_age',
  'login_hint',
  'acr_values',
  'claims',
  'request_uri',
  'dpop_jkt',
];
// Each parameter at most once and of bounded size (RFC 6749 §3.1); unknown ones are ignored.
// `resource` may repeat (RFC 8707); a request object signed with ML-DSA-87 is ~7 KB.
const paramsSchema = {
  type: 'object',
  properties: {
    ...Object.fromEntries(PARAM_NAMES.map((n) => [n, { type: 'string', maxLength: 4096 }])),
    request: { type: 'string', maxLength: 32768 },
    resource: RESOURCE_SCHEMA,
  },
} as const;

/** A request that could not be validated: an error page, or an error sent to the client. */
function refuse(
  ctx: IdpContext,
  reply: FastifyReply,
  outcome: Exclude<AuthorizeOutcome, { kind: 'ok' }>,
): FastifyReply {
  if (outcome.kind === 'page')
    return sendPage(
      reply,
      400,
      errorPage('This sign-in request cannot be processed', outcome.description, outcome.error),
    );
  return respond(reply, outcome.redirectUri, outcome.responseMode, {
    error: outcome.error,
    error_description: outcome.description,
    state: outcome.state,
    iss: ctx.config.issuer,
  });
}

/** A valid request: on with the session if it will do, else to the sign-in (or `login_required`). */
async function authenticate(
  { ctx, signIn }: Flow,
  req: FastifyRequest,
  reply: FastifyReply,
  { request, client }: { request: AuthRequest; client: Client },
): Promise<FastifyReply> {
  const acr = requiredAcr(request, client);
  if (acr === 'impossible')
    return answer(reply, ctx.config.issuer, request, {
      error: UNMET,
      error_description: 'none of the requested acr values can be met by this provider',
    });
  if (acr !== undefined) request.requiredAcr = acr;
  const need = {
    reauthenticate: request.prompt.includes('login'),
    ...(request.maxAge !== undefined ? { maxAge: request.maxAge } : {}),
    ...(acr !== undefined ? { acr: [acr] } : {}),
  };
  const session = await signIn.check(req, need);
  if (session.ok) return afterLogin({ ctx, signIn }, reply, request, session.auth);
  if (request.prompt.includes('none'))
    return answer(reply, ctx.config.issuer, request, {
      error: 'login_required',
      error_description:
        session.unmet === 'acr'
          ? 'the session does not meet the required authentication context'
          : 'end-user is not signed in',
    });
  return signIn.begin(req, reply, {
    next: { resume: 'oidc', state: request },
    clientName: client.client_name ?? request.clientId,
    formTargets: formTargets(request),
    need,
    ...(request.loginHint !== undefined ? { loginHint: request.loginHint } : {}),
  });
}

export async function authorizeRoutes(app: FastifyInstance, flow: Flow): Promise<void> {
  // Nothing on these routes may redirect on bad input before the redirect_uri is verified.
  app.setErrorHandler(pageErrorHandler('authorization endpoint failure'));
  registerResumer(flow);

  async function authorize(req: FastifyRequest, reply: FastifyReply, params: AuthorizeParams) {
    // Plain parameters, a signed request object (JAR) or a pushed request_uri (PAR).
    const outcome = await resolveAuthorizeRequest(flow.ctx, params);
    if (outcome.kind !== 'ok') return refuse(flow.ctx, reply, outcome);
    return authenticate(flow, req, reply, outcome);
  }

  getAndPost<AuthorizeParams>(app, '/authorize', paramsSchema, authorize);
}
