/**
 * The outbound guard (clients/outbound.ts): what a request made for a client may reach.
 *
 * No test here ever opens a connection outside 127.0.0.0/8 or ::1, and none resolves a name
 * through real DNS. Every guard is built with a stub resolver (a fixed table; an unknown name is
 * an error) and a gate on its connect step: the gate records every address the guard decided to
 * dial, passes loopback ones to the real connector (servers on 127.0.0.1 below), and answers
 * anything else with an error instead of sending a packet. "Refused" below therefore means the
 * guard refused before the gate saw the address, and where the guard is meant to let a public
 * address through, the test sees it at the gate, unsent.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { BlockList } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildConnector } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Dial,
  OutboundGuard,
  type OutboundOptions,
  OutboundRefused,
  type ResolvedAddress,
  type Trust,
} from '../src/clients/outbound.ts';
import { OutboundAllowlist, specialRange } from '../src/policy/addresses.ts';

/** The test's own idea of loopback, independent of the code under test. */
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');
const isLoopback = (a: string) => loopback.check(a, a.includes(':') ? 'ipv6' : 'ipv4');

const realConnector = buildConnector({ timeout: 2000 });

/** A connect step that never lets a non-loopback address through, and remembers what it saw. */
function gate(connector: Dial = realConnector) {
  const dialed: Array<{ address: string; servername: string | undefined }> = [];
  const dial: Dial = (target, cb) => {
    dialed.push({ address: target.hostname, servername: target.servername });
    if (!isLoopback(target.hostname)) {
      cb(new Error(`test gate: ${target.hostname} not sent`), null);
      return;
    }
    connector(target, cb);
  };
  return { dial, dialed, addresses: () => dialed.map((d) => d.address) };
}

