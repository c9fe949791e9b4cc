/**
 * The client metadata of a registration request (RFC 7591 §2, §3.1) or of an update
 * (RFC 7592 §2.2). It goes through exactly the validation `pqid clients add` uses
 * (clients/clients.ts); what that validation refuses is answered with RFC 7591's codes.
 */
import type { FastifyRequest } from 'fastify';
import { ClientError, type ClientInput } from '../../clients/clients.ts';
import { OAuthError } from '../shared/errors.ts';

/** Assigned by the server: a registration request cannot choose them (RFC 7591 §3.2.1). */
const SERVER_FIELDS = [
  'client_id',
  'client_secret',
  'client_id_issued_at',
  'client_secret_expires_at',
  'registration_access_token',
  'registration_client_uri',
];

export function jsonBody(req: FastifyRequest): Record<string, unknown> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
    throw new OAuthError('invalid_client_metadata', 'client metadata must be sent as application/json');
  const body = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new OAuthError('invalid_client_metadata', 'client metadata must be a JSON object');
  return body as Record<string, unknown>;
}

/**
 * The members a request may set: all but the server-assigned ones, except those in `keep` (an
 * update may send its client_secret back). The clients module validates every member.
 */
export function clientMetadata(body: Record<string, unknown>, keep: readonly string[] = []): ClientInput {
  return Object.fromEntries(
    Object.entries(body).filter(([k]) => !SERVER_FIELDS.includes(k) || keep.includes(k)),
  ) as unknown as ClientInput;
}

/**
 * What an anonymous registrant may not ask for. client_credentials tokens have no user behind
 * them: their scope is whatever the client's metadata says, and in open mode the registrant
 * writes that metadata, so it could mint tokens for any configured resource server with any
 * scope it accepts. RFC 7591 §2 lets the server refuse such metadata; machine clients come from
 * `pqid clients add` or `token` mode.
 */
export function refuseInOpenMode(metadata: Record<string, unknown>): void {
  const grants = metadata.grant_types;
  if (Array.isArray(grants) && grants.includes('client_credentials'))
    throw new OAuthError(
      'invalid_client_metadata',
      'open registration cannot grant client_credentials: ask the operator (registration.mode token)',
    );
}

/** RFC 7591 §3.2.2: a bad redirect URI has its own code, every other field invalid_client_metadata. */
export async function refusingBadMetadata<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (!(e instanceof ClientError)) throw e;
    const redirect = e.field === 'redirect_uris';
    throw new OAuthError(redirect ? 'invalid_redirect_uri' : 'invalid_client_metadata', e.message);
  }
}
