/**
 * An RP-initiated logout request (OpenID Connect RP-Initiated Logout 1.0 §2): a `client_id` sent
 * with an `id_token_hint` must be the client the hint was issued to, and a
 * `post_logout_redirect_uri` must exactly match one that client registered (no open redirector).
 */
import type { Client } from '../../clients/clients.ts';
import type { IdpContext } from '../../context.ts';
import { type Hint, LogoutError, verifyHint } from './hint.ts';

export type LogoutParams = Partial<Record<string, string>>;

/** Where the user goes once signed out, and for which client. */
export interface LogoutTarget {
  clientId?: string;
  postLogoutRedirectUri?: string;
  state?: string;
}

export interface LogoutRequest {
  client?: Client;
  hint?: Hint;
  target: LogoutTarget;
}

/** The checked request; a LogoutError (shown to the user) when it is refused. */
export async function checkLogoutRequest(ctx: IdpContext, params: LogoutParams): Promise<LogoutRequest> {
  const hint = params.id_token_hint ? await verifyHint(ctx, params.id_token_hint) : undefined;
  if (hint && params.client_id && params.client_id !== hint.aud)
    throw new LogoutError('client_id does not match the id_token_hint.');
  const clientId = hint?.aud ?? params.client_id;
  const client = clientId ? await ctx.clients.find(clientId) : undefined;
  if (clientId && !client) throw new LogoutError('The application is not registered with this provider.');
  const redirect = params.post_logout_redirect_uri;
  if (redirect !== undefined) {
    if (!client) throw new LogoutError('post_logout_redirect_uri needs an id_token_hint or client_id.');
    if (!(client.post_logout_redirect_uris ?? []).includes(redirect))
      throw new LogoutError('The post_logout_redirect_uri is not registered for this application.');
  }
  const target: LogoutTarget = {
    ...(client ? { clientId: client.client_id } : {}),
    ...(redirect ? { postLogoutRedirectUri: redirect } : {}),
    ...(params.state !== undefined ? { state: params.state } : {}),
  };
  return { ...(client ? { client } : {}), ...(hint ? { hint } : {}), target };
}
