/**
 * Dynamic client registration (RFC 7591) and its management protocol (RFC 7592). Off unless
 * `registration.mode` is `open` (anyone may register) or `token` (an initial access token is
 * needed). Metadata goes through exactly the validation `pqid clients add` uses
 * (clients/clients.ts): redirect URIs, algorithms from the @pqid/jose registry, `jwks` (AKP
 * keys for ML-DSA and composites) or `jwks_uri`, DPoP/PAR/JAR/logout settings.
 *
 * The registration access token is random and stored only as its SHA-256 digest on the client;
 * GET/PUT/DELETE /register/:client_id need it. A wrong token and an unknown client get the same
 * answer, so client ids cannot be probed.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Client, ClientError, type ClientInput, describeClient } from '../clients/clients.ts';
import { registerClient, replaceClient } from '../clients/register.ts';
import type { IdpContext } from '../context.ts';
import { hashGeneratedSecret, randomToken, verifySecret } from '../crypto/secrets.ts';
import { jsonErrorHandler, OAuthError } from './shared/errors.ts';

/** Assigned by the server: a registration request cannot choose them (RFC 7591 §3.2.1). */
const SERVER_FIELDS = [
  'client_id',
  'client_secret',
  'client_id_issued_at',
  'client_secret_expires_at',
  'registration_access_token',
  'registration_client_uri',
];

export const registrationUrl = (issuer: string) => `${issuer}/register`;

const bearer = (req: FastifyRequest): string | undefined => {
  const m = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
};

const invalidToken = (description: string) =>
  new OAuthError('invalid_token', description, 401, {
    'www-authenticate': `Bearer error="invalid_token", error_description="${description}"`,
  });

/** RFC 7591 §3.2.2: a bad redirect URI has its own code, every other field invalid_client_metadata. */
function metadataError(e: ClientError): OAuthError {
  const redirect = e.field === 'redirect_uris';
  return new OAuthError(redirect ? 'invalid_redirect_uri' : 'invalid_client_metadata', e.message);
}

function jsonBody(req: FastifyRequest): Record<string, unknown> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
    throw new OAuthError('invalid_client_metadata', 'client metadata must be sent as application/json');
  const body = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new OAuthError('invalid_client_metadata', 'client metadata must be a JSON object');
  return body as Record<string, unknown>;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * What an anonymous registrant may not ask for. client_credentials tokens have no user behind
 * them: their scope is whatever the client's metadata says, and in open mode the registrant
 * writes that metadata, so it could mint tokens for any configured resource server with any
 * scope it accepts. RFC 7591 §2 lets the server refuse such metadata; machine clients come from
 * `pqid clients add` or `token` mode.
 */
function refuseInOpenMode(metadata: Record<string, unknown>): void {
  const grants = metadata.grant_types;
  if (Array.isArray(grants) && grants.includes('client_credentials'))
    throw new OAuthError(
      'invalid_client_metadata',
      'open registration cannot grant client_credentials: ask the operator (registration.mode token)',
    );
}

