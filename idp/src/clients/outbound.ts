/**
 * Every request the provider makes for a client goes through here: fetching its `jwks_uri`
 * (client assertions, request objects, and any later use of its keys), POSTing logout tokens
 * to its `backchannel_logout_uri`, and whatever comes next. One guard, two trust levels:
 *
 * - `operator`: a client the operator registered (`pqid clients add`, configuration, the demo
 *   seed). Its URLs are the operator's choice: https anywhere, http on loopback.
 * - `dynamic`: a client that registered itself (RFC 7591). Its URLs are an anonymous party's
 *   choice, so they must be https and may reach only public addresses (policy/addresses.ts),
 *   unless the operator listed the host or range in `outbound.allow`.
 *
 * The address rule is applied where the socket is opened, to the very addresses it is opened
 * to: the connector below resolves the name once, refuses the connection if any address is
 * refused, and then dials those checked addresses as literals (TLS still verifies the name).
 * A name that resolves to a public address when it is registered and to 127.0.0.1 when it is
 * fetched (DNS rebinding) is refused at the fetch; so is one with a public and a private
 * record. Redirects are never followed (`redirect: 'manual'`): a 3xx is an answer, not a hop.
 * Every request has a timeout and every response a size cap.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, buildConnector, type Dispatcher, fetch as undiciFetch } from 'undici';
import { IdpError } from '../errors/index.ts';
import { isLoopbackAddress, normalHost, OutboundAllowlist, specialRange } from '../policy/addresses.ts';

export type Trust = 'operator' | 'dynamic';

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** Host name to addresses (all of them). The default is the system resolver (`dns.lookup`). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;
/**
 * Opens the connection to one checked address (`target.hostname` is an IP literal; `servername`
 * the name TLS verifies). The default is undici's connector; tests put a gate here.
 */
export type Dial = (target: buildConnector.Options, callback: buildConnector.Callback) => void;

export type OutboundRefusal = 'scheme' | 'url' | 'address';

/** A request the outbound policy does not allow; nothing was sent. */
export class OutboundRefused extends IdpError<'outbound_refused'> {
  readonly reason: OutboundRefusal;
  constructor(reason: OutboundRefusal, message: string) {
    super('outbound_refused', message);
    this.reason = reason;
  }
}

export interface OutboundOptions {
  /** `outbound.allow`: host names, addresses and CIDR ranges dynamic clients may reach too. */
  allow?: readonly string[];
  /** Largest response body read, bytes (default 1 MiB). */
  maxResponseBytes?: number;
  /** Default time for one request, ms (default 5000); a caller may pass its own. */
  timeout?: number;
  resolve?: Resolver;
  dial?: Dial;
}

export interface OutboundInit extends RequestInit {
  /** ms for the whole request, from connect to the end of the body; default the guard's. */
  timeout?: number;
}

const systemResolver: Resolver = async (hostname) => lookup(hostname, { all: true, order: 'verbatim' });

/** Names that resolve to the machine itself (RFC 6761 §6.3), whatever DNS says. */
const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** Addresses tried per connection, in the resolver's order, before giving up. */
const MAX_ADDRESSES = 4;

export class OutboundGuard {
  readonly allowlist: OutboundAllowlist;
  readonly #maxBytes: number;
  readonly #timeout: number;
  readonly #resolve: Resolver;
  readonly #dial: Dial;
  readonly #agents = new Map<Trust, Agent>();

