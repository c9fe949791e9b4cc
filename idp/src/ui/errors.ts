/**
 * Error pages for the HTML routes (authorization, sign-in, logout, SAML): a storage outage is a
 * 503 with Retry-After, bad input a 400 page, and only genuine faults a logged 500.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isSignerOutage, SIGNER_RETRY_AFTER } from '../keys/custody.ts';
import { isStorageUnavailable } from '../storage/errors.ts';
import { sendPage } from './html.ts';
import { errorPage } from './pages.ts';

/** A 503 page during a storage or signer (KMS/HSM) outage; undefined for any other error. */
export function outagePage(err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  if (isSignerOutage(err)) {
    req.log.warn({ code: err.code, reason: err.message }, 'signer unavailable');
    reply.header('retry-after', String(SIGNER_RETRY_AFTER));
  } else if (isStorageUnavailable(err)) {
    req.log.warn({ code: err.code }, 'storage unavailable');
    reply.header('retry-after', String(err.retryAfter));
  } else return undefined;
  return sendPage(
    reply,
    503,
    errorPage(
      'Temporarily unavailable',
      'The service is temporarily unavailable. Please try again shortly.',
      'temporarily_unavailable',
    ),
  );
}

/**
 * An error handler for routes that answer a browser with pages and must never redirect on bad
 * input (the redirect target may not be verified yet). `what` names the failure in the log.
 */
export function pageErrorHandler(what: string) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const outage = outagePage(err, req, reply);
    if (outage) return outage;
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 500) req.log.error({ err }, what);
    const clientStatus = Math.min(status, 500);
    const message =
      clientStatus === 500
        ? 'Something went wrong on our side. Please try again.'
        : 'The request is malformed.';
    return sendPage(
      reply,
      clientStatus,
      errorPage('Invalid request', message, clientStatus === 500 ? 'server_error' : 'invalid_request'),
    );
  };
}
