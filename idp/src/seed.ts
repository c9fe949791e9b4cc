/** First-start seeding: the demo user and client, only when absent, so restarts keep them as they are. */
import type { Client } from './clients/clients.ts';
import type { IdpContext } from './context.ts';
import { withLock } from './storage/lock.ts';

export interface SeedResult {
  createdUser: boolean;
  createdClient: boolean;
  client?: Client;
}

export async function seedDemo(ctx: IdpContext): Promise<SeedResult> {
  const demo = ctx.config.demo;
  if (!demo.enabled) return { createdUser: false, createdClient: false };
  // Instances starting together on an empty shared database: one seeds, the others find it.
  return withLock(ctx.storage.adapter('Lock'), 'seed:demo', () => seed(ctx));
}

async function seed(ctx: IdpContext): Promise<SeedResult> {
  const demo = ctx.config.demo;
  let createdUser = false;
  if (!(await ctx.accounts.findByUsername(demo.username))) {
    await ctx.accounts.create({
      username: demo.username,
      password: demo.password,
      name: 'Demo User',
      email: 'demo@example.com',
      emailVerified: true,
    });
    createdUser = true;
  }
  let client = await ctx.clients.find(demo.clientId);
  let createdClient = false;
  if (!client) {
    ({ client } = await ctx.clients.register({
      client_id: demo.clientId,
      client_secret: demo.clientSecret,
      client_name: 'pqid demo client',
      token_endpoint_auth_method: 'client_secret_basic',
      redirect_uris: [demo.redirectUri],
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
      id_token_signed_response_alg: demo.idTokenSignedResponseAlg,
    }));
    createdClient = true;
  }
  return { createdUser, createdClient, client };
}
