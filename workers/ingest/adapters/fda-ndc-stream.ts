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
 * find duplicates) is released when it ends; the later passes skip the rows it reported.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { FileReport, ProductEntry, RowProblem } from '../snapshot.ts';
import type { LoosePack, StreamedAdapterResult } from '../input.ts';
import { FileRejectedError, ProblemLog, tsvHeader, tsvRow } from './common.ts';
import type { InputFile, TsvRow } from './common.ts';
import type { FdaNdcOptions, FileRole } from './fda-ndc.ts';
import { classifyHeader, fdaBaseName, layoutOf, pairUp, sourceOf } from './fda-ndc.ts';
import { checkPackage, packageContext, readPackage, readProduct } from './fda-ndc-rows.ts';
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

function report(file: InputFile, role: string): FileReport {
  return { file: file.name, role, read: 0, kept: 0, skipped: 0 };
}

/** Lines of `file` that `problems` names. */
function skippedLines(problems: readonly RowProblem[], file: InputFile): Set<number> {
  return new Set(problems.filter((p) => p.file === file.name).map((p) => p.line));
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
  const reports = [report(product.file, layout.roles[0]), report(pack.file, layout.roles[1])];
  let ids: Set<string> | null = new Set<string>();
  for await (const row of rows(product, layout.productColumns)) {
    const parsed = readProduct(row, vocabulary, asOf, unfinished, (id) => ids!.has(id));
    if (typeof parsed === 'string') log.add(product.file.name, row.line, parsed);
    else ids.add(parsed.key);
    reports[0]!.read += 1;
    reports[0]![typeof parsed === 'string' ? 'skipped' : 'kept'] += 1;
  }
  const context = packageContext((id) => ids!.has(id), fdaBaseName(product.file.name));
  for await (const row of rows(pack, layout.packageColumns)) {
    const parsed = checkPackage(row, context);
    if (typeof parsed === 'string') log.add(pack.file.name, row.line, parsed);
    reports[1]!.read += 1;
    reports[1]![typeof parsed === 'string' ? 'skipped' : 'kept'] += 1;
  }
  ids = null;
  const skipProducts = skippedLines(log.problems, product.file);
  const skipPackages = skippedLines(log.problems, pack.file);

  async function* products(): AsyncGenerator<ProductEntry> {
    for await (const row of rows(product, layout.productColumns)) {
      if (skipProducts.has(row.line)) continue;
      const parsed = readProduct(row, vocabulary, asOf, unfinished, () => false);
      if (typeof parsed === 'string') throw changedWhileRead(product.file, row.line);
      yield parsed;
    }
  }
  async function* packs(): AsyncGenerator<LoosePack> {
    // Products and duplicates were checked on opening: every row left is a kept package.
    const checked: PackageContext = { hasProduct: () => true, claim: () => true, productFile: product.file.name };
    for await (const row of rows(pack, layout.packageColumns)) {
      if (skipPackages.has(row.line)) continue;
      const parsed = readPackage(row, asOf, checked);
      if (typeof parsed === 'string') throw changedWhileRead(pack.file, row.line);
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
