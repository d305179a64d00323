/**
 * A pack's supply as shortage publications report it (migrations/0320_supply.sql), joined
 * through the identifiers the pack (or, for an authorisation-level report, its product) carries.
 * Where several publications report one pack, the worst status shows, then the freshest.
 * The same statements serve the per-field loaders and the drug record's one statement.
 */
import DataLoader from 'dataloader';
import type { Queryable } from '../../platform/db.ts';
import { supplySeverity } from '../../vocabulary/supply.ts';
import type { SupplyStatus } from '../../vocabulary/supply.ts';

/**
 * The reports on marketed pack `k` of product `p` (SQL, for a subquery): on the pack's codes and
 * on the product's own (a notice without pack code: a French CIS, an Austrian restriction
 * without PZN), so a pack whose whole medicine is short counts short and is never offered as
 * an alternative.
 */
export const REPORTS_OF_PACK = `SELECT s.* FROM identifiers i JOIN pack_supply s ON s.system = i.system AND s.code = i.code WHERE i.pack_id = k.id
  UNION ALL SELECT s.* FROM identifiers i JOIN pack_supply s ON s.system = i.system AND s.code = i.code WHERE i.drug_id = p.id AND i.pack_id IS NULL`;

export interface PackSupply {
  status: SupplyStatus;
  reason: string | null;
  since: string | null;
  expectedUntil: string | null;
  source: string;
  fetchedAt: string;
}

const SUPPLY_COLUMNS = `s.status, s.reason, s.since::text AS since, s.expected_until::text AS "expectedUntil", s.source,
  to_char(s.fetched_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "fetchedAt"`;
const WORST_FIRST = 'supply_severity(s.status) DESC, s.fetched_at DESC, s.source';

export const SUPPLY_SQL = {
  /** One row per representative pack of `ids` (packs, or packs merged into them) that a publication reports. */
  packSupply: (ids: string) => `SELECT DISTINCT ON (1) coalesce(k.merged_into, k.id) AS "packId", ${SUPPLY_COLUMNS}
         FROM packs k JOIN identifiers i ON i.pack_id = k.id JOIN pack_supply s ON s.system = i.system AND s.code = i.code
        WHERE k.id = ANY(${ids}) OR k.merged_into = ANY(${ids})
        ORDER BY 1, ${WORST_FIRST}`,
  /** Reports on a product's authorisation (no pack named), one per representative product of `ids`. */
  productSupply: (ids: string) => `SELECT DISTINCT ON (1) coalesce(p.merged_into, p.id) AS "productId", ${SUPPLY_COLUMNS}
         FROM products p JOIN identifiers i ON i.drug_id = p.id AND i.pack_id IS NULL
         JOIN pack_supply s ON s.system = i.system AND s.code = i.code
        WHERE p.id = ANY(${ids}) OR p.merged_into = ANY(${ids})
        ORDER BY 1, ${WORST_FIRST}`,
};

export type PackSupplyRow = PackSupply & { packId: string };
export type ProductSupplyRow = PackSupply & { productId: string };

/** The supply without the key it was read by. */
export function toSupply<R extends PackSupply>(row: R | undefined): PackSupply | null {
  if (!row) return null;
  const { status, reason, since, expectedUntil, source, fetchedAt } = row;
  return { status, reason, since, expectedUntil, source, fetchedAt };
}

export function packSupplyLoader(db: Queryable) {
  return new DataLoader<string, PackSupply | null>(async (ids) => {
    const { rows } = await db.query<PackSupplyRow>(SUPPLY_SQL.packSupply('$1::uuid[]'), [ids]);
    const byId = new Map(rows.map((r) => [r.packId, r]));
    return ids.map((id) => toSupply(byId.get(id)));
  });
}

export function productSupplyLoader(db: Queryable) {
  return new DataLoader<string, PackSupply | null>(async (ids) => {
    const { rows } = await db.query<ProductSupplyRow>(SUPPLY_SQL.productSupply('$1::uuid[]'), [ids]);
    const byId = new Map(rows.map((r) => [r.productId, r]));
    return ids.map((id) => toSupply(byId.get(id)));
  });
}

/** The worst of several reports (then the most recently recorded); null when none. */
export function worstSupply(supplies: ReadonlyArray<PackSupply | null>): PackSupply | null {
  let worst: PackSupply | null = null;
  for (const s of supplies) {
    if (!s) continue;
    if (!worst || supplySeverity(s.status) > supplySeverity(worst.status) || (s.status === worst.status && s.fetchedAt > worst.fetchedAt)) worst = s;
  }
  return worst;
}
