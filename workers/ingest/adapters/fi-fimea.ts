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
import { provisionalNameKey, FileRejectedError, RowError } from './common.ts';
import type { InputFile } from './common.ts';
import { parseLocaleNumber } from '../../../vocabulary/strength.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, PackEntry, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { EXCLUDED, RowTally, unusedFile } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import { readDelimitedTable } from './delimited-table.ts';
import type { DelimitedTable } from './delimited-table.ts';
import { assignRoles, undatedName } from './file-roles.ts';
import { NOT_IN_REGISTER, applyAtcTexts, applyFormNames, applySubstitution } from './fi-fimea-codes.ts';
import { fimeaPack, fimeaProduct, fimeaProductKey } from './fi-fimea-pack.ts';
import { FI_HEADERS, FI_KNOWN_UNUSED, FI_RULES, isStartingState } from './fi-fimea-roles.ts';
import type { FiRole } from './fi-fimea-roles.ts';
import { kelaPrices } from './fi-kela.ts';

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

const WHAT: Record<FiRole, string> = {
  PAKKAUS: 'the PAKKAUS columns (PAKKAUSNRO, VNRNRO, LAAKENIMI ...)', LAAKEAINE: 'the LAAKEAINE columns (PAKKAUSNRO, AINENIMI)',
  Kela: 'the Kela price list columns (Vnr, Myyntihinta ...)', substitution: 'a Vnr and a substitution group column',
  ATC: 'the ATC table columns (ATCKOODI, SELITES)', LAAKEMUOTO: 'the dose form table columns (LAAKEMUOTOTUN, LAAKEMUOTONIMI)',
};

interface Read { file: InputFile; role: FiRole; table: DelimitedTable }

/** The release sorted into roles by content; members it does not read are named, not refused. */
async function readAll(files: InputFile[]): Promise<{ read: Read[]; unused: FileReport[] }> {
  const { byRole, unused } = await assignRoles(files, FI_RULES, FI_KNOWN_UNUSED);
  const read: Read[] = [];
  for (const [role, given] of byRole) {
    for (const file of given) {
      if (role === 'PAKKAUS' && isStartingState(undatedName(file.name))) {
        unused.push(unusedFile(file.name, 'the pack file of the state the release started from: the current pack file states the packs'));
        continue;
      }
      read.push({ file, role, table: await readDelimitedTable(file, FI_HEADERS[role], WHAT[role]) });
    }
  }
  if (!read.some((r) => r.role === 'PAKKAUS')) {
    const given = files.map((f) => f.name).join(', ') || 'none';
    throw new FileRejectedError(FI_PAKKAUS_FILE, `the basic register pack file (PAKKAUSNRO, VNRNRO, LAAKENIMI ... columns) is missing among the files given: ${given}`);
  }
  // Files in the order given, so the report lists them as the user named them.
  read.sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file));
  return { read, unused };
}

/** A pack and the product it was placed in. */
interface Placed { pack: PackEntry; product: ProductEntry }

interface Context {
  problems: RowProblem[];
  products: Map<string, ProductEntry>;
  /** Packs by PAKKAUSNRO, with the product each belongs to. */
  packs: Map<string, Placed>;
  substances: Map<string, SubstanceEntry>;
  /** The dose form code (LAAKEMUOTOTUN) of each product, for the dose form table. */
  formOf: Map<ProductEntry, string>;
}

type Row = DelimitedTable['rows'][number];

/**
 * Runs `apply` on each row of a table: a RowError or a short or long row is malformed, a
 * string returned is the reason the row is excluded; returns the report.
 */
function eachRow(read: Read, problems: RowProblem[], apply: (row: Row) => string | void): FileReport {
  const tally = new RowTally(read.file.name, problems);
  for (const row of read.table.rows) {
    try {
      if (!read.table.workbook && row.width !== read.table.header.length) {
        throw new RowError(`${row.width} fields where the header names ${read.table.header.length}`);
      }
      const excluded = apply(row);
      if (excluded) tally.exclude(excluded);
      else tally.keep();
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      tally.malformedRow(row.line, error.message);
    }
  }
  return tally.report(read.role);
}

