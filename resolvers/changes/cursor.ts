/**
 * Opaque feed cursors: a keyset position `(occurred_at, id)` plus an HMAC, base64url.
 * The MAC makes an edited cursor a 422 instead of a silently different position, and the
 * encoding keeps clients from building positions by hand.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { validationError } from '../../platform/errors.ts';
import type { Position } from './records.ts';

const VERSION = 'c1';
const MAC_BYTES = 16; // 128-bit tag: far beyond guessing, keeps cursors short
const POSITION = /^(-infinity|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(`${VERSION}.${payload}`).digest().subarray(0, MAC_BYTES);
}

/** Encodes a position as an opaque cursor. */
export function encodeCursor(key: Buffer, position: Position): string {
  const payload = `${position.occurredAt}|${position.id.toLowerCase()}`;
  return `${VERSION}.${Buffer.from(payload).toString('base64url')}.${mac(key, payload).toString('base64url')}`;
}

function rejected(): Error {
  return validationError('The cursor is malformed or was altered; pass next_cursor exactly as a previous page returned it.', [
    { location: 'query', field: 'cursor', message: 'is not a cursor this service issued' },
  ]);
}

/** Decodes a cursor; a malformed or tampered one is a 422 `validation`. */
export function decodeCursor(key: Buffer, cursor: string): Position {
  const [version, body, tag, extra] = cursor.split('.');
  if (version !== VERSION || !body || !tag || extra !== undefined) throw rejected();
  const payload = Buffer.from(body, 'base64url').toString('utf8');
  const given = Buffer.from(tag, 'base64url');
  const expected = mac(key, payload);
  // Re-encoding catches non-canonical base64url that would decode to the same bytes.
  if (Buffer.from(payload).toString('base64url') !== body || given.toString('base64url') !== tag) throw rejected();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw rejected();
  const match = POSITION.exec(payload);
  if (!match) throw rejected();
  return { occurredAt: match[1]!, id: match[2]! };
}
