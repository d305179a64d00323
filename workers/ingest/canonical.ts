/**
 * Canonical JSON and content hashes of normalised records. The engine compares a snapshot
 * entry with its stored row by hash, so the same content must always give the same text:
 * object keys sorted, `undefined` and `null` members dropped (a missing optional field and
 * an explicit null mean the same), array order kept (it is meaningful: ingredient position).
 */
import { createHash } from 'node:crypto';

/** A JSON value as it is stored in a `record` column. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Deep copy with sorted keys and without undefined/null object members. */
export function canonicalise(value: unknown): JsonValue {
  if (Array.isArray(value)) return value.map((v) => canonicalise(v));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, JsonValue> = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined && member !== null) out[key] = canonicalise(member);
    }
    return out;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
  return value as JsonValue;
}

/** JSON text of the canonical form. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalise(value));
}

/** SHA-256 (hex) of the canonical JSON: the `content_hash` of catalogue rows. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
