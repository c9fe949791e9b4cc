/**
 * The client attribute table: each member declared once, and what derives from it — the parser
 * (who may set what), the record (which members, in which order), the public view, the types.
 */
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import { CLIENT_ATTRIBUTES, type ClientMember, MEMBERS } from '../src/clients/attributes.ts';
import {
  type AccessTokenFormat,
  type Client,
  type ClientInput,
  Clients,
  describeClient,
  type GrantType,
  parseClientMetadata,
} from '../src/clients/clients.ts';
import { SqliteStorage } from '../src/storage/sqlite.ts';

const storage = new SqliteStorage(':memory:');
const clients = new Clients(storage.adapter('Client'), 'ML-DSA-65');
afterAll(() => storage.close());

const R = ['https://rp.example/cb'];
const everything = {
  client_id: 'chosen',
  client_secret: 'a chosen secret',
  client_secret_hash: 'sha256$forged',
  registration_access_token_hash: 'sha256$forged',
  client_id_issued_at: 1,
  redirect_uris: R,
  client_name: 'RP',
};

describe('the client attribute table', () => {
  it('is consistent: `when` names a member, stored members have a value, hidden ones are stored', () => {
    for (const m of MEMBERS) {
      const a: { when?: string; store: string; default?: unknown; setBy: unknown; hidden?: boolean } =
        CLIENT_ATTRIBUTES[m];
      if (a.when !== undefined) expect(MEMBERS, m).toContain(a.when);
      // A member every record has is defaulted, or assigned by the provider (client_id).
      if (a.store === 'always') expect(a.default !== undefined || m === 'client_id', m).toBe(true);
      if (a.hidden) expect(a.store, m).not.toBe('never');
    }
  });

  it('reads only what each party may set', () => {
    const keys = (party: 'operator' | 'registration' | 'update') =>
      Object.keys(parseClientMetadata(everything, party)).sort();
    expect(keys('operator')).toEqual(['client_id', 'client_name', 'client_secret', 'redirect_uris']);
    // RFC 7591 §3.2.1: the server assigns both; RFC 7592 §2.2: an update proves the current secret.
    expect(keys('registration')).toEqual(['client_name', 'redirect_uris']);
    expect(keys('update')).toEqual(['client_name', 'client_secret', 'redirect_uris']);
  });

  it('never takes a member the provider assigns from a caller', async () => {
    const { client, clientSecret } = await clients.register(everything);
    expect(client.client_id).toBe('chosen');
    expect(clientSecret).toBe('a chosen secret');
    expect(client.client_secret_hash).toMatch(/^scrypt\$/);
    expect(client.registration_access_token_hash).toBeUndefined();
    // Every registration is stamped by the provider (tokens issued before it are not its own).
    expect(Math.abs((client.client_id_issued_at as number) - Date.now() / 1000)).toBeLessThan(5);
    const dynamic = await clients.register(everything, {
      registration_access_token_hash: 'sha256$x',
      client_id_issued_at: 7,
    });
    expect(dynamic.client.client_id).not.toBe('chosen');
    expect(dynamic.clientSecret).not.toBe('a chosen secret');
    expect(dynamic.client).toMatchObject({
      registration_access_token_hash: 'sha256$x',
      client_id_issued_at: 7,
    });
  });

  it('stores members in the order of the table, and flags only when true', async () => {
    const { client } = await clients.register({
      client_id: 'ordered',
      redirect_uris: R,
      frontchannel_logout_uri: 'https://rp.example/fc',
      default_acr_values: ['urn:pqid:acr:mfa'],
      dpop_bound_access_tokens: false,
      require_pushed_authorization_requests: true,
      client_name: 'Ordered',
    });
    const order = Object.keys(client) as ClientMember[];
    expect(order.map((m) => MEMBERS.indexOf(m))).toEqual(
      [...order.map((m) => MEMBERS.indexOf(m))].sort((a, b) => a - b),
    );
    expect(client).not.toHaveProperty('dpop_bound_access_tokens');
    expect(client.require_pushed_authorization_requests).toBe(true);
    // Defaulted alongside the member it belongs to, and only then.
    expect(client.frontchannel_logout_session_required).toBe(false);
    expect(client).not.toHaveProperty('backchannel_logout_session_required');
    expect(await clients.find('ordered')).toEqual(client);
  });

  it('shows every member but the hidden ones', async () => {
    const { client } = await clients.register(
      { redirect_uris: R },
      { registration_access_token_hash: 'sha256$y' },
    );
    const shown = describeClient(client);
    expect(shown).not.toHaveProperty('client_secret_hash');
    expect(shown).not.toHaveProperty('registration_access_token_hash');
    const { client_secret_hash: _s, registration_access_token_hash: _r, ...rest } = client;
    expect(shown).toEqual(rest);
  });

  it('derives the types: what a caller sends, and what the record holds', () => {
    expectTypeOf<ClientInput>().not.toHaveProperty('client_secret_hash');
    expectTypeOf<ClientInput>().not.toHaveProperty('client_id_issued_at');
    expectTypeOf<ClientInput['client_secret']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Client>().not.toHaveProperty('client_secret');
    expectTypeOf<Client['grant_types']>().toEqualTypeOf<GrantType[]>();
    expectTypeOf<Client['response_types']>().toEqualTypeOf<['code'] | []>();
    expectTypeOf<Client['access_token_format']>().toEqualTypeOf<AccessTokenFormat | undefined>();
    expectTypeOf<Client['client_id_issued_at']>().toEqualTypeOf<number | undefined>();
  });
});
