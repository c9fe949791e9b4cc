/**
 * The authorization endpoint. A request is validated here; signing in (and the consent page) is
 * the sign-in module's job: a request that needs a login is handed to it with the validated
 * parameters, and comes back through the `oidc` resumer once the user has signed in.
 *
 * Authentication context: `acr_values` and an `acr` claims request name the classes the client
 * accepts; pqid treats them as a requirement, raised to the client's minimum
 * (`default_acr_values`), and a session below it is stepped up (sign-in.ts) before a code is
 * issued. A user who cannot reach it sends the client `unmet_authentication_requirements`
 * (OpenID Connect Core Unmet Authentication Requirements 1.0), as does an essential `acr` claim
 * with no class this provider knows. So a client that demands MFA never gets a token for a
 * password alone. The code carries the session's `amr`, its `auth_time` and the `acr` to report.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Client } from '../clients/clients.ts';
import type { IdpContext } from '../context.ts';
import { pageErrorHandler } from '../http/errors.ts';
import { type AuthContext, acrAtLeast, weakestKnown } from '../signin/auth-context.ts';
import type { SignIn } from '../signin/sign-in.ts';
import { sendPage } from '../ui/html.ts';
import { errorPage } from '../ui/pages.ts';
import { needsConsent, rememberConsent } from './authorization/consent.ts';
import type { AuthorizeParams, AuthRequest } from './authorization/request.ts';
import { respond } from './authorization/respond.ts';
import { resolveAuthorizeRequest } from './authorization/sources.ts';
import { rememberSessionClient } from './logout/session-clients.ts';
import { issueCode } from './tokens/issue.ts';

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
    resource: {
      anyOf: [
        { type: 'string', maxLength: 2048 },
        { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 2048 } },
      ],
    },
  },
} as const;

const UNMET = 'unmet_authentication_requirements';

/**
 * The weakest class the request accepts: the weakest known one it asks for (any would do),
 * raised to the client's minimum. `impossible` for an essential acr claim of unknown classes only.
 */
export function requiredAcr(request: AuthRequest, client: Client): string | undefined | 'impossible' {
  const asked = request.acrClaim?.values ?? request.acrValues;
  let floor = asked ? weakestKnown(asked) : undefined;
  if (asked && floor === undefined && request.acrClaim?.essential && request.acrClaim.values)
    return 'impossible';
  const minimum = client.default_acr_values ? weakestKnown(client.default_acr_values) : undefined;
  if (minimum !== undefined && (floor === undefined || !acrAtLeast(floor, minimum))) floor = minimum;
  return floor;
}

/**
 * The `acr` the ID token reports: with a claims request naming values, the strongest of them the
 * session reaches (OIDC Core §5.5.1.1: it must be one of them); otherwise the class achieved.
 */
export function reportedAcr(request: AuthRequest, auth: AuthContext): string {
  const values = request.acrClaim?.values;
  if (!values) return auth.acr;
  const met = values.filter((v) => acrAtLeast(auth.acr, v));
  return met.sort((a, b) => (acrAtLeast(a, b) ? -1 : 1))[0] ?? auth.acr;
}

export interface AuthorizeOptions {
  ctx: IdpContext;
  signIn: SignIn;
}

