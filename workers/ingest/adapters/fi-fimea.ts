/**
 * Finland: Fimea's basic register of medicinal products (lääkevalmisteiden perusrekisteri), the
 * pack file PAKKAUS (one row per authorised pack: PAKKAUSNRO, VNRNRO, PAKKAUSKOKO, KERROIN, KOKO,
 * YKSIKKO, RESEPTISTATUS, LAAKENIMI, VAHVUUS, LAAKEMUOTONIMI, HALTIJA, ATCKOODI, MYYNTILUPANRO,
 * EUMYYNTILUPANRO, KAUPAN, dates ...) with its active substances (LAAKEAINE: PAKKAUSNRO, AINENIMI),
 * and optionally Kela's price list by Vnr, whose prices and reimbursement rate attach to the
 * register's packs. Fimea's files are `;`-separated Windows ANSI text with a header line; Kela's
 * come as xlsx or as UTF-16 / Windows-1252 text with decimal commas. Each file's role is read
 * from its header, so the published file names (pakkaus1.txt ...) do not matter.
 */
import { provisionalNameKey, FileRejectedError, ProblemLog, RowError } from './common.ts';
import type { InputFile } from './common.ts';
import { parseLocaleNumber } from '../../../resolvers/catalogue/strength.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, PackEntry, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { readDelimitedTable } from './delimited-table.ts';
import type { DelimitedTable } from './delimited-table.ts';
import { FIMEA_REQUIRED, fimeaPack, fimeaProduct, fimeaProductKey } from './fi-fimea-pack.ts';
import { isKelaHeader, kelaPrices } from './fi-kela.ts';

export const FI_FIMEA_SOURCE: SourceInfo = {
  id: 'fi-fimea',
  name: 'Fimea lääkevalmisteiden perusrekisteri (with Kela prices)',
  country: 'FI',
  // Fimea publishes the basic register twice a month; a month without a sync is stale.
  refresh_interval_hours: 24 * 31,
  licence: 'Fimea open data: free to use with the source named; Kela price lists are public documents',
  url: 'https://fimea.fi/en/databases_and_registers/basic-register',
};

/** The file names Fimea publishes; any name is accepted, the role is read from the header. */
export const FI_PAKKAUS_FILE = 'PAKKAUS.txt';
export const FI_LAAKEAINE_FILE = 'LAAKEAINE.txt';
export const FI_KELA_FILE = 'kela_hinnat.txt';

type Role = 'PAKKAUS' | 'LAAKEAINE' | 'Kela';

function roleOf(header: string[]): Role | null {
  if (FIMEA_REQUIRED.every((c) => header.includes(c))) return 'PAKKAUS';
  if (header.includes('pakkausnro') && header.includes('ainenimi')) return 'LAAKEAINE';
  return isKelaHeader(header) ? 'Kela' : null;
}

const isKnownHeader = (keys: string[]): boolean => roleOf(keys) !== null;

interface Read { file: InputFile; role: Role; table: DelimitedTable }

async function readAll(files: InputFile[]): Promise<Read[]> {
  const read: Read[] = [];
  for (const file of files) {
    const table = await readDelimitedTable(file, isKnownHeader, 'the PAKKAUS, LAAKEAINE or Kela price list columns');
    read.push({ file, role: roleOf(table.header)!, table });
  }
  if (!read.some((r) => r.role === 'PAKKAUS')) {
    throw new FileRejectedError(FI_PAKKAUS_FILE, 'the basic register pack file (PAKKAUSNRO, VNRNRO, LAAKENIMI ... columns) is missing');
  }
  return read;
}

/** A pack and the product it was placed in. */
interface Placed { pack: PackEntry; product: ProductEntry }

interface Context {
  log: ProblemLog;
  products: Map<string, ProductEntry>;
  /** Packs by PAKKAUSNRO, with the product each belongs to. */
  packs: Map<string, Placed>;
  substances: Map<string, SubstanceEntry>;
}

/** Runs `apply` on each row of a table, reporting RowErrors and short or long rows; returns the report. */
function eachRow(read: Read, log: ProblemLog, apply: (row: DelimitedTable['rows'][number]) => void): FileReport {
  let skipped = 0;
  for (const row of read.table.rows) {
    try {
      if (!read.table.workbook && row.width !== read.table.header.length) {
        throw new RowError(`${row.width} fields where the header names ${read.table.header.length}`);
      }
      apply(row);
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      log.add(read.file.name, row.line, error.message);
      skipped += 1;
    }
  }
  const total = read.table.rows.length;
  return { file: read.file.name, role: read.role, read: total, kept: total - skipped, skipped };
}

