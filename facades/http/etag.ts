/** Strong ETags over the serialised body, and the if-none-match comparison. */
import { createHash } from 'node:crypto';

export function etagOf(payload: string): string {
  return `"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`;
}

/** True when any tag of an if-none-match header (or `*`) matches, weak or strong. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
