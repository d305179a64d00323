/**
 * A drug record as it stood at a date, built from the change log's images (dated-drug.ts
 * chooses the images): the product image gives the product fields, facts, ingredients,
 * registration identifiers, monographs and classes; each pack image its identifiers, prices
 * and SL entry. The record carries its own reader (reader.ts), so the ordinary Drug and Pack
 * field resolvers answer it. Vocabulary that is not a register's record (substance names,
 * ATC labels, class labels) is today's.
 */
import DataLoader from 'dataloader';
import { withOverrides } from '../../platform/lazy-group.ts';
import type { RequestContext } from '../context.ts';
import type { DrugRow } from './drug-rows.ts';
import { addFacts } from './facts.ts';
import type { ProductFacts } from './facts.ts';
import type { ClassRefRow, IdentifierRow, IngredientRow, MonographRow, PackRow, PriceRow } from './loaders.ts';
import type { CatalogueReader } from './reader.ts';
import type { CentralAuthorisation } from './central-authorisation.ts';
import type { Version } from './change-history.ts';
import { atcChainNodes, atcChainSql, primeAtcNodes } from './record-rows.ts';
import { SUBSTANCE_COLUMNS } from './substances.ts';
import type { SubstanceRow } from './substances.ts';
import type { NodeRow } from '../classification/atc.ts';
import type { RecallRef, StatusSpan } from './dated-status.ts';
import type { PackSupply } from './supply-rows.ts';
import type { SupplyStatus } from '../../vocabulary/supply.ts';

/** The `as_of` block of a dated record: the instant answered and the record's own status then. */
export interface DrugAsOf {
  requested: string;
  at: Date;
  status: string;
  statusReason: string | null;
  statusSince: Date | null;
  statusUntil: Date | null;
  recall: RecallRef | null;
  /** When drugref recorded the version of the record shown (null when none is recorded). */
  recordedAt: Date | null;
}

/** What `_meta` adds for a dated answer. */
export interface DatedMeta {
  asOf: Date;
  /** From when the whole answer is known: the latest history start of its sources. */
  historyStarts: Date | null;
}

/** The dated part of a pack: its status span and, when rebuilt from the log, its own lists as they stood. */
export interface DatedPackInfo {
  span: StatusSpan;
  /** Its supply as it stood then (dated-supply.ts); absent on a record without history, which shows none. */
  supply?: PackSupply | null;
  identifiers?: IdentifierRow[];
  prices?: PriceRow[];
}

export type DatedPackRow = PackRow & { dated?: DatedPackInfo };

/** A record of a date: the ordinary drug row plus its reader, status and provenance. */
export interface DatedDrugInfo {
  reader: CatalogueReader;
  asOf: DrugAsOf;
  meta: DatedMeta;
  /** Supply status then; absent on a record without history, which shows none. */
  supplyStatus?: SupplyStatus | null;
}

/** A pack of the record with the version shown and its status at the instant asked. */
export interface DatedPackPart {
  id: string;
  version: Version;
  span: StatusSpan;
  supply: PackSupply | null;
}

export interface DatedDrugParts {
  id: string;
  source: string;
  /** Full product image of the version shown. */
  image: Record<string, unknown>;
  /** Its classes with today's labels. */
  classes: ClassRefRow[];
  packs: DatedPackPart[];
  matchedPackId: string | null;
  asOf: DrugAsOf;
  meta: DatedMeta;
  /** The product's supply status then: its packs' and its own codes' reports. */
  supplyStatus: SupplyStatus | null;
  /** Sources contributing to the answer (the product's, and a recall's). */
  sources: string[];
}

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => x !== null && typeof x === 'object') : []);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : null);

/** A reader answering from fixed maps (one record), in the DataLoader shape the field resolvers use. */
function fixed<V>(values: ReadonlyMap<string, V>, missing: V): DataLoader<string, V> {
  return new DataLoader<string, V>(async (keys) => keys.map((k) => (values.has(k) ? values.get(k)! : missing)), { cache: false });
}

function identifierRows(image: Json | null, packId: string | null): IdentifierRow[] {
  return list(image?.identifiers).map((i) => ({
    system: String(i.system), code: String(i.code), packId,
    validFrom: text(i.valid_from), validTo: text(i.valid_to), previous: i.previous === true,
  })).sort((a, b) => (a.system === b.system ? (a.code < b.code ? -1 : 1) : a.system < b.system ? -1 : 1));
}

