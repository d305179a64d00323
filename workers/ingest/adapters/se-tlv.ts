/**
 * Sweden: TLV's list of medicines with their prices and reimbursement (förmån) status, by
 * Varunummer, as TLV's database exports it: xlsx, or `;`-separated text in Windows-1252 or
 * UTF-8 with decimal commas and spaced thousands, title rows above the header. Columns are
 * read by header name (Varunummer, Produktnamn, Styrka, Form, Förpackning, Antal, AIP, AUP,
 * Företag, ATC-kod, Substans, Förmånsstatus, NPL-id, NPL-pack-id, Datum), so column order and
 * the wording of older exports (Varunr, AIP (SEK), Läkemedelsform ...) do not matter.
 *
 * - Pack keyed by Varunummer (lookup system se_varunummer), with its NPL pack id when given.
 * - Prices in SEK: AIP as `ex_factory`, AUP as `public`, dated by the list's Datum column.
 * - Product: the packs of one NPL-id (se_npl_id); the substance as a provisional entry with its
 *   Swedish name; the förmånsstatus of its packs as the attribute `formansstatus`.
 * - Optionally Läkemedelsverket's NPL product files beside the list (se-npl-merge.ts): sales
 *   stop, product class, OTC status and narcotic class, and the products TLV does not list.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { FileRejectedError, RowError, provisionalNameKey } from './common.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import type { InputFile } from './common.ts';
import { readDelimitedTable } from './delimited-table.ts';
import { joinNplProducts } from './se-npl-merge.ts';
import { NplProductError, looksLikeNplProduct, parseNplProduct } from './se-npl-xml.ts';
import type { NplProduct } from './se-npl-xml.ts';
import { isTlvHeader, tlvColumns, tlvPack, tlvProduct, tlvProductKey, tlvRow, varunummerOf } from './se-tlv-rows.ts';
import type { TlvRow } from './se-tlv-rows.ts';

export const SE_TLV_SOURCE: SourceInfo = {
  id: 'se-tlv',
  name: 'TLV läkemedelsdatabas (priser och förmånsstatus) with Läkemedelsverket NPL',
  country: 'SE',
  // TLV's prices change at the start of each month; a month without a sync is stale.
  refresh_interval_hours: 24 * 31,
  licence: 'Public information of a Swedish authority (offentlighetsprincipen), free to reuse',
  url: 'https://www.tlv.se/beslut/sok-i-databasen.html',
};

export const SE_TLV_FILE = 'tlv_lakemedel.xlsx';

interface Context {
  problems: RowProblem[];
  products: Map<string, ProductEntry>;
  substances: Map<string, SubstanceEntry>;
  statuses: Map<ProductEntry, Set<string>>;
  packKeys: Set<string>;
}

/** Adds a row's pack to its product; false for a Varunummer listed before (the first row is kept). */
function addRow(get: TlvRow, ctx: Context): boolean {
  const varunummer = varunummerOf(get);
  if (ctx.packKeys.has(varunummer)) return false;
  const pack = tlvPack(get, varunummer);
  const key = tlvProductKey(get);
  let product = ctx.products.get(key);
  if (!product) {
    product = tlvProduct(get);
    ctx.products.set(key, product);
    const substance = get('substance');
    const unii = provisionalNameKey(substance);
    if (substance !== '' && !ctx.substances.has(unii)) ctx.substances.set(unii, { unii, name: substance, names: { sv: substance }, provisional: true });
  }
  product.packs.push(pack);
  ctx.packKeys.add(varunummer);
  if (get('status') !== '') ctx.statuses.set(product, (ctx.statuses.get(product) ?? new Set()).add(get('status')));
  return true;
}

/** Parses a TLV price list; rows that cannot be used are reported with their line and skipped. */
export async function parseSeTlv(file: InputFile): Promise<AdapterResult> {
  return parseSeTlvFiles([file]);
}

/** NPL product files: each parsed on its own (one row each), a file with an unusable product malformed. */
function readNpl(files: InputFile[], problems: RowProblem[]): { products: NplProduct[]; report: FileReport } {
  const products: NplProduct[] = [];
  // One report for the export's thousands of product files, named by the first; each problem names its own file.
  const name = files.length === 1 ? files[0]!.name : `${files[0]!.name} and ${files.length - 1} more NPL files`;
  const tally = new RowTally(name);
  for (const file of files) {
    try {
      products.push(parseNplProduct(file));
      tally.keep();
    } catch (error) {
      if (!(error instanceof NplProductError)) throw error;
      tally.malformedRow(error.line, error.message);
      tally.problems[tally.problems.length - 1]!.file = file.name;
    }
  }
  problems.push(...tally.problems);
  return { products, report: tally.report('NPL medprod') };
}

/**
 * Parses TLV's list together with any NPL product files (`<NPL-id>.xml` of the NPL export);
 * exactly one TLV list is needed, the NPL files are optional.
 */
export async function parseSeTlvFiles(files: InputFile[]): Promise<AdapterResult> {
  const nplFiles = files.filter((f) => looksLikeNplProduct(f.content));
  const lists = files.filter((f) => !nplFiles.includes(f));
  if (lists.length !== 1) throw new FileRejectedError(lists[1]?.name ?? SE_TLV_FILE, `expected one TLV list beside the NPL files, got ${lists.length}`);
  const file = lists[0]!;
  const table = await readDelimitedTable(file, isTlvHeader, 'Varunummer, a product name and AIP or AUP');
  const tally = new RowTally(file.name);
  const ctx: Context = { problems: tally.problems, products: new Map(), substances: new Map(), statuses: new Map(), packKeys: new Set() };
  const columns = tlvColumns(table.header);
  for (const row of table.rows) {
    try {
      if (!table.workbook && row.width !== table.header.length) throw new RowError(`${row.width} fields where the header names ${table.header.length}`);
      if (addRow(tlvRow(columns, row), ctx)) tally.keep();
      else tally.exclude(EXCLUDED.duplicate);
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      tally.malformedRow(row.line, error.message);
    }
  }
  // An empty list would delete every stored pack of the source on ingest: refuse it instead.
  if (ctx.packKeys.size === 0) throw new FileRejectedError(file.name, 'no usable Varunummer rows below the header');
  for (const [product, statuses] of ctx.statuses) product.attributes = { ...product.attributes, formansstatus: [...statuses].join(' / ') };
  const reports: FileReport[] = [tally.report('TLV läkemedel')];
  if (nplFiles.length > 0) {
    const npl = readNpl(nplFiles, ctx.problems);
    joinNplProducts(ctx.products, npl.products);
    reports.push(npl.report);
  }
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: SE_TLV_SOURCE, substances: [...ctx.substances.values()], products: [...ctx.products.values()] },
    problems: ctx.problems,
    files: reports,
  };
}
