/**
 * The one outbound address policy: which addresses tenant- or publisher-chosen URLs may
 * reach. Webhook creation (refuses the URL up front), webhook delivery and the register
 * sync download (both re-check in the socket's own DNS lookup, because DNS can change
 * between creation and delivery, and redirects can point anywhere) all ask this module.
 *
 * Ranges come from ipaddr.js (the IANA special-purpose registries, kept by its
 * maintainers) rather than hand-written bit masks. What ipaddr.js leaves to the caller is
 * the IPv6 forms that carry an IPv4 address: those are judged by the IPv4 they carry.
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

function ipv4Of(hi: number, lo: number): IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/**
 * The IPv4 address an IPv6 address stands for, when it is one of the embedding forms:
 * IPv4-mapped (::ffff:a.b.c.d), NAT64 well-known prefix (64:ff9b::/96), 6to4 (2002::/16,
 * the IPv4 in bits 16–47) and the deprecated IPv4-compatible form (::a.b.c.d).
 */
export function embeddedIpv4(address: IPv6): IPv4 | null {
  const p = address.parts;
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  const range = address.range();
  // Only the /96 well-known prefix embeds in the last 32 bits; 64:ff9b:1::/48 is local-use (refused whole).
  if (range === 'rfc6052' && p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0)) return ipv4Of(p[6]!, p[7]!);
  if (range === '6to4') return ipv4Of(p[1]!, p[2]!);
  // ::/128 and ::1 are unspecified and loopback in their own right; ipaddr.js calls ::a.b.c.d "unicast".
  if (range === 'unicast' && p.slice(0, 6).every((x) => x === 0)) return ipv4Of(p[6]!, p[7]!);
  return null;
}

/**
 * True when an IP address is ordinary public unicast: not loopback, private, link-local,
 * shared (CGNAT 100.64/10), multicast, broadcast, unspecified, documentation, benchmarking
 * or otherwise reserved — in IPv4, in IPv6, and in IPv6 forms that embed IPv4. Anything
 * that is not a canonical IP literal (as DNS answers and URL hosts are) is not public.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 0) return false;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v4 = embeddedIpv4(parsed as IPv6);
  return v4 ? v4.range() === 'unicast' : parsed.range() === 'unicast';
}

/** Resolves a host name to its addresses (all families). Injected so tests never reach DNS. */
export type HostResolver = (hostname: string) => Promise<string[]>;

/** The system resolver (getaddrinfo, like the sockets that later connect). */
export const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses.map((a) => a.address))));
  });

/** Why a URL's target was refused, phrased for the client who chose it. */
export class BlockedTargetError extends Error {
  readonly code = 'ETARGETBLOCKED';
}

function blocked(host: string): BlockedTargetError {
  return new BlockedTargetError(`${host} is not a public address; deliveries to private networks are not allowed`);
}

/** The URL's host without IPv6 brackets. WHATWG parsing already turned 0x7f.1, 2130706433 and 0177.0.0.1 into 127.0.0.1. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** Checks a URL's host when it is an IP literal (sockets skip the lookup for those). */
export function checkLiteralHost(url: string): BlockedTargetError | null {
  const host = hostOf(new URL(url));
  return isIP(host) && !isPublicAddress(host) ? blocked(host) : null;
}

/** Longest wait for DNS at webhook creation; the request must not hang on a slow resolver. */
export const RESOLVE_TIMEOUT_MS = 5_000;

/**
 * Checks that a URL's host is, or resolves only to, public addresses: null when it does,
 * otherwise the reason. Every address must be public, since a client connects to any of them.
 */
export async function checkTargetHost(url: URL, resolve: HostResolver, timeoutMs = RESOLVE_TIMEOUT_MS): Promise<string | null> {
  const host = hostOf(url);
  if (isIP(host)) return isPublicAddress(host) ? null : `host ${host} is not a public address`;
  let addresses: string[];
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
    });
    addresses = await Promise.race([resolve(host), timeout]);
  } catch {
    return `host ${host} could not be resolved`;
  } finally {
    clearTimeout(timer);
  }
  if (!addresses.length) return `host ${host} could not be resolved`;
  const inner = addresses.find((a) => !isPublicAddress(a));
  return inner ? `host ${host} resolves to ${inner}, which is not a public address` : null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `dns.lookup` replacement for sockets that refuses names resolving to non-public addresses. */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    if (!list.length || list.some((a) => !isPublicAddress(a.address))) return callback(blocked(hostname), []);
    if (options.all) return callback(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  });
}