/** One price per kind, the first of a kind winning (as write-packs.ts stores them). */
function priceRows(image: Json): PriceRow[] {
  const byKind = new Map<string, PriceRow>();
  for (const p of list(image.prices)) {
    const amount = num(p.amount);
    if (amount === null || byKind.has(String(p.kind))) continue;
    byKind.set(String(p.kind), { kind: String(p.kind), amount, currency: String(p.currency), validFrom: text(p.valid_from) });
  }
  return [...byKind.values()];
}

function packRow(part: DatedPackPart, productId: string): DatedPackRow {
  const image = part.version.image ?? {};
  return {
    id: part.id, productId, source: part.version.source, sources: [part.version.source],
    description: text(image.description) ?? '', units: num(image.units), unit: text(image.unit),
    marketingStatus: text(image.marketing_status) ?? 'active', sl: image.sl ?? null,
    dispensingCategory: text(image.dispensing_category), narcoticList: text(image.narcotic_list), availability: text(image.availability),
    tariffCategory: text(image.tariff_category),
    dated: { span: part.span, supply: part.supply, identifiers: identifierRows(image, part.id), prices: priceRows(image) },
  };
}

/** Packs in the order of the packs loader: units, description, id. */
function comparePacks(a: PackRow, b: PackRow): number {
  if (a.units !== b.units) return a.units === null ? 1 : b.units === null ? -1 : a.units - b.units;
  if (a.description !== b.description) return a.description < b.description ? -1 : 1;
  return a.id < b.id ? -1 : 1;
}

/** A JSON array field of the image in SQL (an empty array when the image lacks it or holds another type). */
const imageArray = (field: string) => `CASE jsonb_typeof(c.after -> '${field}') WHEN 'array' THEN c.after -> '${field}' ELSE '[]'::jsonb END`;

/**
 * The full image of one product version with today's vocabulary it names: the substances of
 * its ingredients, the labels of its classes, its ATC code's chain. `$1` is the change id.
 */
export const DATED_IMAGE_SQL = `SELECT c.after AS image,
    (SELECT json_agg(s) FROM (SELECT ${SUBSTANCE_COLUMNS} FROM substances s
       WHERE s.unii IN (SELECT e ->> 'unii' FROM jsonb_array_elements(${imageArray('ingredients')}) e)) s) AS substances,
    (SELECT json_agg(x) FROM (SELECT DISTINCT cl.system, cl.code, cl.label FROM classes cl
       JOIN jsonb_array_elements(${imageArray('classes')}) e ON cl.system = e ->> 'system' AND cl.code = e ->> 'code') x) AS classes,
    (SELECT json_agg(n) FROM (${atcChainSql("upper(c.after ->> 'atc_code')")}) n) AS atc
  FROM changes c WHERE c.id = $1::uuid`;

/** A product version's image and its class labels; the substance and ATC loaders are primed with what it names. */
export interface DatedImage {
  image: Json;
  classes: ClassRefRow[];
}

/** Reads `DATED_IMAGE_SQL` and primes the request's loaders, so the record's fields cost no further round trip. */
export async function readDatedImage(ctx: RequestContext, changeId: string): Promise<DatedImage> {
  const { rows } = await ctx.db.query<{ image: Json | null; substances: SubstanceRow[] | null; classes: ClassRefRow[] | null; atc: NodeRow[] | null }>(
    DATED_IMAGE_SQL, [changeId], { prepare: true },
  );
  const row = rows[0];
  const image = row?.image ?? {};
  const substances = new Map((row?.substances ?? []).map((s) => [s.unii, s]));
  for (const e of list(image.ingredients)) ctx.loaders.catalogue.substance.prime(String(e.unii), substances.get(String(e.unii)) ?? null);
  primeAtcNodes(ctx, atcChainNodes(text(image.atc_code)?.toUpperCase() ?? null, row?.atc ?? null));
  return { image, classes: classRows(image, row?.classes ?? []) };
}

async function ingredientRows(ctx: RequestContext, image: Json): Promise<IngredientRow[]> {
  const entries = list(image.ingredients);
  const substances = await ctx.loaders.catalogue.substance.loadMany(entries.map((e) => String(e.unii)));
  return entries.map((e, i) => {
    const s = substances[i];
    const known = s && !(s instanceof Error) ? s : null;
    return { unii: String(e.unii), name: known?.name ?? null, moietyUnii: known?.moietyUnii ?? null, strengthValue: num(e.strength_value), strengthUnit: text(e.strength_unit) };
  });
}

/** The image's classes with today's labels (the code where the class is unknown), once each, by system and code. */
function classRows(image: Json, labelled: readonly ClassRefRow[]): ClassRefRow[] {
  const refs = list(image.classes).map((c) => ({ system: String(c.system), code: String(c.code) }));
  const labels = new Map(labelled.map((r) => [`${r.system}|${r.code}`, r.label]));
  const unique = new Map(refs.map((r) => [`${r.system}|${r.code}`, { ...r, label: labels.get(`${r.system}|${r.code}`) ?? r.code }]));
  return [...unique.values()].sort((a, b) => (a.system === b.system ? (a.code < b.code ? -1 : 1) : a.system < b.system ? -1 : 1));
}

