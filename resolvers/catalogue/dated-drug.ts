/**
 * Drug records as of a date (`as_of` on GET /v1/drugs/{id}, /v1/drugs/lookup and
 * /v1/packs/{system}/{code}; docs/api-decisions.md "Identifier status as of a date"),
 * reconstructed from the change log: which product and packs the registers listed then,
 * their images then, and each pack's status at that instant with the span it held.
 *
 * A dated record is one register row's history: merging sources (merge.ts) writes no change
 * record, so the dated answer is the row a lookup prefers (today's representative where it
 * still exists), not the merge of every register describing the pack.
 */
import { createHash } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import type { AsOf } from './as-of.ts';
import { keyOf, readHistory, versionAt } from './change-history.ts';
import type { HistoryBundle, RecordKey, Version } from './change-history.ts';
import { datedDrugRow, readDatedImage, undatedRecord } from './dated-record.ts';
import { imageCodes, supplyAt, supplyStatusAt } from './dated-supply.ts';
import type { DatedPackPart, DrugAsOf } from './dated-record.ts';
import { eventTimes, lists, packStatusAt, productStatusAt, recallsByProduct, spanAt } from './dated-status.ts';
import type { CodeMatch, Histories, StatusSpan } from './dated-status.ts';
import { isUuid } from './drug-rows.ts';
import type { DrugRow } from './drug-rows.ts';
import { normaliseLookup, storedSystems } from './lookup.ts';
import { loadRecord, recordByCode } from './record-rows.ts';

/** A pack the lookup matched: its record key and the code it matched by. */
interface Matched {
  key: RecordKey;
  match: CodeMatch;
}

/**
 * A stable id for a pack no longer in the catalogue (its row and uuid are gone; the log keys it
 * by source and natural key): name-based, uuid-shaped (version 5 layout over SHA-256).
 */
