/** Delivering an authorization response: a 303 with a query (default) or a form_post page. */
import type { FastifyReply } from 'fastify';
import { redirect303, sendPage } from '../../ui/html.ts';
import { AUTO_SUBMIT, formPostPage } from '../../ui/pages.ts';
import { redirectWith } from '../shared/http.ts';
import type { AuthRequest, ResponseMode } from './request.ts';

export function respond(
  reply: FastifyReply,
  redirectUri: string,
  mode: ResponseMode | undefined,
  params: Record<string, string | undefined>,
): FastifyReply {
  if (mode !== 'form_post') return redirect303(reply, redirectWith(redirectUri, params));
  // form-action must name the client's origin; the auto-submit script is allowed by hash only.
  return sendPage(
    reply,
    200,
    formPostPage(redirectUri, params),
    [new URL(redirectUri).origin],
    [AUTO_SUBMIT.hash],
  );
}

/** The response to a validated request: its `state`, and `iss` (RFC 9207) against mix-up attacks. */
export function answer(
  reply: FastifyReply,
  issuer: string,
  request: AuthRequest,
  params: Record<string, string | undefined>,
): FastifyReply {
  return respond(reply, request.redirectUri, request.responseMode, {
    ...params,
    state: request.state,
    iss: issuer,
  });
}
