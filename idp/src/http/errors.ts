/**
 * The one place an error becomes an answer. `asIdpError` classifies anything thrown (ours as it
 * is, a KMS/HSM signer's failure as an outage, fastify's 4xx as `invalid_request`, everything
 * else a fault); JSON endpoints answer with the OAuth error body (RFC 6749 §5.2), browser
 * endpoints with an HTML page, both from the same status, headers and texts. Outages are 503 with
 * Retry-After, bad input a 4xx, and only genuine faults a logged 500 that never echoes details.
 */
import { SignerFailed } from '@pqid/jose';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  IdpError,
  InternalError,
  OAuthError,
  SignerUnavailable,
  StorageUnavailable,
} from '../errors/index.ts';
import { sendPage } from '../ui/html.ts';
import { errorPage } from '../ui/pages.ts';

/** Any thrown value as an IdpError. */
export function asIdpError(err: unknown): IdpError<string> {
  if (err instanceof IdpError) return err;
  if (err instanceof SignerFailed) return new SignerUnavailable(err.message, { cause: err });
  const fe = err as Partial<FastifyError> | undefined;
  if (fe?.validation) return new OAuthError('invalid_request', `invalid parameters: ${fe.message}`);
  const status = fe?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new OAuthError('invalid_request', fe?.message ?? '', status);
  return new InternalError(err);
}

/** The JSON answer to an error: status, headers and the OAuth error body. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: { error: string; error_description: string };
}

export function errorAnswer(err: unknown): ErrorAnswer {
  const e = asIdpError(err);
  return {
    status: e.status,
    headers: { 'cache-control': 'no-store', ...e.headers },
    body: { error: e.error, error_description: e.description },
  };
}

/** Outages are logged as warnings (they pass), faults as errors with the original thrown value. */
function logError(req: FastifyRequest, err: unknown, e: IdpError<string>, what: string): void {
  if (e instanceof StorageUnavailable) req.log.warn({ code: e.code }, 'storage unavailable');
  else if (e instanceof SignerUnavailable)
    req.log.warn({ code: e.code, reason: e.message }, 'signer unavailable');
  else if (e.status >= 500) req.log.error({ err }, what);
}

export function sendOAuthError(reply: FastifyReply, err: OAuthError): FastifyReply {
  const a = errorAnswer(err);
  return reply.code(a.status).headers(a.headers).send(a.body);
}

/** Error handler for JSON endpoints: every error as an OAuth error body. */
export function jsonErrorHandler(err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const e = asIdpError(err);
  logError(req, err, e, 'unhandled error');
  const a = errorAnswer(e);
  return reply.code(a.status).headers(a.headers).send(a.body);
}

/** What a browser endpoint's error pages say; outages and faults read the same everywhere. */
export interface PageTexts {
  /** Logged with a fault. */
  what: string;
  /** Title of the page for bad input. */
  title?: string;
  /** Text of the page for bad input (its details are never shown: the request is not trusted). */
  malformed?: string;
  /** Answer bad input with 400 whatever its 4xx status was. */
  clamp?: boolean;
  /** Show exposed IdpErrors (e.g. a refused SAML request) with their message, under this title. */
  refused?: string;
}

function outagePageFor(e: IdpError<string>, reply: FastifyReply): FastifyReply {
  reply.headers(e.headers);
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

/** The HTML page for an error on a browser endpoint (which never redirects on bad input). */
export function sendErrorPage(
  err: unknown,
  req: FastifyRequest,
  reply: FastifyReply,
  t: PageTexts,
): FastifyReply {
  const e = asIdpError(err);
  logError(req, err, e, t.what);
  if (e.status === 503) return outagePageFor(e, reply);
  if (e.status >= 500)
    return sendPage(
      reply,
      500,
      errorPage(
        t.title ?? 'Something went wrong',
        'Something went wrong on our side. Please try again.',
        'server_error',
      ),
    );
  if (t.refused !== undefined && e.expose && !(e instanceof OAuthError)) {
    req.log.info({ code: e.code }, `${t.what}: refused`);
    return sendPage(reply, e.status, errorPage(t.refused, e.message, e.code));
  }
  return sendPage(
    reply,
    t.clamp ? 400 : e.status,
    errorPage(t.title ?? 'Invalid request', t.malformed ?? 'The request is malformed.', 'invalid_request'),
  );
}

/** A 503 page during a storage or signer outage; undefined for any other error. */
export function outagePage(err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  const e = asIdpError(err);
  if (e.status !== 503) return undefined;
  logError(req, err, e, 'outage');
  return outagePageFor(e, reply);
}

/** An error handler for routes that answer a browser with pages. */
export function pageErrorHandler(texts: string | PageTexts) {
  const t = typeof texts === 'string' ? { what: texts } : texts;
  return (err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply =>
    sendErrorPage(err, req, reply, t);
}
