/**
 * A DNS stand-in for tests: names answer from a fixed table, so no test reaches the
 * internet. Documentation names (example.com, example.org, example.net and their
 * subdomains) resolve to a public address, `localhost` to loopback; anything else is
 * ENOTFOUND unless the table says otherwise.
 */
import type { HostResolver } from '../../platform/net/targets.ts';

/** A public address standing in for every documentation domain. */
export const PUBLIC_TEST_ADDRESS = '93.184.215.14';

const DEFAULT_TABLE: Record<string, string[]> = { localhost: ['127.0.0.1', '::1'] };

/** A resolver answering from `table` (exact names), then the defaults above. */
export function fakeResolver(table: Record<string, string[]> = {}): HostResolver {
  return async (hostname) => {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    const hit = table[name] ?? DEFAULT_TABLE[name];
    if (hit) return hit;
    if (/(^|\.)example\.(com|org|net)$/.test(name)) return [PUBLIC_TEST_ADDRESS];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
}
