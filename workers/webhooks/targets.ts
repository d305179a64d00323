/**
 * Where deliveries may go. Tenants choose webhook URLs, so without a guard the worker
 * could be aimed at the service's own network (cloud metadata, admin ports). Addresses
 * are checked after DNS resolution, in the socket's own lookup, so a name that resolves
 * to a private address is refused at connect time and DNS rebinding gains nothing.
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Loopback, private, link-local, shared, multicast and reserved ranges (IPv4 and IPv6). */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) BLOCKED.addSubnet(net, prefix, 'ipv6');

/** True when an IP address is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !BLOCKED.check(address, 'ipv4');
  if (family !== 6) return false;
  // IPv4-mapped IPv6 (::ffff:10.0.0.1) must be judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? !BLOCKED.check(mapped[1]!, 'ipv4') : !BLOCKED.check(address, 'ipv6');
}

export class BlockedTargetError extends Error {
  readonly code = 'ETARGETBLOCKED';
}

function blocked(host: string): BlockedTargetError {
  return new BlockedTargetError(`${host} is not a public address; deliveries to private networks are not allowed`);
}

/** Checks a URL's host when it is an IP literal (sockets skip the lookup for those). */
export function checkLiteralHost(url: string): BlockedTargetError | null {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return isIP(host) && !isPublicAddress(host) ? blocked(host) : null;
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
