/**
 * Which network addresses the provider may connect to for a client it did not register itself,
 * and the operator's exceptions. An address is refused unless it is ordinary public unicast:
 * loopback, RFC 1918 private, RFC 6598 shared (CGNAT), link-local (cloud metadata services live
 * at 169.254.169.254), RFC 4193 unique-local, multicast, unspecified, broadcast, documentation,
 * benchmarking and other IANA special-purpose ranges are all refused. IPv6 forms that carry an
 * IPv4 address (IPv4-mapped, SIIT, NAT64 64:ff9b::/96) are judged by that IPv4 address; the
 * deprecated or opaque ones (IPv4-compatible, 6to4, Teredo, local-use NAT64) are refused whole.
 *
 * The range tables are ipaddr.js's (IANA's special-purpose registries); this module only decides
 * which of them are reachable from a provider on the public internet.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** 2000::/3, the only IPv6 space IANA allocates for global unicast (RFC 4291 §2.4). */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
/** RFC 6052 §2.1: the well-known NAT64 prefix; the IPv4 address is the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/** The IPv4 address in the last 32 bits of an IPv6 one. */
const lastIpv4 = (v6: ipaddr.IPv6): ipaddr.IPv4 =>
  ipaddr.fromByteArray(v6.toByteArray().slice(12)) as ipaddr.IPv4;

function v6Range(v6: ipaddr.IPv6): string | undefined {
  const range = v6.range();
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (SIIT) reach the IPv4 address they carry.
  if (range === 'ipv4Mapped' || range === 'rfc6145') {
    const inner = v4Range(lastIpv4(v6));
    return inner === undefined ? undefined : `${range} ${inner}`;
  }
  // A NAT64 gateway connects to the embedded IPv4 address; the local-use prefix is internal.
  if (range === 'rfc6052') {
    if (!v6.match(NAT64_WELL_KNOWN)) return 'rfc6052 local-use';
    const inner = v4Range(lastIpv4(v6));
    return inner === undefined ? undefined : `nat64 ${inner}`;
  }
  if (range !== 'unicast') return range;
  if (!v6.match(GLOBAL_UNICAST)) {
    // ::a.b.c.d, deprecated by RFC 4291 §2.5.5.1; anything else outside 2000::/3 is unallocated.
    return v6.parts.slice(0, 6).every((p) => p === 0) ? 'ipv4Compatible' : 'reserved';
  }
  return undefined;
}

function v4Range(v4: ipaddr.IPv4): string | undefined {
  const range = v4.range();
  return range === 'unicast' ? undefined : range;
}

/**
 * IPv6 text is first rewritten by the WHATWG URL serializer (RFC 5952 hex form, zone id
 * dropped): ipaddr.js reads `::a.b.c.d` as the IPv4-mapped `::ffff:a.b.c.d`, where the socket
 * layer (inet_pton) reads the IPv4-compatible `::a.b.c.d`. Judging the form the socket uses
 * keeps the two from disagreeing.
 */
function canonical(address: string): string | undefined {
  if (!address.includes(':')) return address;
  const zone = address.indexOf('%');
  try {
    return new URL(`http://[${zone < 0 ? address : address.slice(0, zone)}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

function parse(address: string): Address | undefined {
  const text = canonical(address);
  if (text === undefined) return undefined;
  try {
    return ipaddr.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The special-purpose range an address is in (`loopback`, `private`, `linkLocal`,
 * `ipv4Mapped private`, …), or undefined for public unicast. Anything that does not parse as
 * an address is `invalid`.
 */
export function specialRange(address: string): string | undefined {
  const ip = parse(address);
  if (ip === undefined) return 'invalid';
  return ip.kind() === 'ipv6' ? v6Range(ip as ipaddr.IPv6) : v4Range(ip as ipaddr.IPv4);
}

/** `127.0.0.0/8` or `::1`: the provider's own machine. */
export function isLoopbackAddress(address: string): boolean {
  const ip = parse(address);
  if (ip === undefined) return false;
  const v4 =
    ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? lastIpv4(ip as ipaddr.IPv6) : ip;
  return v4.range() === 'loopback';
}

/** An IPv4 or IPv6 address (dotted decimal, no shorthand), or a CIDR range of either. */
export function isAddressOrRange(entry: string): boolean {
  if (entry.includes('/'))
    return entry.includes(':')
      ? ipaddr.IPv6.isValidCIDR(entry)
      : ipaddr.IPv4.isValidCIDRFourPartDecimal(entry);
  return ipaddr.IPv6.isValid(entry) || ipaddr.IPv4.isValidFourPartDecimal(entry);
}

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/;

/** A host name as URL parsing leaves it: lower case, IPv6 literals without brackets, no final dot. */
export const normalHost = (host: string): string =>
  host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');

/**
 * The operator's exceptions (`outbound.allow`): host names, allowed whatever they resolve to,
 * and addresses or CIDR ranges, allowed wherever a name resolves into them. IPv4-mapped IPv6
 * addresses match the IPv4 entries.
 */
export class OutboundAllowlist {
  readonly #hosts = new Set<string>();
  readonly #ranges: Array<[Address, number]> = [];
  readonly entries: readonly string[];

  /** Throws an Error naming the first entry that is neither a host name, an address nor a CIDR. */
  constructor(entries: readonly string[] = []) {
    this.entries = [...entries];
    for (const raw of entries) {
      const entry = normalHost(raw.trim());
      if (entry.includes('/')) {
        if (!isAddressOrRange(entry))
          throw new Error(`${JSON.stringify(raw)} is not a CIDR range (e.g. 10.20.0.0/16 or fd00:1::/64)`);
        const [net, bits] = entry.split('/') as [string, string];
        this.#ranges.push([parse(net) as Address, Number(bits)]);
      } else if (isAddressOrRange(entry)) {
        const ip = parse(entry) as Address;
        this.#ranges.push([ip, ip.kind() === 'ipv4' ? 32 : 128]);
      } else if (HOSTNAME.test(entry)) {
        this.#hosts.add(entry);
      } else {
        throw new Error(`${JSON.stringify(raw)} is not a host name, an IP address or a CIDR range`);
      }
    }
  }

  /** The host is listed by name, or is an address literal inside a listed range. */
  hasHost(host: string): boolean {
    const h = normalHost(host);
    return this.#hosts.has(h) || (isIP(h) !== 0 && this.hasAddress(h));
  }

  hasAddress(address: string): boolean {
    let ip = parse(address);
    if (ip === undefined) return false;
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = lastIpv4(ip as ipaddr.IPv6);
    const kind = ip.kind();
    return this.#ranges.some(([net, bits]) => net.kind() === kind && (ip as ipaddr.IPv4).match(net, bits));
  }
}