export async function registrationRoutes(app: FastifyInstance, { ctx }: { ctx: IdpContext }): Promise<void> {
  const { mode, initialAccessToken } = ctx.config.registration;
  if (mode === 'off') return;
  app.setErrorHandler(jsonErrorHandler);
  const base = registrationUrl(ctx.config.issuer);
  const expected = initialAccessToken === undefined ? undefined : digest(initialAccessToken);

  /** The client as RFC 7591 §3.2.1 answers it: metadata plus the server-assigned members. */
  function answer(client: Client, extra: { clientSecret?: string; registrationAccessToken?: string }) {
    const { client_id_issued_at, ...meta } = describeClient(client);
    return {
      ...meta,
      ...(client_id_issued_at !== undefined ? { client_id_issued_at } : {}),
      ...(extra.clientSecret !== undefined ? { client_secret: extra.clientSecret } : {}),
      ...(client.client_secret_hash !== undefined ? { client_secret_expires_at: 0 } : {}),
      ...(extra.registrationAccessToken !== undefined
        ? { registration_access_token: extra.registrationAccessToken }
        : {}),
      registration_client_uri: `${base}/${encodeURIComponent(client.client_id)}`,
    };
  }

  const noStore = (reply: FastifyReply) => reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });

  app.post('/register', async (req, reply) => {
    if (expected !== undefined) {
      const given = bearer(req);
      // Digests of equal length: the comparison takes the same time whatever was sent.
      if (given === undefined || !timingSafeEqual(digest(given), expected))
        throw invalidToken('registration needs a valid initial access token');
    }
    const body = jsonBody(req);
    if (mode === 'open') refuseInOpenMode(body);
    const metadata = Object.fromEntries(
      Object.entries(body).filter(([k]) => !SERVER_FIELDS.includes(k)),
    ) as unknown as ClientInput;
    const registrationAccessToken = randomToken();
    let result: Awaited<ReturnType<typeof registerClient>>;
    try {
      result = await registerClient(ctx, metadata, {
        registration_access_token_hash: hashGeneratedSecret(registrationAccessToken),
        client_id_issued_at: Math.floor(Date.now() / 1000),
      });
    } catch (e) {
      if (e instanceof ClientError) throw metadataError(e);
      throw e;
    }
    req.log.info({ clientId: result.client.client_id }, 'client registered dynamically');
    return noStore(reply)
      .code(201)
      .send(
        answer(result.client, {
          registrationAccessToken,
          ...(result.clientSecret !== undefined ? { clientSecret: result.clientSecret } : {}),
        }),
      );
  });

  const params = {
    type: 'object',
    required: ['clientId'],
    properties: { clientId: { type: 'string', maxLength: 256 } },
  } as const;

  /** The client this registration access token manages; the same refusal for every mismatch. */
  async function managed(req: FastifyRequest<{ Params: { clientId: string } }>): Promise<Client> {
    const token = bearer(req);
    const client = await ctx.clients.find(req.params.clientId);
    const ok = await verifySecret(token ?? '', client?.registration_access_token_hash ?? 'sha256$');
    if (!client || token === undefined || !ok)
      throw invalidToken('the registration access token is not valid for this client');
    return client;
  }

  app.get<{ Params: { clientId: string } }>(
    '/register/:clientId',
    { schema: { params } },
    async (req, reply) => noStore(reply).send(answer(await managed(req), {})),
  );

  app.put<{ Params: { clientId: string } }>(
    '/register/:clientId',
    { schema: { params } },
    async (req, reply) => {
      const existing = await managed(req);
      const body = jsonBody(req);
      if (mode === 'open') refuseInOpenMode(body);
      // RFC 7592 §2.2: the body carries the client_id, and it must be this one.
      if (body.client_id !== existing.client_id)
        throw new OAuthError('invalid_client_metadata', 'client_id must be present and match the client');
      const metadata = Object.fromEntries(
        Object.entries(body).filter(([k]) => !SERVER_FIELDS.includes(k) || k === 'client_secret'),
      ) as unknown as ClientInput;
      let result: Awaited<ReturnType<typeof replaceClient>>;
      try {
        result = await replaceClient(ctx, existing, metadata);
      } catch (e) {
        if (e instanceof ClientError) throw metadataError(e);
        throw e;
      }
      req.log.info({ clientId: existing.client_id }, 'client metadata replaced');
      return noStore(reply).send(
        answer(result.client, result.clientSecret !== undefined ? { clientSecret: result.clientSecret } : {}),
      );
    },
  );

  app.delete<{ Params: { clientId: string } }>(
    '/register/:clientId',
    { schema: { params } },
    async (req, reply) => {
      const client = await managed(req);
      await ctx.clients.remove(client.client_id);
      req.log.info({ clientId: client.client_id }, 'client deregistered');
      return noStore(reply).code(204).send();
    },
  );
}
