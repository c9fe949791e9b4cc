/** Client secrets: generated ones get a fast hash, chosen ones a slow one; both verify, nothing else does. */
import { afterAll, describe, expect, it } from 'vitest';
import { Clients } from '../src/clients/clients.ts';
import { SqliteStorage } from '../src/storage/sqlite.ts';

const storage = new SqliteStorage(':memory:');
const clients = new Clients(storage.adapter('Client'), 'ML-DSA-65');
afterAll(() => storage.close());

describe('client secret hashing', () => {
  it('stores a generated 256-bit secret as SHA-256 and verifies it without scrypt', async () => {
    const { client, clientSecret } = await clients.register({ redirect_uris: ['https://rp.example/cb'] });
    expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(client.client_secret_hash).toMatch(/^sha256\$/);
    expect(client.client_secret_hash).not.toContain(clientSecret as string);
    expect(await clients.checkSecret(client, clientSecret as string)).toBe(true);
    expect(await clients.checkSecret(client, `${clientSecret}x`)).toBe(false);
    expect(await clients.checkSecret(client, '')).toBe(false);
  });

  it('keeps the slow hash for a secret someone chose', async () => {
    const { client } = await clients.register({
      redirect_uris: ['https://rp.example/cb'],
      client_secret: 'hunter2',
    });
    expect(client.client_secret_hash).toMatch(/^scrypt\$/);
    expect(await clients.checkSecret(client, 'hunter2')).toBe(true);
    expect(await clients.checkSecret(client, 'hunter3')).toBe(false);
  });

  it('never treats an sha256 record as matching the hash itself', async () => {
    const { client } = await clients.register({ redirect_uris: ['https://rp.example/cb'] });
    expect(await clients.checkSecret(client, client.client_secret_hash as string)).toBe(false);
  });
});
