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
import { FileRejectedError, ProblemLog, RowError, provisionalNameKey } from './common.ts';
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
  log: ProblemLog;
  products: Map<string, ProductEntry>;
  substances: Map<string, SubstanceEntry>;
  statuses: Map<ProductEntry, Set<string>>;
  packKeys: Set<string>;
}

function addRow(get: TlvRow, ctx: Context): void {
  const varunummer = varunummerOf(get);
  if (ctx.packKeys.has(varunummer)) throw new RowError(`Varunummer ${varunummer} is listed twice (the first row is kept)`);
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
}

/** Parses a TLV price list; rows that cannot be used are reported with their line and skipped. */
export async function parseSeTlv(file: InputFile): Promise<AdapterResult> {
  return parseSeTlvFiles([file]);
}

/** NPL product files: each parsed on its own, a file with an unusable product reported and skipped. */
function readNpl(files: InputFile[], log: ProblemLog): { products: NplProduct[]; report: FileReport } {
  const products: NplProduct[] = [];
  for (const file of files) {
    try {
      products.push(parseNplProduct(file));
    } catch (error) {
      if (!(error instanceof NplProductError)) throw error;
      log.add(file.name, error.line, error.message);
    }
  }
  // One report for the export's thousands of product files, named by the first.
  const name = files.length === 1 ? files[0]!.name : `${files[0]!.name} and ${files.length - 1} more NPL files`;
  return { products, report: { file: name, role: 'NPL medprod', read: files.length, kept: products.length, skipped: files.length - products.length } };
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
  const ctx: Context = { log: new ProblemLog(), products: new Map(), substances: new Map(), statuses: new Map(), packKeys: new Set() };
  const columns = tlvColumns(table.header);
  let skipped = 0;
  for (const row of table.rows) {
    try {
      if (!table.workbook && row.width !== table.header.length) throw new RowError(`${row.width} fields where the header names ${table.header.length}`);
      addRow(tlvRow(columns, row), ctx);
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      ctx.log.add(file.name, row.line, error.message);
      skipped += 1;
    }
  }
  // An empty list would delete every stored pack of the source on ingest: refuse it instead.
  if (ctx.packKeys.size === 0) throw new FileRejectedError(file.name, 'no usable Varunummer rows below the header');
  for (const [product, statuses] of ctx.statuses) product.attributes = { ...product.attributes, formansstatus: [...statuses].join(' / ') };
  const reports: FileReport[] = [{ file: file.name, role: 'TLV läkemedel', read: table.rows.length, kept: table.rows.length - skipped, skipped }];
  if (nplFiles.length > 0) {
    const npl = readNpl(nplFiles, ctx.log);
    joinNplProducts(ctx.products, npl.products);
    reports.push(npl.report);
  }
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: SE_TLV_SOURCE, substances: [...ctx.substances.values()], products: [...ctx.products.values()] },
    problems: ctx.log.problems,
    files: reports,
  };
}