function monographs(id: string, image: Json): Map<string, MonographRow> {
  const out = new Map<string, MonographRow>();
  for (const m of list(image.monographs)) {
    const key = `${id}|${String(m.lang)}`;
    if (!out.has(key)) out.set(key, { productId: id, lang: String(m.lang), title: text(m.title) ?? '', sections: (m.sections ?? {}) as Record<string, string> });
  }
  return out;
}

function buildReader(id: string, image: Json, packs: DatedPackRow[], ingredients: IngredientRow[], classes: ClassRefRow[]): CatalogueReader {
  const texts = monographs(id, image);
  const one = <V>(value: V) => new Map([[id, value]]);
  const identifiers = [...identifierRows(image, null), ...[...packs].sort((a, b) => (a.id < b.id ? -1 : 1)).flatMap((p) => p.dated!.identifiers!)];
  return {
    ingredients: fixed(one(ingredients), []),
    facts: fixed<ProductFacts>(one(addFacts({}, image)), {}),
    identifiers: fixed(one(identifiers), []),
    packs: fixed(one(packs), []),
    pack: fixed<PackRow | null>(new Map(packs.map((p) => [p.id, p])), null),
    monographLanguages: fixed(one([...texts.values()].map((m) => m.lang).sort()), []),
    monograph: fixed<MonographRow | null>(texts, null),
    productClasses: fixed(one(classes), []),
    // A cross-register link (the EMA record) is not a register fact of the date: not reconstructed.
    centralAuthorisation: fixed<CentralAuthorisation | null>(new Map(), null),
    packIdentifiers: fixed(new Map(packs.map((p) => [p.id, p.dated!.identifiers!])), []),
    prices: fixed(new Map(packs.map((p) => [p.id, p.dated!.prices!])), []),
  };
}

/** The drug row of a dated record, answering through its own reader. */
export async function datedDrugRow(ctx: RequestContext, parts: DatedDrugParts): Promise<DrugRow> {
  const { id, image } = parts;
  const packs = parts.packs.map((p) => packRow(p, id)).sort(comparePacks);
  const ingredients = await ingredientRows(ctx, image);
  const classes = parts.classes;
  const rates = parts.packs.map((p) => num(p.version.image?.reimbursement_rate_percent)).filter((r): r is number => r !== null);
  return {
    id, source: parts.source, sources: parts.sources, country: String(image.country),
    productName: text(image.product_name) ?? '', brand: text(image.brand), generic: typeof image.generic === 'boolean' ? image.generic : null,
    atcCode: text(image.atc_code)?.toUpperCase() ?? null, doseForm: text(image.dose_form), route: text(image.route), holder: text(image.holder),
    marketingStatus: text(image.marketing_status) ?? 'active', authorisedOn: text(image.authorised_on),
    reimbursementRatePercent: rates.length > 0 ? Math.max(...rates) : null,
    substanceSignature: null, medicineSignature: null, matchedPackId: parts.matchedPackId,
    dated: { reader: buildReader(id, image, packs, ingredients, classes), asOf: parts.asOf, meta: parts.meta, supplyStatus: parts.supplyStatus },
  };
}

/**
 * Today's record marked as having no recorded history (rows written outside the ingest
 * engine): every status is `unknown`, the record is the current one.
 */
export function undatedRecord(ctx: RequestContext, drug: DrugRow, asOf: { requested: string; at: Date }): DrugRow {
  const span: StatusSpan = { status: 'unknown', reason: 'no_history', since: null, until: null };
  const current = ctx.loaders.catalogue;
  const mark = (p: PackRow | null): DatedPackRow | null => p && { ...p, dated: { span } };
  const reader: CatalogueReader = withOverrides<CatalogueReader>(current, {
    packs: new DataLoader(async (ids) => Promise.all(ids.map(async (pid) => (await current.packs.load(pid)).map((p) => mark(p)!))), { cache: false }),
    pack: new DataLoader(async (ids) => Promise.all(ids.map(async (pid) => mark(await current.pack.load(pid)))), { cache: false }),
  });
  const asOfBlock: DrugAsOf = { ...asOf, status: 'unknown', statusReason: 'no_history', statusSince: null, statusUntil: null, recall: null, recordedAt: null };
  return { ...drug, dated: { reader, asOf: asOfBlock, meta: { asOf: asOf.at, historyStarts: null } } };
}