/** A fixed resolver; each name may answer differently on each call (the last answer repeats). */
function resolver(table: Record<string, string[] | string[][]>) {
  const calls: string[] = [];
  const resolve = async (host: string): Promise<ResolvedAddress[]> => {
    calls.push(host);
    const entry = table[host];
    if (entry === undefined)
      throw Object.assign(new Error(`stub resolver: ${host} unknown`), { code: 'ENOTFOUND' });
    const answers = (Array.isArray(entry[0]) ? entry : [entry]) as string[][];
    const n = calls.filter((c) => c === host).length;
    const list = answers[Math.min(n, answers.length) - 1] as string[];
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}

function guardWith(opts: OutboundOptions & { table?: Record<string, string[] | string[][]> } = {}) {
  const g = gate();
  const r = resolver({ localhost: ['127.0.0.1'], ...(opts.table ?? {}) });
  const guard = new OutboundGuard({ timeout: 2000, ...opts, resolve: r.resolve, dial: g.dial });
  return { guard, gate: g, resolverCalls: r.calls };
}

async function refusal(p: Promise<unknown>): Promise<OutboundRefused> {
  const e = await p.then(
    () => new Error('expected a refusal, got a response'),
    (err: unknown) => err,
  );
  if (!(e instanceof OutboundRefused))
    throw new Error(`expected OutboundRefused, got ${String(e)}`, { cause: e });
  return e;
}

// Every class the guard refuses, each in its IPv4 and IPv6 forms where both exist, with the
// range name it must give.
const FORBIDDEN: Array<[string, string]> = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['::1', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.254', 'private'],
  ['192.168.1.1', 'private'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456:789a::1', 'uniqueLocal'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.127.255.254', 'carrierGradeNat'],
  ['169.254.169.254', 'linkLocal'],
  ['fe80::1', 'linkLocal'],
  ['fe80::a9fe:a9fe%eth0', 'linkLocal'],
  ['febf:ffff::1', 'linkLocal'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'multicast'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['::', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['192.0.2.1', 'reserved'], // TEST-NET-1 (documentation)
  ['198.51.100.1', 'reserved'], // TEST-NET-2
  ['203.0.113.1', 'reserved'], // TEST-NET-3
  ['2001:db8::1', 'reserved'], // IPv6 documentation
  ['240.0.0.1', 'reserved'], // class E
  ['192.0.0.8', 'reserved'], // IETF protocol assignments
  ['198.18.0.1', 'reserved'], // benchmarking (ipaddr.js files it with the reserved ranges)
  ['2001:2::1', 'benchmarking'],
  ['fec0::1', 'deprecatedSiteLocal'],
  ['100::1', 'discard'],
  // IPv4 in IPv6: judged by the IPv4 address inside.
  ['::ffff:127.0.0.1', 'ipv4Mapped loopback'],
  ['::ffff:7f00:1', 'ipv4Mapped loopback'],
  ['::ffff:10.0.0.1', 'ipv4Mapped private'],
  ['::ffff:a9fe:a9fe', 'ipv4Mapped linkLocal'],
  ['::ffff:100.64.0.1', 'ipv4Mapped carrierGradeNat'],
  ['::ffff:0:192.168.0.1', 'rfc6145 private'],
  ['64:ff9b::10.0.0.1', 'nat64 private'],
  ['64:ff9b::a9fe:a9fe', 'nat64 linkLocal'],
  ['64:ff9b::7f00:1', 'nat64 loopback'],
  ['64:ff9b:1::1', 'rfc6052 local-use'],
  // Deprecated or opaque carriers of IPv4: refused whatever they carry.
  ['::127.0.0.1', 'ipv4Compatible'],
  ['::8.8.8.8', 'ipv4Compatible'],
  ['2002:a00:1::1', '6to4'],
  ['2001::1', 'teredo'],
  ['4000::1', 'reserved'], // outside 2000::/3
  ['not-an-address', 'invalid'],
];

const PUBLIC = [
  '93.184.216.34',
  '8.8.8.8',
  '1.1.1.1',
  '100.63.255.255', // just below CGNAT
  '172.32.0.1', // just above 172.16/12
  '2606:4700:4700::1111',
  '2a00:1450:4001::1',
  '::ffff:8.8.8.8', // mapped public: the IPv4 address is public
  '64:ff9b::808:808', // NAT64 of 8.8.8.8
];

/** How a host is written in a URL. */
const inUrl = (a: string) => (a.includes(':') ? `[${a}]` : a);

describe('address classes', () => {
  it.each(FORBIDDEN)('%s is %s', (address, range) => {
    expect(specialRange(address)).toBe(range);
  });
  it.each(PUBLIC)('%s is public', (address) => {
    expect(specialRange(address)).toBeUndefined();
  });
});

describe('the allowlist', () => {
  it('takes host names, addresses and CIDR ranges, and nothing else', () => {
    const list = new OutboundAllowlist([
      'Keys.Internal.Example.',
      '10.20.0.0/16',
      'fd00:1::/64',
      '192.168.7.7',
    ]);
    expect(list.hasHost('keys.internal.example')).toBe(true);
    expect(list.hasHost('other.internal.example')).toBe(false);
    expect(list.hasAddress('10.20.3.4')).toBe(true);
    expect(list.hasAddress('::ffff:10.20.3.4')).toBe(true);
    expect(list.hasAddress('10.21.0.1')).toBe(false);
    expect(list.hasAddress('fd00:1::5')).toBe(true);
    expect(list.hasAddress('fd00:2::5')).toBe(false);
    expect(list.hasAddress('192.168.7.7')).toBe(true);
    expect(list.hasHost('[fd00:1::9]')).toBe(true);
    for (const bad of ['10.0.0.0/33', '10/8', 'http://x', 'a b', '*.example.com', '1.2.3.4/x', 'fd00::/129'])
      expect(() => new OutboundAllowlist([bad]), bad).toThrow(/is not/);
  });
});

describe('OutboundGuard, against servers on 127.0.0.1', () => {
  let server: Server;
  let port = 0;
  const requests: string[] = [];
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      requests.push(req.url ?? '');
      // A fresh connection per request, so every request goes through the connect step.
      res.setHeader('connection', 'close');
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      } else if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('x'.repeat(64 * 1024));
      } else if (req.url === '/late') {
        setTimeout(() => res.end('{}'), 1500);
      } else if (req.url === '/slow') {
        // never answers
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  describe('a dynamically registered client', () => {
    it.each(FORBIDDEN.filter(([a]) => a !== 'not-an-address' && !a.includes('%')))(
      'is refused the literal %s (%s) before any connection',
      async (address) => {
        const { guard, gate: g } = guardWith();
        const e = await refusal(guard.fetch('dynamic', `https://${inUrl(address)}:${port}/jwks`));
        expect(e.reason).toBe('address');
        expect(g.dialed).toEqual([]);
        await guard.close();
      },
    );

    it.each(FORBIDDEN.filter(([a]) => a !== 'not-an-address'))(
      'is refused a name that resolves to %s (%s), at the connect step',
      async (address, range) => {
        const { guard, gate: g, resolverCalls } = guardWith({ table: { 'keys.rp.test': [address] } });
        // The text is fine: a name is only judged by what it resolves to.
        expect(guard.checkUrl('https://keys.rp.test/jwks', 'dynamic').hostname).toBe('keys.rp.test');
        const e = await refusal(guard.fetch('dynamic', 'https://keys.rp.test/jwks'));
        expect(e.reason).toBe('address');
        expect(e.message).toContain(`(${address})`);
        expect(e.message).toContain(range);
        expect(resolverCalls).toEqual(['keys.rp.test']);
        expect(g.dialed).toEqual([]);
        await guard.close();
      },
    );

    it('is refused a name with one public and one internal address', async () => {
      const { guard, gate: g } = guardWith({ table: { 'mixed.rp.test': ['93.184.216.34', '10.0.0.7'] } });
      expect((await refusal(guard.fetch('dynamic', 'https://mixed.rp.test/'))).message).toContain('10.0.0.7');
      expect(g.dialed).toEqual([]);
      await guard.close();
    });

    it('is refused names that mean this machine, and URL spellings of loopback', async () => {
      const { guard, gate: g } = guardWith({ table: { 'app.localhost': ['127.0.0.1'] } });
      for (const url of [
        'https://localhost/jwks',
        'https://LOCALHOST./jwks',
        'https://app.localhost/jwks',
        'https://0x7f.1/jwks', // WHATWG URL parsing makes these 127.0.0.1
        'https://2130706433/jwks',
        'https://127.1/jwks',
        'https://[0:0:0:0:0:0:0:1]/jwks',
        'https://[::ffff:127.0.0.1]/jwks',
      ])
        expect((await refusal(guard.fetch('dynamic', url))).reason, url).toBe('address');
      expect(g.dialed).toEqual([]);
      await guard.close();
    });

    it('is refused http, even to a public address, and user info in the URL', async () => {
      const { guard, gate: g } = guardWith({ table: { 'rp.test': ['93.184.216.34'] } });
      expect((await refusal(guard.fetch('dynamic', 'http://rp.test/jwks'))).reason).toBe('scheme');
      expect((await refusal(guard.fetch('dynamic', `http://127.0.0.1:${port}/jwks`))).reason).toBe('scheme');
      expect((await refusal(guard.fetch('dynamic', 'https://u:p@rp.test/jwks'))).reason).toBe('url');
      expect((await refusal(guard.fetch('dynamic', 'ftp://rp.test/jwks'))).reason).toBe('scheme');
      expect(g.dialed).toEqual([]);
      await guard.close();
    });

    it.each(PUBLIC)('may reach the public address %s (seen at the gate, never sent)', async (address) => {
      const { guard, gate: g } = guardWith({ table: { 'keys.rp.test': [address] } });
      const e = await guard.fetch('dynamic', 'https://keys.rp.test/jwks').catch((err: Error) => err);
      expect(e).toBeInstanceOf(Error);
      expect(e).not.toBeInstanceOf(OutboundRefused);
      // The very address that was checked is dialed, as a literal; TLS verifies the name.
      expect(g.dialed).toEqual([{ address, servername: 'keys.rp.test' }]);
      await guard.close();
    });

    it('is checked on every connection: a name that rebinds to loopback is refused the second time', async () => {
      const {
        guard,
        gate: g,
        resolverCalls,
      } = guardWith({
        table: { 'rebind.rp.test': [['93.184.216.34'], ['127.0.0.1']] },
      });
      // Registration sees only the name, which passes.
      guard.checkUrl('https://rebind.rp.test/jwks', 'dynamic');
      const first = await guard.fetch('dynamic', 'https://rebind.rp.test/jwks').catch((e: Error) => e);
      expect(first).not.toBeInstanceOf(OutboundRefused);
      expect(g.addresses()).toEqual(['93.184.216.34']);
      const second = await refusal(guard.fetch('dynamic', 'https://rebind.rp.test/jwks'));
      expect(second.message).toContain('127.0.0.1');
      expect(resolverCalls).toEqual(['rebind.rp.test', 'rebind.rp.test']);
      expect(g.addresses()).toEqual(['93.184.216.34']);
      await guard.close();
    });

    it('reaches what the operator allowed: an address range, over http too', async () => {
      const { guard, gate: g } = guardWith({ allow: ['127.0.0.0/8'] });
      const r = await guard.fetch('dynamic', `http://127.0.0.1:${port}/jwks`);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ keys: [] });
      expect(g.addresses()).toEqual(['127.0.0.1']);
      await guard.close();
    });

    it('reaches what the operator allowed: a host name, whatever it resolves to', async () => {
      const { guard, gate: g } = guardWith({
        allow: ['keys.internal.test'],
        table: { 'keys.internal.test': ['127.0.0.1'], 'other.internal.test': ['127.0.0.1'] },
      });
      const r = await guard.fetch('dynamic', `http://keys.internal.test:${port}/jwks`);
      expect(r.status).toBe(200);
      await r.body?.cancel();
      // Another name resolving to the same address is not thereby allowed.
      expect((await refusal(guard.fetch('dynamic', `https://other.internal.test:${port}/`))).reason).toBe(
        'address',
      );
      expect(g.addresses()).toEqual(['127.0.0.1']);
      await guard.close();
    });

    it('reaches a name resolving into an allowed range (https: the TLS handshake then fails here)', async () => {
      const { guard, gate: g } = guardWith({
        allow: ['127.0.0.0/8'],
        table: { 'svc.internal.test': ['127.0.0.1'] },
      });
      // http needs the host itself listed: a range allows addresses, not the cleartext scheme.
      expect((await refusal(guard.fetch('dynamic', `http://svc.internal.test:${port}/`))).reason).toBe(
        'scheme',
      );
      const e = await guard.fetch('dynamic', `https://svc.internal.test:${port}/`).catch((err: Error) => err);
      expect(e).not.toBeInstanceOf(OutboundRefused);
      expect(g.dialed).toEqual([{ address: '127.0.0.1', servername: 'svc.internal.test' }]);
      await guard.close();
    });
  });

  describe('over TLS', () => {
    let tls: HttpsServer;
    let tlsPort = 0;
    let cert: Buffer;
    beforeAll(async () => {
      // A throwaway certificate for keys.internal.test, made with the openssl CLI.
      const dir = mkdtempSync(join(tmpdir(), 'pqid-outbound-tls-'));
      execFileSync(
        'openssl',
        ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
          .concat(['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1'])
          .concat(['-subj', '/CN=keys.internal.test', '-addext', 'subjectAltName=DNS:keys.internal.test']),
        { stdio: 'ignore' },
      );
      cert = readFileSync(join(dir, 'cert.pem'));
      tls = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (_req, res) =>
        res.end('{"keys":[]}'),
      );
      rmSync(dir, { recursive: true });
      await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
      tlsPort = (tls.address() as { port: number }).port;
    });
    afterAll(async () => {
      tls.closeAllConnections();
      await new Promise((r) => tls.close(r));
    });

    /** The gate, with a connector that trusts the test certificate. */
    function tlsGuard() {
      const g = gate(buildConnector({ timeout: 2000, ca: cert }));
      const r = resolver({ 'keys.internal.test': ['127.0.0.1'], 'other.internal.test': ['127.0.0.1'] });
      const guard = new OutboundGuard({ allow: ['127.0.0.0/8'], resolve: r.resolve, dial: g.dial });
      return { guard, dialed: g.dialed };
    }

    it('dials the checked address and verifies the certificate against the name', async () => {
      const { guard, dialed } = tlsGuard();
      const r = await guard.fetch('dynamic', `https://keys.internal.test:${tlsPort}/jwks`);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ keys: [] });
      expect(dialed).toEqual([{ address: '127.0.0.1', servername: 'keys.internal.test' }]);
      // Same address, another name: the certificate does not match it.
      const wrong = await guard
        .fetch('dynamic', `https://other.internal.test:${tlsPort}/jwks`)
        .catch((e: Error) => e);
      expect(wrong).toBeInstanceOf(Error);
      expect(String((wrong as Error).cause ?? wrong)).toMatch(
        /altnames|ERR_TLS_CERT_ALTNAME_INVALID|certificate/i,
      );
      await guard.close();
    });
  });

  describe("the operator's own client", () => {
    it('may use http on loopback, by address or as localhost', async () => {
      const { guard, gate: g } = guardWith();
      for (const url of [`http://127.0.0.1:${port}/jwks`, `http://localhost:${port}/jwks`]) {
        const r = await guard.fetch('operator', url);
        expect(r.status, url).toBe(200);
        await r.body?.cancel();
      }
      expect(g.addresses()).toEqual(['127.0.0.1', '127.0.0.1']);
      await guard.close();
    });

    it('may not use http elsewhere', async () => {
      const { guard, gate: g } = guardWith({ table: { 'rp.test': ['93.184.216.34'] } });
      expect((await refusal(guard.fetch('operator', 'http://rp.test/jwks'))).reason).toBe('scheme');
      expect(g.dialed).toEqual([]);
      await guard.close();
    });

    it('reaches internal addresses behind an https name (the operator chose the URL)', async () => {
      const { guard, gate: g } = guardWith({ table: { 'intranet.test': ['10.1.2.3'] } });
      const e = await guard.fetch('operator', 'https://intranet.test/jwks').catch((err: Error) => err);
      expect(e).not.toBeInstanceOf(OutboundRefused);
      expect(g.addresses()).toEqual(['10.1.2.3']); // stopped by the test's gate, not sent
      await guard.close();
    });
  });

  describe('every request', () => {
    const trusts: Trust[] = ['operator', 'dynamic'];

    it.each(trusts)('does not follow a redirect (%s)', async (trust) => {
      const { guard, gate: g } = guardWith({ allow: ['127.0.0.1'] });
      const r = await guard.fetch(trust, `http://127.0.0.1:${port}/redirect`);
      expect(r.status).toBe(302);
      expect(r.headers.get('location')).toBe('http://169.254.169.254/latest/meta-data/');
      expect(g.addresses()).toEqual(['127.0.0.1']);
      await guard.close();
    });

    it('stops reading a response larger than the cap', async () => {
      const { guard } = guardWith({ maxResponseBytes: 1024 });
      const r = await guard.fetch('operator', `http://127.0.0.1:${port}/big`).catch((e: Error) => e);
      // Refused at the headers (content-length) or while reading: either way, no body.
      const body = r instanceof Error ? r : await r.text().catch((e: Error) => e);
      expect(body).toBeInstanceOf(Error);
      const small = await guard.fetch('operator', `http://127.0.0.1:${port}/jwks`);
      expect(await small.text()).toBe('{"keys":[]}');
      await guard.close();
    });

    it('gives up after its timeout', async () => {
      const { guard } = guardWith();
      const started = Date.now();
      const e = await guard
        .fetch('operator', `http://127.0.0.1:${port}/slow`, { timeout: 200 })
        .catch((err: Error) => err);
      expect((e as Error).name).toBe('TimeoutError');
      expect(Date.now() - started).toBeLessThan(1900);
      await guard.close();
    });

    it("lets the caller's timeout exceed the guard's default", async () => {
      const { guard } = guardWith({ timeout: 200 });
      const r = await guard.fetch('operator', `http://127.0.0.1:${port}/late`, { timeout: 5000 });
      expect(await r.text()).toBe('{}');
      await guard.close();
    });

    it('keeps the connections of the two trust levels apart', async () => {
      const { guard, gate: g } = guardWith({ allow: ['127.0.0.1'] });
      // Keep-alive this time: a pooled connection would be reused if the pools were shared.
      const keepAlive = createServer((_req, res) => res.end('{}'));
      await new Promise<void>((r) => keepAlive.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(keepAlive.address() as { port: number }).port}/jwks`;
      try {
        for (const trust of [...trusts, ...trusts]) await (await guard.fetch(trust, url)).text();
        // Four requests, two connections: one per trust level, each reused once.
        expect(g.addresses()).toEqual(['127.0.0.1', '127.0.0.1']);
      } finally {
        await guard.close();
        keepAlive.closeAllConnections();
        await new Promise((r) => keepAlive.close(r));
      }
    });
  });
});
