/**
 * The drug record as resolvers see it: one `products` row mapped to camelCase. Every
 * query that yields drugs selects `PRODUCT_COLUMNS` so the rows map the same way and can
 * prime the per-request drug loader.
 */
import type { Queryable } from '../../platform/db.ts';
import type { DatedDrugInfo } from './dated-record.ts';

/** Where a drug's ATC code came from: its register, or derived by the ingest (docs/catalogue.md). */
export interface AtcCodeSource {
  origin: 'register' | 'derived';
  /** `register`, or how it was derived: signature, inn_name, inn_translated, inn_salt_folded, combination, strength_route. */
  basis: string;
  /** 1 for the register's own code; below 1 for a derived one. */
  confidence: number;
}

/** The register's own code. */
export const REGISTER_ATC_SOURCE: AtcCodeSource = { origin: 'register', basis: 'register', confidence: 1 };

/** The source of a stored product's ATC code: null without a code. */
export function atcCodeSourceOf(atcCode: string | null, basis: string | null | undefined, confidence: number | null | undefined): AtcCodeSource | null {
  if (atcCode === null) return null;
  if (!basis) return REGISTER_ATC_SOURCE;
  return { origin: 'derived', basis, confidence: confidence ?? 0 };
}

export interface DrugRow {
  id: string;
  source: string;
  /** Every source whose rows this record merges (its own first), for `_meta.sources`. */
  sources: string[];
  country: string;
  productName: string;
  brand: string | null;
  generic: boolean | null;
  atcCode: string | null;
  /** Where `atcCode` came from; absent reads as the register's own (dated records). */
  atcCodeSource?: AtcCodeSource | null;
  doseForm: string | null;
  route: string | null;
  holder: string | null;
  marketingStatus: string;
  authorisedOn: string | null;
  reimbursementRatePercent: number | null;
  substanceSignature: string | null;
  medicineSignature: string | null;
  /** Set by search (how the row was found) and left undefined elsewhere. */
  matchedBy?: string;
  /** Set by drugByCode: the pack whose identifier resolved. */
  matchedPackId?: string | null;
  /** Set on a record reconstructed as of a date (`as_of`): its own reader, status and provenance. */
  dated?: DatedDrugInfo;
}

/** Column list of `products p` that `toDrug` reads (dates as text, numerics as float). */
export const PRODUCT_COLUMNS = `p.id, p.source, p.country, p.product_name, p.brand, p.generic, p.atc_code,
  p.atc_code_basis, p.atc_code_confidence::float8 AS atc_code_confidence, p.dose_form,
  p.route, p.holder, p.marketing_status, p.authorised_on::text AS authorised_on,
  p.reimbursement_rate_percent::float8 AS reimbursement_rate_percent, p.substance_signature, p.medicine_signature,
  ARRAY(SELECT x.source FROM products x WHERE x.merged_into = p.id
        UNION SELECT x.source FROM packs own JOIN packs x ON x.merged_into = own.id WHERE own.product_id = p.id) AS merged_sources`;

export interface ProductRecord {
  id: string;
  source: string;
  country: string;
  product_name: string;
  brand: string | null;
  generic: boolean | null;
  atc_code: string | null;
  /** How a derived code was reached (0860_atc_code_links.sql); null for the register's own. */
  atc_code_basis?: string | null;
  atc_code_confidence?: number | null;
  dose_form: string | null;
  route: string | null;
  holder: string | null;
  marketing_status: string;
  authorised_on: string | null;
  reimbursement_rate_percent: number | null;
  substance_signature: string | null;
  medicine_signature: string | null;
  /** Sources of the rows merged into this one (0600_merge.sql). */
  merged_sources?: string[];
}

export function toDrug(row: ProductRecord): DrugRow {
  return {
    id: row.id,
    source: row.source,
    sources: [...new Set([row.source, ...(row.merged_sources ?? [])])],
    country: row.country,
    productName: row.product_name,
    brand: row.brand,
    generic: row.generic,
    atcCode: row.atc_code,
    atcCodeSource: atcCodeSourceOf(row.atc_code, row.atc_code_basis, row.atc_code_confidence),
    doseForm: row.dose_form,
    route: row.route,
    holder: row.holder,
    marketingStatus: row.marketing_status,
    authorisedOn: row.authorised_on,
    reimbursementRatePercent: row.reimbursement_rate_percent,
    substanceSignature: row.substance_signature,
    medicineSignature: row.medicine_signature,
  };
}

/** Drugs by id in one query, in key order, null for unknown ids. */
export async function loadDrugs(db: Queryable, ids: readonly string[]): Promise<Array<DrugRow | null>> {
  // The id of a product another source's row represents answers with the representative.
  const { rows } = await db.query<ProductRecord & { requested: string }>(
    `SELECT m.id AS requested, ${PRODUCT_COLUMNS} FROM products m JOIN products p ON p.id = coalesce(m.merged_into, m.id)
      WHERE m.id = ANY($1::uuid[])`,
    [ids],
  );
  const byId = new Map(rows.map((r) => [r.requested, toDrug(r)]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** True for a canonical uuid string (GraphQL ID arguments are not validated otherwise). */
export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
