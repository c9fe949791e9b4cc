/**
 * A client's `jwks_uri` is fetched and its answer kept (one cached set per URL, up to a thousand:
 * dynamic registration lets anyone add URLs). What one answer may hold is bounded like a `jwks`
 * sent at registration, so that a registrant cannot make each cached set cost a megabyte: a set
 * larger than that is refused with a clear error, for encryption to the client and for checking
 * its signatures alike.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateEncryptionKeyPair, generateKeyPair, type Jwk } from '@pqid/jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { registerClient } from '../src/app.ts';
import type { Client } from '../src/clients/clients.ts';
import { keySetFor, MAX_REMOTE_JWKS_BYTES } from '../src/oidc/shared/client-keys.ts';
import { ClientKeyUnavailable, clientEncryptionKey } from '../src/oidc/shared/encryption.ts';
import { startTestIdp } from './helpers.ts';

let t: Awaited<ReturnType<typeof startTestIdp>>;
let server: Server;
let base: string;
const sets = new Map<string, string>();
/** Well past the bound, well within the megabyte the outbound guard lets any answer be. */
const LARGE = 256 * 1024;

/** A JWK set of `keys` padded with copies of the first (new kids) to at least `bytes`. */
function padded(keys: Jwk[], bytes: number): string {
  const out = [...keys];
  for (let i = 0; JSON.stringify({ keys: out }).length < bytes; i++)
    out.push({ ...(keys[0] as Jwk), kid: `pad-${i}` });
  return JSON.stringify({ keys: out });
}

beforeAll(async () => {
  t = await startTestIdp();
  const enc = { ...(await generateEncryptionKeyPair('HPKE-9')).publicJwk, use: 'enc', alg: 'HPKE-9' } as Jwk;
  const sig = { ...(await generateKeyPair('ML-DSA-65')).publicJwk, kid: 'sig' } as Jwk;
  sets.set('/small', JSON.stringify({ keys: [enc, sig] }));
  sets.set('/large-enc', padded([enc, sig], LARGE));
  sets.set('/large-sig', padded([sig, enc], LARGE));
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(sets.get(req.url ?? ''));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await t.close();
  await new Promise((r) => server.close(r));
});

/** An operator client (loopback http is allowed for those) whose keys are at `path`. */
async function clientAt(path: string): Promise<Client> {
  const id = `c${path.replaceAll('/', '-')}`;
  await registerClient(t.idp.ctx, {
    client_id: id,
    redirect_uris: ['https://rp.example/cb'],
    jwks_uri: `${base}${path}`,
    introspection_encrypted_response_alg: 'HPKE-9',
  });
  return (await t.idp.ctx.clients.find(id)) as Client;
}

it('encryption: a jwks_uri set within the bound is used; a larger one is refused, saying why', async () => {
  expect(LARGE).toBeGreaterThan(MAX_REMOTE_JWKS_BYTES);
  expect((await clientEncryptionKey(t.idp.ctx, await clientAt('/small'), 'HPKE-9')).alg).toBe('HPKE-9');
  const large = clientEncryptionKey(t.idp.ctx, await clientAt('/large-enc'), 'HPKE-9');
  await expect(large).rejects.toBeInstanceOf(ClientKeyUnavailable);
  await expect(large).rejects.toThrow(/larger than/);
});

it('signatures: a jwks_uri set within the bound is used; a larger one is refused', async () => {
  const header = { alg: 'ML-DSA-65', kid: 'sig' };
  const small = await keySetFor(t.idp.ctx, await clientAt('/small'));
  expect(await small(header)).toHaveLength(1);
  const large = await keySetFor(t.idp.ctx, await clientAt('/large-sig'));
  await expect(Promise.resolve().then(() => large(header))).rejects.toThrow(/bytes|large/i);
});