function addPackRow(row: Row, ctx: Context): string | void {
  const pack = fimeaPack(row);
  // The same pack number again (in this file or another pack file): the first row stands.
  if (ctx.packs.has(pack.key)) return EXCLUDED.duplicate;
  const key = fimeaProductKey(row);
  let product = ctx.products.get(key);
  if (!product) {
    product = fimeaProduct(row);
    ctx.products.set(key, product);
    if (row.get('laakemuototun') !== '') ctx.formOf.set(product, row.get('laakemuototun'));
  }
  product.packs.push(pack);
  ctx.packs.set(pack.key, { pack, product });
}

/** LAAKEAINE: the substances of a pack's product, with the product's strength when it has one substance. */
function addSubstanceRow(row: Row, ctx: Context): string | void {
  const name = row.get('ainenimi');
  if (name === '') throw new RowError(`PAKKAUSNRO ${row.get('pakkausnro')}: no AINENIMI`);
  const placed = ctx.packs.get(row.get('pakkausnro'));
  // A substance of a pack the pack files given do not list (another state of the release).
  if (!placed) return NOT_IN_REGISTER;
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

function addKelaRow(header: string[], row: Row, byVnr: Map<string, Placed>): string | void {
  const kela = kelaPrices(header, row);
  const placed = byVnr.get(kela.vnr);
  // Kela lists every priced pack; one the register's pack files do not hold is left out.
  if (!placed) return NOT_IN_REGISTER;
  const { pack, product } = placed;
  pack.prices = [...(pack.prices ?? []), ...kela.prices];
  if (kela.reimbursementRate !== undefined) pack.reimbursement_rate_percent = kela.reimbursementRate;
  if (kela.withdrawing) pack.availability = 'poistumassa';
  if (kela.substitutionGroup && !product.attributes?.substituutioryhma) {
    product.attributes = { ...product.attributes, substituutioryhma: kela.substitutionGroup };
  }
}

function byVnrOf(ctx: Context): Map<string, Placed> {
  return new Map([...ctx.packs.values()].flatMap((p) => p.pack.identifiers.filter((i) => i.system === 'fi_vnr').map((i) => [i.code, p] as const)));
}

/** Reads the roles in dependency order: packs, then what attaches to them. */
function readRole(r: Read, ctx: Context): FileReport {
  switch (r.role) {
    case 'PAKKAUS': return eachRow(r, ctx.problems, (row) => addPackRow(row, ctx));
    case 'LAAKEAINE': return eachRow(r, ctx.problems, (row) => addSubstanceRow(row, ctx));
    case 'Kela': {
      const byVnr = byVnrOf(ctx);
      return eachRow(r, ctx.problems, (row) => addKelaRow(r.table.header, row, byVnr));
    }
    case 'substitution': {
      const byVnr = new Map([...byVnrOf(ctx)].map(([vnr, p]) => [vnr, p.product]));
      return applySubstitution(r, byVnr, ctx.problems);
    }
    case 'ATC': return applyAtcTexts(r, [...ctx.products.values()], ctx.problems);
    case 'LAAKEMUOTO': return applyFormNames(r, ctx.formOf, ctx.problems);
  }
}

const ORDER: FiRole[] = ['PAKKAUS', 'LAAKEAINE', 'Kela', 'substitution', 'ATC', 'LAAKEMUOTO'];

/**
 * Parses a Fimea release (its pack files, substances and code tables), Fimea's substitution
 * list and a Kela price list; each row is kept, malformed (file:line, why) or excluded by reason.
 */
export async function parseFiFimea(files: InputFile[]): Promise<AdapterResult> {
  const { read, unused } = await readAll(files);
  const ctx: Context = { problems: [], products: new Map(), packs: new Map(), substances: new Map(), formOf: new Map() };
  const reports = new Map<Read, FileReport>();
  for (const role of ORDER) {
    for (const r of read.filter((x) => x.role === role)) reports.set(r, readRole(r, ctx));
  }
  // An empty register would delete every stored pack of the source on ingest: refuse it instead.
  if (ctx.packs.size === 0) throw new FileRejectedError(FI_PAKKAUS_FILE, 'no usable pack rows below the header');
  applyStrengths(ctx.products.values());
  applyMarketStatus(ctx.products.values());
  // Problems in file order, as the files were read.
  const order = new Map(files.map((f, i) => [f.name, i]));
  const problems = [...ctx.problems].sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.line - b.line);
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT,
      source: FI_FIMEA_SOURCE,
      substances: [...ctx.substances.values()],
      products: [...ctx.products.values()],
    },
    problems,
    files: [...read.map((r) => reports.get(r)!), ...unused],
  };
}
