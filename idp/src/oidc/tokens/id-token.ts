/**
 * The ID token (OIDC Core §2): the one place it is made. Signed with the key for the client's
 * `id_token_signed_response_alg` (which key placement may replace), asynchronously on the signing
 * pool; then, for a client that registered `id_token_encrypted_response_alg`, encrypted to its
 * key — a Nested JWT, signed then encrypted (OIDC Core §10.2). Profile claims stay at userinfo:
 * PQ signatures are large already, so it stays minimal.
 */
import type { Client } from '../../clients/clients.ts';
import type { IdpContext } from '../../context.ts';
import { encryptionOf, encryptSignedJwt, recipientFor } from '../shared/encryption.ts';
import { signToken } from '../shared/signing.ts';

/** What an ID token says about the sign-in behind a grant. */
export interface IdTokenInput {
  accountId: string;
  authTime: number;
  nonce?: string;
  acr?: string;
  amr?: string[];
  sid?: string;
}

export async function signIdToken(ctx: IdpContext, client: Client, input: IdTokenInput): Promise<string> {
  const claims: Record<string, unknown> = { auth_time: input.authTime };
  if (input.nonce !== undefined) claims.nonce = input.nonce;
  // How the user signed in (OIDC Core §2): what the session achieved, never more.
  if (input.acr !== undefined) claims.acr = input.acr;
  if (input.amr !== undefined) claims.amr = input.amr;
  // OIDC Back-Channel / Front-Channel Logout §3: the session the RP can be told about later.
  if (input.sid !== undefined) claims.sid = input.sid;
  const [recipient, signed] = await Promise.all([
    recipientFor(ctx, client, 'id_token'),
    signToken(
      ctx,
      'id_token',
      client.id_token_signed_response_alg,
      claims,
      {
        issuer: ctx.config.issuer,
        subject: input.accountId,
        audience: client.client_id,
        expiresIn: ctx.config.ttl.idToken,
      },
      { encrypted: encryptionOf(client, 'id_token') !== undefined },
    ),
  ]);
  return recipient ? encryptSignedJwt(ctx, 'id_token', signed, recipient) : signed;
}