export function derivedPackId(key: RecordKey): string {
  const h = createHash('sha256').update(`drugref:pack\u0000${key.source}\u0000${key.key}`).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The histories the statuses of one product and its packs read, out of a bundle that may
 * hold more (every product a code ever belonged to): the packs that ever belonged to the
 * product (and the pack a code matched), every product those packs belonged to, the recalls
 * naming them.
 */
function historiesOf(ctx: RequestContext, bundle: HistoryBundle, productId: string, extraPack: RecordKey | null) {
  const extra = extraPack ? keyOf(extraPack) : null;
  const packs = new Map([...bundle.packs].filter(([key, vs]) => key === extra || vs.some((v) => v.drugId === productId)));
  const productIds = [...new Set([productId, ...productIdsOf([...packs.values()].flat())])];
  const products = new Map(productIds.filter((id) => bundle.products.has(id)).map((id) => [id, bundle.products.get(id)!]));
  // `_meta.sources[].history_starts` reads the same starts through the loader: no second statement.
  for (const [source, start] of bundle.starts) ctx.loaders.catalogue.historyStart.prime(source, start);
  const h: Histories = { products, recalls: recallsByProduct(bundle.recalls, productIds), starts: bundle.starts };
  return { h, packs };
}

const productIdsOf = (versions: readonly Version[]): string[] => [...new Set(versions.map((v) => v.drugId).filter((id): id is string => id !== null))];

/** A pack's status span at `at`; with `match`, as the holder of that code. */
function packSpan(h: Histories, versions: Version[], at: Date, match?: CodeMatch): StatusSpan {
  const events = eventTimes(h, versions, productIdsOf(versions), versions[0]!.source);
  return spanAt(events, at, (t) => packStatusAt(h, versions, t, match));
}

/** The version of a record to show at `at`: the one in force, else the last listed before, else the first listed after. */
function shownVersion(versions: readonly Version[], at: Date, match?: CodeMatch): Version | null {
  const v = versionAt(versions, at);
  if (lists(v, match)) return v;
  const before = versions.filter((x) => x.at.getTime() <= at.getTime() && lists(x, match)).pop();
  return before ?? versions.find((x) => lists(x, match)) ?? null;
}

/**
 * Builds the record of product `productId` as shown at `recordAt` (the instant asked when it
 * was listed then, else its nearest listed version) with every status taken at `asOf.at`.
 */
async function assemble(ctx: RequestContext, bundle: HistoryBundle, productId: string, recordAt: Date, asOf: AsOf, matched: Matched | null): Promise<DrugRow | null> {
  const { h, packs } = historiesOf(ctx, bundle, productId, matched?.key ?? null);
  const versions = h.products.get(productId) ?? [];
  const product = shownVersion(versions, recordAt);
  if (!product) return null;
  const source = product.source;
  const { image, classes } = await readDatedImage(ctx, product.id);
  const listed = [...packs.entries()].filter(([, vs]) => {
    const v = versionAt(vs, recordAt);
    return lists(v) && v.drugId === productId;
  });
  const parts: DatedPackPart[] = listed.map(([key, vs]) => {
    const version = versionAt(vs, recordAt)!;
    return {
      id: bundle.currentPackIds.get(key) ?? derivedPackId(vs[0]!), version,
      span: packSpan(h, vs, asOf.at, matched && keyOf(matched.key) === key ? matched.match : undefined),
      supply: supplyAt(bundle.supply, imageCodes(version.image), asOf.at),
    };
  });
  const matchedPart = matched ? parts.find((p) => keyOf(p.version) === keyOf(matched.key)) ?? null : null;
  const own = matchedPart?.span
    ?? spanAt(eventTimes(h, versions, [productId], source), asOf.at, (t) => productStatusAt(h, productId, source, t));
  const sources = [...new Set([source, ...(own.recall ? [own.recall.source] : [])])];
  const starts = sources.map((s) => h.starts.get(s));
  const block: DrugAsOf = {
    requested: asOf.requested, at: asOf.at, status: own.status, statusReason: own.reason, statusSince: own.since, statusUntil: own.until,
    recall: own.recall ?? null, recordedAt: product.at,
  };
  return datedDrugRow(ctx, {
    id: productId, source, image, classes, packs: parts, matchedPackId: matchedPart?.id ?? null, asOf: block, sources,
    supplyStatus: supplyStatusAt(parts.map((p) => p.supply), supplyAt(bundle.supply, imageCodes(image), asOf.at)),
    meta: { asOf: asOf.at, historyStarts: starts.some((s) => !s) ? null : new Date(Math.max(...starts.map((s) => s!.getTime()))) },
  });
}

/** GET /v1/drugs/{id}?as_of: the product (today's representative for a merged id) as it stood. */
export async function datedDrugById(ctx: RequestContext, id: string, asOf: AsOf): Promise<DrugRow | null> {
  if (!isUuid(id)) return null;
  const wanted = id.toLowerCase();
  const bundle = await readHistory(ctx.db, { productId: wanted });
  const productId = bundle.productId ?? wanted;
  const versions = bundle.products.get(productId);
  if (!versions) {
    // No recorded history: today's record (primed, one statement) answers, marked as such.
    const current = await loadRecord(ctx, wanted);
    return current ? undatedRecord(ctx, current, asOf) : null;
  }
  const shown = shownVersion(versions, asOf.at);
  const recordAt = shown && lists(versionAt(versions, asOf.at)) ? asOf.at : (shown?.at ?? asOf.at);
  return assemble(ctx, bundle, productId, recordAt, asOf, null);
}

interface Candidate {
  table: 'products' | 'packs';
  key: RecordKey;
  shown: Version;
  listed: boolean;
}

/** Lookup preference at the date: listed then, pack-level, today's representative row, not withdrawn, then by key. */
function rank(c: Candidate, representatives: Set<string>): Array<number | string> {
  return [c.listed ? 0 : 1, c.table === 'packs' ? 0 : 1, representatives.has(`${c.table}|${keyOf(c.key)}`) ? 0 : 1,
    c.shown.image?.marketing_status === 'withdrawn' ? 1 : 0, c.key.source, c.key.key];
}

function compareRanks(a: Array<number | string>, b: Array<number | string>): number {
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/** GET /v1/drugs/lookup?as_of and /v1/packs/{system}/{code}?as_of: the record holding the code then. */
export async function datedDrugByCode(ctx: RequestContext, system: string, code: string, asOf: AsOf): Promise<DrugRow | null> {
  const match: CodeMatch = { systems: storedSystems(system), code: normaliseLookup(system, code) };
  const bundle = await readHistory(ctx.db, match);
  if (bundle.codeRecords.length === 0) {
    const current = await recordByCode(ctx, system, code);
    return current ? undatedRecord(ctx, current, asOf) : null;
  }
  const candidates: Candidate[] = [];
  for (const r of bundle.codeRecords) {
    const versions = (r.table === 'packs' ? bundle.packs : bundle.codeProducts).get(keyOf(r)) ?? [];
    const shown = shownVersion(versions, asOf.at, match);
    if (shown) candidates.push({ table: r.table, key: { source: r.source, key: r.key }, shown, listed: lists(versionAt(versions, asOf.at), match) });
  }
  if (candidates.length === 0) return null;
  const best = candidates.sort((a, b) => compareRanks(rank(a, bundle.representatives), rank(b, bundle.representatives)))[0]!;
  const recordAt = best.listed ? asOf.at : best.shown.at;
  return assemble(ctx, bundle, best.shown.drugId!, recordAt, asOf, best.table === 'packs' ? { key: best.key, match } : null);
}
