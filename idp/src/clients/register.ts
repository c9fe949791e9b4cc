/**
 * Registering a client in a running provider: validated metadata stored (Clients), then a
 * signing key published for every algorithm its tokens may use, before it can receive one.
 * `pqid clients add`, dynamic registration (RFC 7591/7592) and tests all come through here.
 */
import type { Config } from '../config/index.ts';
import type { KeyManager } from '../keys/key-manager.ts';
import { resolveAlg } from '../keys/placement.ts';
import { accessTokenAlgOf, type Client, type ClientInput, type Clients, signingAlgs } from './clients.ts';

/** What registering needs of the provider (an IdpContext has it). */
interface RegistrationContext {
  config: Pick<Config, 'defaultSigningAlg' | 'accessTokenSigningAlg'>;
  clients: Clients;
  keys: KeyManager;
}

type RegistrationFields = Pick<Client, 'registration_access_token_hash' | 'client_id_issued_at'>;

/** The algorithms a client's tokens may be signed with under the current placement. */
export function clientKeyAlgs(ctx: Omit<RegistrationContext, 'clients'>, client: Client): string[] {
  const place = (purpose: 'id_token' | 'access_token', alg: string) =>
    resolveAlg(ctx.keys.placement, purpose, alg, ctx.config.defaultSigningAlg);
  const jwtAccessTokens = (client.access_token_format ?? 'reference') !== 'reference';
  return [
    ...new Set([
      ...signingAlgs(client, ctx.config.accessTokenSigningAlg),
      place('id_token', client.id_token_signed_response_alg),
      ...(jwtAccessTokens
        ? [place('access_token', accessTokenAlgOf(client, ctx.config.accessTokenSigningAlg))]
        : []),
    ]),
  ];
}

/** The keys a client's tokens need under the current placement, created if missing. */
export async function ensureClientKeys(ctx: RegistrationContext, client: Client): Promise<void> {
  await ctx.keys.ensure(clientKeyAlgs(ctx, client));
}

/** Register a client and publish its signing keys before the client can receive a token. */
export async function registerClient(
  ctx: RegistrationContext,
  input: ClientInput,
  extra: RegistrationFields = {},
): Promise<{ client: Client; clientSecret?: string }> {
  const result = await ctx.clients.register(input, extra);
  await ensureClientKeys(ctx, result.client);
  return result;
}

/** Replace a client's metadata (RFC 7592 PUT), publishing any key it newly needs. */
export async function replaceClient(
  ctx: RegistrationContext,
  existing: Client,
  input: ClientInput,
): Promise<{ client: Client; clientSecret?: string }> {
  const result = await ctx.clients.replace(existing, input);
  await ensureClientKeys(ctx, result.client);
  return result;
}
