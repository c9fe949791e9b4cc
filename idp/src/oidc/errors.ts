/**
 * OAuth 2.0 error responses (RFC 6749 §5.2, RFC 6750 §3). Every bad input ends as one of these
 * with a 4xx status; only genuine server faults become 500, and those never echo details.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isSignerOutage, SIGNER_RETRY_AFTER } from '../keys/custody.ts';
import { isStorageUnavailable, storageUnavailableResponse } from '../storage/errors.ts';

export class OAuthError extends Error {
  override name = 'OAuthError';
  readonly error: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(error: string, description: string, status = 400, headers: Record<string, string> = {}) {
    super(description);
    this.error = error;
    this.status = status;
    this.headers = headers;
  }
}

/**
 * Text for an `error_description` inside a WWW-Authenticate challenge: RFC 6750 §3 allows
 * printable ASCII without `"` and `\`. Descriptions can echo input (an algorithm name), and a
 * header value outside Latin-1 would make Node throw, so anything else becomes `?`.
 */
export const challengeText = (s: string): string => s.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '?');

export const invalidRequest = (d: string) => new OAuthError('invalid_request', d);
export const invalidGrant = (d: string) => new OAuthError('invalid_grant', d);

export function sendOAuthError(reply: FastifyReply, err: OAuthError): FastifyReply {
  return reply
    .code(err.status)
    .headers({ 'cache-control': 'no-store', ...err.headers })
    .send({ error: err.error, error_description: err.message });
}

/** Error handler for JSON endpoints: schema failures, parser errors and OAuthErrors → OAuth bodies. */
export function jsonErrorHandler(
  err: FastifyError | OAuthError | Error,
  req: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (err instanceof OAuthError) return sendOAuthError(reply, err);
  if (isStorageUnavailable(err)) {
    // A database outage is not a bug: 503 + Retry-After so clients back off and retry.
    req.log.warn({ code: err.code }, 'storage unavailable');
    const r = storageUnavailableResponse(err);
    return reply.code(r.status).headers(r.headers).send(r.body);
  }
  if (isSignerOutage(err)) {
    // A KMS/HSM that cannot sign right now: like a database outage, retry later.
    req.log.warn({ code: err.code, reason: err.message }, 'signer unavailable');
    return sendOAuthError(
      reply,
      new OAuthError('temporarily_unavailable', 'signing is temporarily unavailable', 503, {
        'retry-after': String(SIGNER_RETRY_AFTER),
      }),
    );
  }
  const fe = err as FastifyError;
  if (fe.validation) return sendOAuthError(reply, invalidRequest(`invalid parameters: ${fe.message}`));
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500)
    return sendOAuthError(reply, new OAuthError('invalid_request', fe.message, status));
  req.log.error({ err }, 'unhandled error');
  return sendOAuthError(reply, new OAuthError('server_error', 'internal error', 500));
}
