/** Strong ETags over the serialised body, and the if-none-match comparison. */
import { hash } from 'node:crypto';

export function etagOf(payload: string): string {
  // One-shot hash: about half the cost of createHash().update().digest() on every answer.
  return `"${hash('sha256', payload, 'base64url').slice(0, 27)}"`;
}

/** True when any tag of an if-none-match header (or `*`) matches, weak or strong. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