  constructor(opts: OutboundOptions = {}) {
    this.allowlist = new OutboundAllowlist(opts.allow);
    this.#maxBytes = opts.maxResponseBytes ?? 1 << 20;
    this.#timeout = opts.timeout ?? 5000;
    this.#resolve = opts.resolve ?? systemResolver;
    const connector = buildConnector({ timeout: this.#timeout, allowH2: false });
    this.#dial = opts.dial ?? ((target, cb) => void connector(target, cb));
  }

  /** The URL if `trust` may be sent there, judged on its text (checkOutboundUrl). */
  checkUrl(uri: string | URL, trust: Trust): URL {
    return checkOutboundUrl(uri, trust, this.allowlist);
  }

  /**
   * fetch(), for `trust`: the URL checked, no redirect followed, a timeout (the caller's signal
   * still applies), the response body capped. Throws OutboundRefused when the policy says no.
   */
  async fetch(trust: Trust, uri: string | URL, init: OutboundInit = {}): Promise<Response> {
    const url = this.checkUrl(uri, trust);
    const { timeout = this.#timeout, signal, ...rest } = init;
    const timer = AbortSignal.timeout(timeout);
    const response = await undiciFetch(url, {
      ...(rest as Parameters<typeof undiciFetch>[1]),
      redirect: 'manual',
      signal: signal ? AbortSignal.any([signal, timer]) : timer,
      dispatcher: this.#agent(trust),
    }).catch((e: unknown) => {
      // undici wraps connector errors in "fetch failed"; the policy's refusal is the real answer.
      const cause = (e as { cause?: unknown }).cause;
      throw cause instanceof OutboundRefused ? cause : e;
    });
    return response as unknown as Response;
  }

  /** A fetch function bound to `trust`, for APIs that take one (remote JWK sets). */
  fetcher(trust: Trust): typeof fetch {
    return ((input: string | URL | Request, init?: RequestInit) =>
      this.fetch(trust, input instanceof Request ? input.url : input, init)) as typeof fetch;
  }

  /** Close the pooled connections. */
  async close(): Promise<void> {
    const agents = [...this.#agents.values()];
    this.#agents.clear();
    await Promise.all(agents.map((a) => a.close()));
  }

  #agent(trust: Trust): Dispatcher {
    let agent = this.#agents.get(trust);
    if (!agent) {
      // One pool per trust level: a connection opened for the operator's client is never
      // reused for a dynamic client's request to the same origin.
      agent = new Agent({
        connect: (opts, cb) => {
          this.#connect(trust, opts).then(
            (socket) => cb(null, socket),
            (err: Error) => cb(err, null),
          );
        },
        maxResponseSize: this.#maxBytes,
        // The request's own deadline (its AbortSignal) governs; a fixed one here would cut a
        // caller that allows longer (backchannelLogout.timeout may exceed the default).
        headersTimeout: 0,
        bodyTimeout: 0,
        allowH2: false,
      });
      this.#agents.set(trust, agent);
    }
    return agent;
  }

  /** Resolve, check every address, then dial the checked addresses in turn. */
  async #connect(
    trust: Trust,
    opts: buildConnector.Options,
  ): Promise<Parameters<buildConnector.Callback>[1] & object> {
    const host = normalHost(opts.hostname);
    const literal = isIP(host) !== 0;
    const addresses = literal ? [{ address: host, family: isIP(host) }] : await this.#lookup(host);
    if (addresses.length === 0) throw new OutboundRefused('address', `${host} has no address`);
    if (trust === 'dynamic' && !this.allowlist.hasHost(host))
      for (const { address } of addresses) {
        if (this.allowlist.hasAddress(address)) continue;
        const range = specialRange(address);
        if (range !== undefined) throw refusedAddress(literal ? host : `${host} (${address})`, range);
      }
    let last: Error | undefined;
    for (const { address } of addresses.slice(0, MAX_ADDRESSES)) {
      try {
        return await new Promise((resolve, reject) =>
          this.#dial(
            {
              ...opts,
              hostname: address,
              ...(opts.protocol === 'https:' && !literal ? { servername: host } : {}),
            },
            (err, socket) => (err ? reject(err) : resolve(socket as NonNullable<typeof socket>)),
          ),
        );
      } catch (e) {
        last = e as Error;
      }
    }
    throw last as Error;
  }

  async #lookup(host: string): Promise<ResolvedAddress[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`resolving ${host} timed out`)), this.#timeout);
    });
    try {
      return await Promise.race([this.#resolve(host), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The URL if a request for a client of `trust` may go there, judged on its text: a scheme or a
 * host that can never be allowed is refused here, before any lookup — at registration
 * (clients.ts) and again before every request. The addresses behind a name are checked when
 * connecting (OutboundGuard).
 */
export function checkOutboundUrl(uri: string | URL, trust: Trust, allowlist: OutboundAllowlist): URL {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new OutboundRefused('url', `${JSON.stringify(String(uri))} is not an absolute URL`);
  }
  if (url.username || url.password)
    throw new OutboundRefused('url', 'the URL must not carry a user name or password');
  const host = normalHost(url.hostname);
  const listed = allowlist.hasHost(host);
  const loopback = isLocalhostName(host) || (isIP(host) !== 0 && isLoopbackAddress(host));
  if (url.protocol !== 'https:') {
    const httpOk = url.protocol === 'http:' && (listed || (trust === 'operator' && loopback));
    if (!httpOk)
      throw new OutboundRefused(
        'scheme',
        trust === 'operator'
          ? 'the URL must be https (http only on loopback or a host in outbound.allow)'
          : 'the URL must be https (http only for a host in outbound.allow)',
      );
  }
  if (trust === 'dynamic' && !listed) {
    if (isLocalhostName(host)) throw refusedAddress(host, 'loopback');
    const range = isIP(host) !== 0 ? specialRange(host) : undefined;
    if (range !== undefined) throw refusedAddress(host, range);
  }
  return url;
}

const refusedAddress = (what: string, range: string) =>
  new OutboundRefused(
    'address',
    `${what} is a ${range} address, which a dynamically registered client may not make this provider reach (outbound.allow lists exceptions)`,
  );
