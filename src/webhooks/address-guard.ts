/**
 * Where a webhook may be sent (spec 4.8): an https URL without credentials whose host resolves only
 * to public addresses. The check runs when an endpoint is saved and again before every attempt, and
 * an attempt connects to the very address this check passed (`Pinned`), so a host that changes its
 * answer after the check (DNS rebinding) gains nothing: the name is resolved once per attempt.
 *
 * Addresses are classified by ipaddr.js: anything it does not class as plain `unicast` is refused.
 * An IPv6 address that carries an IPv4 address (IPv4-compatible, mapped, translated, NAT64, 6to4,
 * Teredo) reaches that IPv4 address, so it is judged as the address it carries: no spelling of an
 * internal IPv4 address gets through, and a public one (a DNS64 answer for an IPv4-only receiver)
 * is accepted as the IPv4 address itself would be.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { invalid } from '../errors.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to; the system resolver unless a test supplies its own. */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** The URL as checked, and the one address an attempt connects to. */
export interface Pinned {
  url: URL;
  address: string;
  family: 4 | 6;
}

export interface GuardOptions {
  /** The test-only switch (WEBHOOK_ALLOW_LOOPBACK): loopback receivers, over http or https. */
  allowLoopback: boolean;
  resolve?: Resolve;
}

/** The words for each ipaddr.js range a receiver may not be in; the message names the rule. */
const FORBIDDEN: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (this includes cloud metadata services such as 169.254.169.254)',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10, where some cloud metadata services also live)',
  private: 'a private address (RFC 1918)',
  reserved: 'a reserved, documentation or benchmarking address',
  benchmarking: 'a benchmarking address',
  uniqueLocal: 'a unique-local IPv6 address (fc00::/7, where some cloud metadata services also live)',
  deprecatedSiteLocal: 'a site-local IPv6 address',
};

/** An IPv4 address an IPv6 address carries, and where in it. */
interface Carried {
  form: string;
  ipv4: ipaddr.IPv4;
}

const ipv4At = (bytes: number[], at: number, mask = 0) => new ipaddr.IPv4(bytes.slice(at, at + 4).map((b) => b ^ mask));

/**
 * The IPv4 addresses an IPv6 address carries, by its form, or null for a form that carries none.
 * NAT64 (RFC 6052) puts the address in the last 32 bits under the well-known /96 prefix; under the
 * local-use prefix (64:ff9b:1::/48) that is the common /96 layout, and the prefix is refused anyway.
 */
function carriedIPv4(v6: ipaddr.IPv6): Carried[] | null {
  const bytes = v6.toByteArray();
  const last = ipv4At(bytes, 12);
  switch (v6.range()) {
    case 'ipv4Mapped':
      return [{ form: 'an IPv4-mapped IPv6 address carrying', ipv4: last }];
    case 'rfc6145':
      return [{ form: 'an IPv4-translated IPv6 address carrying', ipv4: last }];
    case 'rfc6052':
      return [{ form: 'a NAT64 address carrying', ipv4: last }];
    case '6to4':
      return [{ form: 'a 6to4 address carrying', ipv4: ipv4At(bytes, 2) }];
    case 'teredo':
      // The Teredo server in bits 32-63; the client's public address in the last 32, inverted.
      return [
        { form: 'a Teredo address whose server is', ipv4: ipv4At(bytes, 4) },
        { form: 'a Teredo address whose client is', ipv4: ipv4At(bytes, 12, 0xff) },
      ];
    case 'unicast':
      // IPv4-compatible (::a.b.c.d, deprecated by RFC 4291 but still connected to); :: and ::1 are ranges of their own.
      return bytes.slice(0, 12).every((b) => b === 0) ? [{ form: 'an IPv4-compatible IPv6 address carrying', ipv4: last }] : null;
    default:
      return null;
  }
}

const LOCAL_USE_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');

/**
 * Parses an address. An IPv6 address written with a dotted IPv4 tail (glibc writes ::7f00:1 as
 * ::127.0.0.1) has its tail rewritten as two hex groups first: ipaddr.js reads `::a.b.c.d` as
 * IPv4-mapped, not as the IPv4-compatible address it is.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const hexTail = address.includes(':')
    ? address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`)
    : address;
  return ipaddr.parse(hexTail);
}

/** Why an address is not public, or null when it is. */
export function nonPublicReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const ip = parseAddress(address);
  const carried = ip.kind() === 'ipv6' ? carriedIPv4(ip as ipaddr.IPv6) : null;
  if (carried !== null) {
    for (const { form, ipv4 } of carried) {
      const reason = rangeReason(ipv4);
      if (reason !== null) return `${form} ${ipv4.toString()}, ${reason}`;
    }
    if (ip.match(LOCAL_USE_NAT64)) return 'a local-use NAT64 address (64:ff9b:1::/48), which reaches only its own network\'s translator';
    return null;
  }
  return rangeReason(ip);
}

function rangeReason(ip: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  const range = ip.range();
  if (range === 'unicast') return null;
  return FORBIDDEN[range] ?? `an address reserved for special use (${range})`;
}

const refuse = (message: string) => invalid('bad_url', message);

/** Strips the brackets the URL parser keeps around an IPv6 literal. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Checks a receiver URL as a person wrote it: the form rules only, no resolution. */
function parseReceiver(text: string, allowLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse(`url must be an absolute https URL such as https://hooks.example.com/evidence, got "${text}"`);
  }
  const plainHttp = url.protocol === 'http:' && allowLoopback;
  if (url.protocol !== 'https:' && !plainHttp) throw refuse(`url must use https, got ${url.protocol.replace(/:$/, '')}`);
  if (url.username !== '' || url.password !== '') {
    throw refuse('url must not carry credentials (user:password@): deliveries are authenticated by their signature, so remove them');
  }
  if (url.hash !== '') throw refuse('url must not carry a fragment (#…): it is never sent to the receiver');
  return url;
}

export interface AddressGuard {
  /**
   * Checks `text` and resolves its host once: answers the URL and the address to connect to, or
   * refuses with `bad_url` naming the rule. Every resolved address must be public, not only the first.
   */
  check(text: string): Promise<Pinned>;
}

export function addressGuard(options: GuardOptions): AddressGuard {
  const resolve = options.resolve ?? systemResolve;
  return {
    async check(text) {
      const url = parseReceiver(text, options.allowLoopback);
      const host = bareHost(url);
      let addresses: ResolvedAddress[];
      if (ipaddr.isValid(host)) {
        addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
      } else {
        try {
          addresses = await resolve(host);
        } catch (err) {
          throw refuse(`the host ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give a host name with a public DNS record`);
        }
        if (addresses.length === 0) throw refuse(`the host ${host} does not resolve to any address`);
      }
      for (const { address } of addresses) {
        const reason = nonPublicReason(address);
        if (reason === null) continue;
        if (options.allowLoopback && reason === FORBIDDEN.loopback) continue;
        const named = address === host ? `the address ${address}` : `the host ${host} resolves to ${address}, which`;
        throw refuse(`${named} is ${reason}; webhook receivers must be on public addresses`);
      }
      if (url.protocol === 'http:' && addresses.some((a) => nonPublicReason(a.address) === null)) {
        throw refuse('url must use https, got http (plain http is accepted only for a loopback receiver under WEBHOOK_ALLOW_LOOPBACK)');
      }
      const [first] = addresses;
      return { url, address: first.address, family: first.family };
    },
  };
}
