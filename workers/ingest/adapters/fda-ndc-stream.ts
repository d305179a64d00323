/**
 * The FDA NDC directory read as a stream (what `drugref ingest fda-ndc` and the sync worker
 * use): the same rows, problems and snapshot as `parseFdaNdc` (fda-ndc.ts), without holding
 * the directory in memory. The files are read from disk in blocks, three times:
 *
 * 1. on opening, every row is checked (headers, malformed rows, duplicate PRODUCTIDs and
 *    package NDCs, packages of unknown products), so problems, row counts and `--strict` are
 *    settled before anything is written, and the substances and classes the products name are
 *    collected (the engine writes those before any product);
 * 2. while the engine ingests, product.txt again, yielding products (without packs);
 * 3. then package.txt again, yielding each package as a loose pack of its product (input.ts).
 *
 * What the first pass holds beyond the vocabulary (the PRODUCTIDs and package NDCs seen, to
 * find duplicates) is released when it ends; the later passes skip the rows it did not keep.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { ProductEntry } from '../snapshot.ts';
import { RowTally } from '../row-outcome.ts';
import type { LoosePack, StreamedAdapterResult } from '../input.ts';
import { FileRejectedError, ProblemLog, tsvHeader, tsvRow } from './common.ts';
import type { InputFile, TsvRow } from './common.ts';
import type { FdaNdcOptions, FileRole } from './fda-ndc.ts';
import { classifyHeader, fdaBaseName, layoutOf, pairUp, sourceOf } from './fda-ndc.ts';
import { checkPackage, isExcluded, packageContext, readPackage, readProduct, tallyRow } from './fda-ndc-rows.ts';
import type { PackageContext, Vocabulary } from './fda-ndc-rows.ts';
import { fileLines, isUtf8File } from './line-stream.ts';

interface Opened extends FileRole {
  encoding: 'utf-8' | 'windows-1252';
}

/** UTF-8 when the whole file is, otherwise Windows-1252 (as `decodeUtf8OrLatin` decides for a file read whole). */
async function openFile(file: InputFile): Promise<Opened> {
  const encoding = (await isUtf8File(file)) ? 'utf-8' : 'windows-1252';
  for await (const { text } of fileLines(file, encoding)) return { ...classifyHeader(file, text), encoding };
  return { ...classifyHeader(file, undefined), encoding };
}

/** Data rows of a tab-separated file after its header (checked against `required`). */
async function* rows(file: Opened, required: readonly string[]): AsyncGenerator<TsvRow> {
  let header: ReturnType<typeof tsvHeader> | null = null;
  for await (const { line, text } of fileLines(file.file, file.encoding)) {
    if (header) yield tsvRow(header, line, text);
    else header = tsvHeader(file.file.name, text, required);
  }
  if (!header) tsvHeader(file.file.name, undefined, required);
}

/** A row the first pass kept reads the same on a later pass, unless the file changed in between. */
function changedWhileRead(file: InputFile, line: number): FileRejectedError {
  return new FileRejectedError(file.name, `line ${line} reads differently than when the file was checked: the file changed while it was ingested`);
}

/** Opens the FDA NDC directory (finished or unfinished pair) for a streamed ingest; see the module comment. */
export async function openFdaNdc(files: InputFile[], options: FdaNdcOptions = {}): Promise<StreamedAdapterResult> {
  const asOf = options.asOf ?? new Date();
  const opened: Opened[] = [];
  for (const file of files) opened.push(await openFile(file));
  const { product, pack, kind } = pairUp(opened);
  const unfinished = kind === 'unfinished';
  const layout = layoutOf(kind);
  const log = new ProblemLog();
  const vocabulary: Vocabulary = { substances: new Map(), classes: new Map() };
  const tallies = [new RowTally(product.file.name, log.problems), new RowTally(pack.file.name, log.problems)] as const;
  // Lines not kept (malformed or excluded): the later passes skip them.
  const skipProducts = new Set<number>();
  const skipPackages = new Set<number>();
  let ids: Set<string> | null = new Set<string>();
  for await (const row of rows(product, layout.productColumns)) {
    const parsed = readProduct(row, vocabulary, asOf, unfinished, (id) => ids!.has(id));
    if (tallyRow(tallies[0], row.line, parsed) && typeof parsed !== 'string' && !isExcluded(parsed)) ids.add(parsed.key);
    else skipProducts.add(row.line);
  }
  const context = packageContext((id) => ids!.has(id), fdaBaseName(product.file.name));
  for await (const row of rows(pack, layout.packageColumns)) {
    if (!tallyRow(tallies[1], row.line, checkPackage(row, context))) skipPackages.add(row.line);
  }
  ids = null;
  const reports = [tallies[0].report(layout.roles[0]), tallies[1].report(layout.roles[1])];

  async function* products(): AsyncGenerator<ProductEntry> {
    for await (const row of rows(product, layout.productColumns)) {
      if (skipProducts.has(row.line)) continue;
      const parsed = readProduct(row, vocabulary, asOf, unfinished, () => false);
      if (typeof parsed === 'string' || isExcluded(parsed)) throw changedWhileRead(product.file, row.line);
      yield parsed;
    }
  }
  async function* packs(): AsyncGenerator<LoosePack> {
    // Products and duplicates were checked on opening: every row left is a kept package.
    const checked: PackageContext = { hasProduct: () => true, claim: () => true, productFile: product.file.name };
    for await (const row of rows(pack, layout.packageColumns)) {
      if (skipPackages.has(row.line)) continue;
      const parsed = readPackage(row, asOf, checked);
      if (typeof parsed === 'string' || isExcluded(parsed)) throw changedWhileRead(pack.file, row.line);
      yield { product_key: row.get('PRODUCTID'), pack: parsed };
    }
  }
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT,
      source: sourceOf(kind),
      classes: [...vocabulary.classes.values()],
      substances: [...vocabulary.substances.values()],
      products: products(),
      packs: packs(),
    },
    problems: log.problems,
    files: files.map((f) => reports.find((r) => r.file === f.name)!),
  };
}
