/**
 * US FDA National Drug Code Directory: the finished drugs (`product.txt`, `package.txt`) or the
 * unfinished drugs (`unfinished_product.txt`, `unfinished_package.txt`), tab separated with a
 * header line of the FDA's column names, joined on PRODUCTID. Each file's role comes from its
 * header: the unfinished product layout has no PROPRIETARYNAME, ROUTENAME, APPLICATIONNUMBER
 * or PHARM_CLASSES; a header matching neither product nor package layout rejects the file.
 *
 * Finished and unfinished drugs are two downloads of the FDA and two sources here: `fda-ndc`
 * and `fda-ndc-unfinished`, so that refreshing one never deletes the other (one ingest states
 * one source completely). Unfinished records (bulk ingredients, drugs for further processing)
 * are never marketed products: they carry `attributes.unfinished = true`, which keeps them out
 * of the products a prescriber searches (0600_merge.sql) while their NDCs still resolve.
 * Giving both kinds in one call is refused: ingest each pair on its own.
 *
 * Keys: a product is keyed by PRODUCTID (the FDA's own join key), a package by its 11-digit
 * NDC. Packages carry `ndc` (the 10 digits as printed) and `ndc11` identifiers; products carry
 * `ndc` (padded 5-4 product code) and the application number as `national`.
 *
 * Substances: the directory names substances (SUBSTANCENAME) but gives no UNIIs, so each
 * substance is keyed provisionally by its upper-cased name (`name:ACETAMINOPHEN`) and flagged
 * `provisional`; a later source with UNIIs (FDA SRS) can map the key by the same name.
 * PHARM_CLASSES become ClassEntry rows keyed the same way (`name:<CLASS NAME>`), because the
 * file carries MED-RT class names but not their ids; they attach to the product, and also to
 * the substance when the product has a single one.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, SourceInfo } from '../snapshot.ts';
import { RowTally } from '../row-outcome.ts';
import { FileRejectedError, ProblemLog, decodeUtf8OrLatin, numberedLines, parseHeaderedTsv, tabFields } from './common.ts';
import type { InputFile } from './common.ts';
import { addProduct, isExcluded, packageContext, readPackage, tallyRow } from './fda-ndc-rows.ts';
import type { Collected } from './fda-ndc-rows.ts';

export { parsePharmClasses } from './fda-ndc-rows.ts';

export const FDA_PRODUCT_FILE = 'product.txt';
export const FDA_PACKAGE_FILE = 'package.txt';
export const FDA_UNFINISHED_PRODUCT_FILE = 'unfinished_product.txt';
export const FDA_UNFINISHED_PACKAGE_FILE = 'unfinished_package.txt';

const DIRECTORY_URL = 'https://www.fda.gov/drugs/drug-approvals-and-databases/national-drug-code-directory';

export const FDA_NDC_SOURCE: SourceInfo = {
  id: 'fda-ndc',
  name: 'FDA National Drug Code Directory',
  country: 'US',
  // The FDA refreshes the directory every business day.
  refresh_interval_hours: 24 * 3,
  licence: 'Public domain (US government work)',
  url: DIRECTORY_URL,
};

export const FDA_NDC_UNFINISHED_SOURCE: SourceInfo = {
  id: 'fda-ndc-unfinished',
  name: 'FDA National Drug Code Directory: unfinished drugs (bulk ingredients)',
  country: 'US',
  refresh_interval_hours: 24 * 3,
  licence: 'Public domain (US government work)',
  url: DIRECTORY_URL,
};

const PRODUCT_COLUMNS = [
  'PRODUCTID', 'PRODUCTNDC', 'PRODUCTTYPENAME', 'PROPRIETARYNAME', 'NONPROPRIETARYNAME', 'DOSAGEFORMNAME',
  'ROUTENAME', 'STARTMARKETINGDATE', 'MARKETINGCATEGORYNAME', 'LABELERNAME', 'SUBSTANCENAME',
  'ACTIVE_NUMERATOR_STRENGTH', 'ACTIVE_INGRED_UNIT', 'PHARM_CLASSES',
] as const;
/** The unfinished layout: no proprietary name, route, application number nor classes. */
const UNFINISHED_PRODUCT_COLUMNS = [
  'PRODUCTID', 'PRODUCTNDC', 'PRODUCTTYPENAME', 'NONPROPRIETARYNAME', 'DOSAGEFORMNAME', 'STARTMARKETINGDATE',
  'MARKETINGCATEGORYNAME', 'LABELERNAME', 'SUBSTANCENAME', 'ACTIVE_NUMERATOR_STRENGTH', 'ACTIVE_INGRED_UNIT',
] as const;
const PACKAGE_COLUMNS = ['PRODUCTID', 'PRODUCTNDC', 'NDCPACKAGECODE', 'PACKAGEDESCRIPTION'] as const;
/** Columns only the finished package.txt has (the unfinished one stops after the marketing dates). */
const FINISHED_PACKAGE_ONLY = ['NDC_EXCLUDE_FLAG', 'SAMPLE_PACKAGE'];

export interface FdaNdcOptions {
  /** Date against which ENDMARKETINGDATE decides `withdrawn`; defaults to now. */
  asOf?: Date;
}

type Kind = 'finished' | 'unfinished';

/** What a file's header says it is. */
export interface FileRole {
  file: InputFile;
  table: 'product' | 'package';
  /** Null for a package file whose header and name leave its kind open. */
  kind: Kind | null;
}

interface Classified extends FileRole {
  text: string;
}