export async function authorizeRoutes(
  app: FastifyInstance,
  { ctx, signIn }: AuthorizeOptions,
): Promise<void> {
  // Nothing on these routes may redirect on bad input before the redirect_uri is verified.
  app.setErrorHandler(pageErrorHandler('authorization endpoint failure'));

  const answer = (reply: FastifyReply, request: AuthRequest, params: Record<string, string | undefined>) =>
    // `iss` in every response (RFC 9207) defends clients against mix-up attacks.
    respond(reply, request.redirectUri, request.responseMode, {
      ...params,
      state: request.state,
      iss: ctx.config.issuer,
    });
  // The login and consent pages may redirect straight on to the client.
  const formTargets = (request: AuthRequest) => [new URL(request.redirectUri).origin];

  signIn.register('oidc', {
    signedIn: (reply, auth, state) => afterLogin(reply, state as AuthRequest, auth),
    async consented(reply, allowed, auth, state) {
      const request = state as AuthRequest;
      if (!allowed)
        return answer(reply, request, {
          error: 'access_denied',
          error_description: 'the end-user denied the request',
        });
      await rememberConsent(ctx, auth.accountId, request.clientId, request.scope);
      return finish(reply, request, auth);
    },
    unmet: async (reply, state) =>
      answer(reply, state as AuthRequest, {
        error: UNMET,
        error_description: 'the end-user could not meet the required authentication context',
      }),
  });

  /** Signed in: ask for consent when needed, else issue the code. */
  async function afterLogin(
    reply: FastifyReply,
    request: AuthRequest,
    auth: AuthContext,
  ): Promise<FastifyReply> {
    if (await needsConsent(ctx, request, auth.accountId)) {
      if (request.prompt.includes('none'))
        return answer(reply, request, {
          error: 'consent_required',
          error_description: 'the end-user has not consented',
        });
      const client = await ctx.clients.find(request.clientId);
      return signIn.askConsent(reply, {
        next: { resume: 'oidc', state: request },
        auth,
        clientName: client?.client_name ?? request.clientId,
        scopes: request.scope.split(' ').filter(Boolean),
        ...(request.resources ? { resources: request.resources } : {}),
        formTargets: formTargets(request),
      });
    }
    return finish(reply, request, auth);
  }

  async function finish(reply: FastifyReply, request: AuthRequest, auth: AuthContext): Promise<FastifyReply> {
    // Whatever path led here, no code for a session below the required class.
    if (request.requiredAcr !== undefined && !acrAtLeast(auth.acr, request.requiredAcr))
      return answer(reply, request, {
        error: UNMET,
        error_description: 'the session does not meet the required authentication context',
      });
    // Recorded against the passkey of the sign-in, if any: removing it revokes this grant.
    const grantId = await signIn.passkeys.newGrant(auth);
    if (grantId === undefined)
      return answer(reply, request, { error: 'login_required', error_description: 'the session has ended' });
    const code = await issueCode(ctx, {
      grantId,
      clientId: request.clientId,
      accountId: auth.accountId,
      redirectUri: request.redirectUri,
      scope: request.scope,
      authTime: auth.authTime,
      amr: auth.amr,
      acr: reportedAcr(request, auth),
      ...(request.nonce !== undefined ? { nonce: request.nonce } : {}),
      ...(request.codeChallenge !== undefined ? { codeChallenge: request.codeChallenge } : {}),
      ...(request.resources ? { resources: request.resources } : {}),
      ...(request.dpopJkt !== undefined ? { dpopJkt: request.dpopJkt } : {}),
      ...(auth.sid !== undefined ? { sid: auth.sid } : {}),
    });
    // Remembered so that ending this session can tell the client (back- or front-channel
    // logout); clients with neither logout URI cost no storage round trip here.
    if (auth.sid !== undefined && request.logoutNotice)
      await rememberSessionClient(ctx, auth.sid, auth.accountId, request.clientId);
    return answer(reply, request, { code });
  }

  async function authorize(
    req: FastifyRequest,
    reply: FastifyReply,
    params: AuthorizeParams,
  ): Promise<FastifyReply> {
    // Plain parameters, a signed request object (JAR) or a pushed request_uri (PAR).
    const outcome = await resolveAuthorizeRequest(ctx, params);
    if (outcome.kind === 'page') {
      return sendPage(
        reply,
        400,
        errorPage('This sign-in request cannot be processed', outcome.description, outcome.error),
      );
    }
    if (outcome.kind === 'redirect') {
      return respond(reply, outcome.redirectUri, outcome.responseMode, {
        error: outcome.error,
        error_description: outcome.description,
        state: outcome.state,
        iss: ctx.config.issuer,
      });
    }
    const { request, client } = outcome;
    const acr = requiredAcr(request, client);
    if (acr === 'impossible')
      return answer(reply, request, {
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
    if (session.ok) return afterLogin(reply, request, session.auth);
    if (request.prompt.includes('none')) {
      return answer(reply, request, {
        error: 'login_required',
        error_description:
          session.unmet === 'acr'
            ? 'the session does not meet the required authentication context'
            : 'end-user is not signed in',
      });
    }
    return signIn.begin(req, reply, {
      next: { resume: 'oidc', state: request },
      clientName: client.client_name ?? request.clientId,
      formTargets: formTargets(request),
      need,
      ...(request.loginHint !== undefined ? { loginHint: request.loginHint } : {}),
    });
  }

  app.get('/authorize', { schema: { querystring: paramsSchema } }, (req, reply) =>
    authorize(req, reply, req.query as AuthorizeParams),
  );
  app.post('/authorize', { schema: { body: paramsSchema } }, (req, reply) =>
    authorize(req, reply, (req.body ?? {}) as AuthorizeParams),
  );
}
