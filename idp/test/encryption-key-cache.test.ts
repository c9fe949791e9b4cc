/**
 * How the key a response is encrypted to is taken from a client's `jwks_uri`
 * (oidc/shared/encryption.ts): the set is kept ten minutes; a set without a key for the `alg`
 * asked for is fetched again early, so a client that adds a key is served without waiting, but
 * at most once per 30 seconds, so a client without one cannot make every request a fetch. The
 * clock is Date.now, moved by the test; the client's keys are served on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateEncryptionKeyPair, type Jwk } from '@pqid/jose';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { registerClient } from '../src/app.ts';
import type { Client } from '../src/clients/clients.ts';
import { ClientKeyUnavailable, clientEncryptionKey } from '../src/oidc/shared/encryption.ts';
import { startTestIdp } from './helpers.ts';

let t: Awaited<ReturnType<typeof startTestIdp>>;
let server: Server;
let url: string;
let served: Jwk[] = [];
let fetches = 0;

const publicKey = async (alg: string) => (await generateEncryptionKeyPair(alg)).publicJwk as Jwk;

beforeAll(async () => {
  t = await startTestIdp();
  server = createServer((_req, res) => {
    fetches++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: served }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
}, 60_000);
afterAll(async () => {
  await t.close();
  await new Promise((r) => server.close(r));
});
afterEach(() => {
  vi.restoreAllMocks();
});

it('keeps a set ten minutes, fetches early for a missing alg, and not more than every 30 s', async () => {
  const first = await publicKey('HPKE-9');
  served = [first];
  await registerClient(t.idp.ctx, {
    client_id: 'rotating',
    redirect_uris: ['https://rp.example/cb'],
    jwks_uri: url,
    id_token_encrypted_response_alg: 'HPKE-9',
  });
  const client = (await t.idp.ctx.clients.find('rotating')) as Client;
  let now = Date.now();
  vi.spyOn(Date, 'now').mockImplementation(() => now);
  const kidFor = async (alg: string) => (await clientEncryptionKey(t.idp.ctx, client, alg)).kid;

  expect(await kidFor('HPKE-9')).toBe(first.kid);
  expect(fetches).toBe(1);

  // The client rotates its X-Wing key and adds an ML-KEM-768 one.
  const second = await publicKey('HPKE-9');
  const mlkem = await publicKey('HPKE-12');
  served = [second, mlkem];
  now += 5_000;
  // The kept set still has an HPKE-9 key: used, no fetch.
  expect(await kidFor('HPKE-9')).toBe(first.kid);
  // It has no HPKE-12 key, but it was fetched 5 s ago: refused, no fetch.
  await expect(kidFor('HPKE-12')).rejects.toThrow(ClientKeyUnavailable);
  expect(fetches).toBe(1);

  now += 26_000;
  // 31 s on, a missing alg is worth one fetch, which finds the new key.
  expect(await kidFor('HPKE-12')).toBe(mlkem.kid);
  expect(fetches).toBe(2);
  expect(await kidFor('HPKE-9')).toBe(second.kid);
  expect(fetches).toBe(2);

  // Ten minutes after that fetch the set is fetched again even when it has the key.
  const third = await publicKey('HPKE-9');
  served = [third, mlkem];
  now += 599_000;
  expect(await kidFor('HPKE-9')).toBe(second.kid);
  now += 2_000;
  expect(await kidFor('HPKE-9')).toBe(third.kid);
  expect(fetches).toBe(3);
});