function addPackRow(row: DelimitedTable['rows'][number], ctx: Context): void {
  const pack = fimeaPack(row);
  if (ctx.packs.has(pack.key)) throw new RowError(`PAKKAUSNRO ${pack.key} is listed twice (the first row is kept)`);
  const key = fimeaProductKey(row);
  let product = ctx.products.get(key);
  if (!product) {
    product = fimeaProduct(row);
    ctx.products.set(key, product);
  }
  product.packs.push(pack);
  ctx.packs.set(pack.key, { pack, product });
}

/** LAAKEAINE: the substances of a pack's product, with the product's strength when it has one substance. */
function addSubstanceRow(row: DelimitedTable['rows'][number], ctx: Context): void {
  const placed = ctx.packs.get(row.get('pakkausnro'));
  if (!placed) throw new RowError(`PAKKAUSNRO "${row.get('pakkausnro')}" is not in the pack file`);
  const name = row.get('ainenimi');
  if (name === '') throw new RowError(`PAKKAUSNRO ${row.get('pakkausnro')}: no AINENIMI`);
  const unii = provisionalNameKey(name);
  if (!ctx.substances.has(unii)) ctx.substances.set(unii, { unii, name, names: { fi: name }, provisional: true });
  if (!placed.product.ingredients.some((i) => i.unii === unii)) placed.product.ingredients.push({ unii });
}

/** A product is on the market while one of its packs is (KAUPAN), withdrawn once all are off it. */
function applyMarketStatus(products: Iterable<ProductEntry>): void {
  for (const product of products) {
    const statuses = product.packs.map((p) => p.marketing_status);
    if (statuses.includes('active')) product.marketing_status = 'active';
    else if (statuses.length > 0 && statuses.every((s) => s === 'withdrawn')) product.marketing_status = 'withdrawn';
  }
}

/** A single-substance product's strength from VAHVUUS (`500 mg`, `100 yksikköä/ml`), as written. */
function applyStrengths(products: Iterable<ProductEntry>): void {
  for (const product of products) {
    const text = product.attributes?.vahvuus;
    if (product.ingredients.length !== 1 || typeof text !== 'string') continue;
    const ingredient = product.ingredients[0]!;
    ingredient.strength_text = text;
    const m = /^(\d[\d\s.,]*)\s*(\S.*)$/.exec(text);
    const value = m ? parseLocaleNumber(m[1]!) : null;
    if (m && value !== null) Object.assign(ingredient, { strength_value: value, strength_unit: m[2]!.trim() });
  }
}

function addKelaRow(header: string[], row: DelimitedTable['rows'][number], byVnr: Map<string, Placed>): void {
  const kela = kelaPrices(header, row);
  const placed = byVnr.get(kela.vnr);
  if (!placed) throw new RowError(`Vnr ${kela.vnr} is not in Fimea's pack file`);
  const { pack, product } = placed;
  pack.prices = [...(pack.prices ?? []), ...kela.prices];
  if (kela.reimbursementRate !== undefined) pack.reimbursement_rate_percent = kela.reimbursementRate;
  if (kela.withdrawing) pack.availability = 'poistumassa';
  if (kela.substitutionGroup && !product.attributes?.substituutioryhma) {
    product.attributes = { ...product.attributes, substituutioryhma: kela.substitutionGroup };
  }
}

/** Parses Fimea's pack file, optionally its substance file and a Kela price list; bad rows are reported and skipped. */
export async function parseFiFimea(files: InputFile[]): Promise<AdapterResult> {
  const read = await readAll(files);
  const ctx: Context = { log: new ProblemLog(), products: new Map(), packs: new Map(), substances: new Map() };
  const order: Role[] = ['PAKKAUS', 'LAAKEAINE', 'Kela'];
  const reports = new Map<Read, FileReport>();
  for (const role of order) {
    const byVnr = new Map([...ctx.packs.values()].flatMap((p) => p.pack.identifiers.filter((i) => i.system === 'fi_vnr').map((i) => [i.code, p] as const)));
    for (const r of read.filter((x) => x.role === role)) {
      reports.set(r, eachRow(r, ctx.log, (row) => {
        if (role === 'PAKKAUS') addPackRow(row, ctx);
        else if (role === 'LAAKEAINE') addSubstanceRow(row, ctx);
        else addKelaRow(r.table.header, row, byVnr);
      }));
    }
  }
  // An empty register would delete every stored pack of the source on ingest: refuse it instead.
  if (ctx.packs.size === 0) throw new FileRejectedError(FI_PAKKAUS_FILE, 'no usable pack rows below the header');
  applyStrengths(ctx.products.values());
  applyMarketStatus(ctx.products.values());
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT,
      source: FI_FIMEA_SOURCE,
      substances: [...ctx.substances.values()],
      products: [...ctx.products.values()],
    },
    problems: ctx.log.problems,
    files: read.map((r) => reports.get(r)!),
  };
}
