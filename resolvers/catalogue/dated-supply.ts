/**
 * Supply as it stood at an instant (`as_of`), from the `pack_supply` records of the change
 * log the history statement read (change-history.ts): for each publication the last record
 * of a code at or before the instant, its `after` (null once the publication stopped listing
 * the code); the worst report shows, as today. `fetchedAt` is when drugref recorded it.
 */
import type { SupplyStatus } from '../../vocabulary/supply.ts';
import { worstStatus } from '../../vocabulary/supply.ts';
import type { Version } from './change-history.ts';
import { worstSupply } from './supply-rows.ts';
import type { PackSupply } from './supply-rows.ts';

type Json = Record<string, unknown>;

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function toSupply(version: Version): PackSupply | null {
  const after = version.image as Json | null;
  const status = text(after?.status) as SupplyStatus | null;
  if (!after || !status) return null;
  return {
    status, reason: text(after.reason), since: text(after.since), expectedUntil: text(after.expected_until), source: version.source,
    fetchedAt: version.at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

/** The codes an image lists (`identifiers: [{ system, code }]`). */
export function imageCodes(image: Json | null | undefined): string[] {
  const list = Array.isArray(image?.identifiers) ? (image.identifiers as Json[]) : [];
  return list.flatMap((i) => (typeof i.system === 'string' && typeof i.code === 'string' ? [`${i.system}|${i.code}`] : []));
}

/** The worst report on any of `codes` at `at`; null when none stood then. */
export function supplyAt(history: ReadonlyMap<string, Version[]>, codes: readonly string[], at: Date): PackSupply | null {
  const reports: Array<PackSupply | null> = [];
  for (const code of new Set(codes)) {
    const bySource = new Map<string, Version>();
    for (const v of history.get(code) ?? []) if (v.at.getTime() <= at.getTime()) bySource.set(v.source, v);
    for (const v of bySource.values()) reports.push(toSupply(v));
  }
  return worstSupply(reports);
}

/** A product's supply status at `at`: the worst of its packs' supply and of reports on its own codes. */
export function supplyStatusAt(packs: ReadonlyArray<PackSupply | null>, own: PackSupply | null): SupplyStatus | null {
  return worstStatus([...packs, own].map((s) => s?.status));
}
