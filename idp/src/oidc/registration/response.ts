/** The client information response (RFC 7591 §3.2.1, RFC 7592 §3): metadata plus what the server assigned. */
import { type Client, describeClient } from '../../clients/clients.ts';

export const registrationUrl = (issuer: string) => `${issuer}/register`;

/** What only this answer reveals: a new client secret, a new registration access token. */
export interface IssuedCredentials {
  clientSecret?: string;
  registrationAccessToken?: string;
}

export function clientInformation(issuer: string, client: Client, issued: IssuedCredentials = {}) {
  const { client_id_issued_at, ...meta } = describeClient(client);
  return {
    ...meta,
    ...(client_id_issued_at !== undefined ? { client_id_issued_at } : {}),
    ...(issued.clientSecret !== undefined ? { client_secret: issued.clientSecret } : {}),
    ...(client.client_secret_hash !== undefined ? { client_secret_expires_at: 0 } : {}),
    ...(issued.registrationAccessToken !== undefined
      ? { registration_access_token: issued.registrationAccessToken }
      : {}),
    registration_client_uri: `${registrationUrl(issuer)}/${encodeURIComponent(client.client_id)}`,
  };
}