const baseName = (name: string): string => name.split(/[\\/]/).pop()!.toLowerCase();

/** The file's table and kind, read from its header line (and, for packages, from its name). */
export function classifyHeader(file: InputFile, header: string | undefined): FileRole {
  const names = new Set(header !== undefined ? tabFields(header).map((n) => n.toUpperCase()) : []);
  const has = (columns: readonly string[]): boolean => columns.every((c) => names.has(c));
  if (has(PRODUCT_COLUMNS)) return { file, table: 'product', kind: 'finished' };
  if (has(UNFINISHED_PRODUCT_COLUMNS)) return { file, table: 'product', kind: 'unfinished' };
  if (has(PACKAGE_COLUMNS)) {
    const named = baseName(file.name).includes('unfinished') ? 'unfinished' : null;
    const kind = named ?? (FINISHED_PACKAGE_ONLY.some((c) => names.has(c)) ? 'finished' : null);
    return { file, table: 'package', kind };
  }
  // Name the columns missing from the layout the file name suggests (a product file by default).
  const [role, expected] = baseName(file.name).includes('package') ? ['package', PACKAGE_COLUMNS] : ['product', PRODUCT_COLUMNS];
  const missing = expected.filter((c) => !names.has(c));
  throw new FileRejectedError(file.name, `header matches neither the NDC product nor the package layout (finished or unfinished): as a ${role} file it is missing ${missing.join(', ')}`);
}

function classify(file: InputFile): Classified {
  const text = decodeUtf8OrLatin(file.content);
  return { ...classifyHeader(file, numberedLines(text.slice(0, 4096))[0]?.text), text };
}

/** The product and package file of one kind, or a rejection naming what is wrong. */
export function pairUp<C extends FileRole>(classified: C[]): { product: C; pack: C; kind: Kind } {
  const products = classified.filter((c) => c.table === 'product');
  const packages = classified.filter((c) => c.table === 'package');
  if (products.length !== 1 || packages.length !== 1) {
    const missing = products.length === 0 ? FDA_PRODUCT_FILE : FDA_PACKAGE_FILE;
    throw new FileRejectedError(products.length > 1 || packages.length > 1 ? classified[0]!.file.name : missing,
      `file missing or repeated: the FDA NDC adapter needs product.txt and package.txt (or unfinished_product.txt and unfinished_package.txt), got ${products.length} product and ${packages.length} package file(s)`);
  }
  const [product, pack] = [products[0]!, packages[0]!];
  const kind = product.kind!;
  if (pack.kind !== null && pack.kind !== kind) {
    throw new FileRejectedError(pack.file.name, `${pack.kind === 'finished' ? 'a finished' : 'an unfinished'} package file cannot go with the ${kind} product file ${product.file.name}: finished and unfinished drugs are separate sources, ingest each pair on its own`);
  }
  return { product, pack, kind };
}

/** The columns a product file of `kind` must have, and the roles its files are reported under. */
export function layoutOf(kind: Kind): { productColumns: readonly string[]; packageColumns: readonly string[]; roles: [string, string] } {
  return kind === 'unfinished'
    ? { productColumns: UNFINISHED_PRODUCT_COLUMNS, packageColumns: PACKAGE_COLUMNS, roles: ['unfinished product', 'unfinished package'] }
    : { productColumns: PRODUCT_COLUMNS, packageColumns: PACKAGE_COLUMNS, roles: ['product', 'package'] };
}

/** The source a pair of `kind` fills. */
export const sourceOf = (kind: Kind): SourceInfo => (kind === 'unfinished' ? FDA_NDC_UNFINISHED_SOURCE : FDA_NDC_SOURCE);

export { baseName as fdaBaseName };

/**
 * Parses the FDA NDC directory (finished or unfinished pair) in memory. Each row is kept,
 * malformed (reported with its line and why) or excluded as a duplicate of an earlier key.
 */
export function parseFdaNdc(files: InputFile[], options: FdaNdcOptions = {}): AdapterResult {
  const asOf = options.asOf ?? new Date();
  const { product, pack, kind } = pairUp(files.map(classify));
  const unfinished = kind === 'unfinished';
  const layout = layoutOf(kind);
  const productRows = parseHeaderedTsv(product.file.name, product.text, layout.productColumns);
  const packageRows = parseHeaderedTsv(pack.file.name, pack.text, layout.packageColumns);
  const log = new ProblemLog();
  const collected: Collected = { products: new Map(), substances: new Map(), classes: new Map() };
  const tallies = [new RowTally(product.file.name, log.problems), new RowTally(pack.file.name, log.problems)] as const;
  for (const row of productRows) tallyRow(tallies[0], row.line, addProduct(row, collected, asOf, unfinished) ?? undefined);
  const context = packageContext((id) => collected.products.has(id), baseName(product.file.name));
  for (const row of packageRows) {
    const parsed = readPackage(row, asOf, context);
    if (tallyRow(tallies[1], row.line, parsed) && typeof parsed !== 'string' && !isExcluded(parsed)) collected.products.get(row.get('PRODUCTID'))!.packs.push(parsed);
  }
  const reports = [tallies[0].report(layout.roles[0]), tallies[1].report(layout.roles[1])];
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT,
      source: sourceOf(kind),
      classes: [...collected.classes.values()],
      substances: [...collected.substances.values()],
      products: [...collected.products.values()],
    },
    problems: log.problems,
    // Reports in the order the files were given.
    files: files.map((f) => reports.find((r) => r.file === f.name)!),
  };
}
