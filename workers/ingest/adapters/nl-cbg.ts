/**
 * The Dutch CBG-MEB Geneesmiddeleninformatiebank export (`metadata.csv`): one registration per
 * line, fields separated by `|`, UTF-8 with or without a byte-order mark (a Windows-1252 file
 * is read too), LF or CRLF, a header row naming the columns (their spelling varies between
 * releases, see `columnKey`). Rows become products (nl-cbg-rows.ts); a row with the wrong
 * number of fields, no number or no name is reported with its line and skipped.
 *
 * `open` reads the file from disk twice (check, then yield), as the weekly file runs to tens
 * of megabytes; `parse` reads it whole. Both give the same snapshot and problems.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, ProductEntry, SourceInfo } from '../snapshot.ts';
import type { StreamedAdapterResult } from '../input.ts';
import { FileRejectedError, ProblemLog, decodeUtf8OrLatin, numberedLines } from './common.ts';
import type { InputFile, NumberedLine } from './common.ts';
import { fileLines, isUtf8File } from './line-stream.ts';
import { columnKey, readNlProduct } from './nl-cbg-rows.ts';
import type { NlRow, NlSubstances } from './nl-cbg-rows.ts';

export const NL_CBG_FILE = 'metadata.csv';

export const NL_CBG_SOURCE: SourceInfo = {
  id: 'nl-cbg',
  name: 'CBG-MEB Geneesmiddeleninformatiebank',
  country: 'NL',
  // The CBG refreshes the export weekly; two weeks without a sync is stale.
  refresh_interval_hours: 24 * 14,
  licence: 'CBG-MEB open data (public register; re-use with attribution to the CBG-MEB)',
  url: 'https://www.geneesmiddeleninformatiebank.nl/metadata.csv',
};

const REQUIRED = ['REGISTRATIENUMMER', 'PRODUCTNAAM'];

interface Header {
  index: Map<string, number>;
  width: number;
}

function readHeader(file: string, line: string | undefined): Header {
  const names = line === undefined ? [] : line.split('|').map(columnKey);
  const missing = REQUIRED.filter((c) => !names.includes(c));
  if (missing.length > 0) throw new FileRejectedError(file, `not a Geneesmiddeleninformatiebank export: the header lacks ${missing.join(', ')}`);
  return { index: new Map(names.map((n, i) => [n, i])), width: names.length };
}

/** A field as written, without the double quotes a spreadsheet export may put around it. */
function unquote(raw: string): string {
  const value = raw.trim();
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1).replace(/""/g, '"').trim() : value;
}

/** The product of one data line, or the problem message. */
function readLine(header: Header, { line, text }: NumberedLine, substances: NlSubstances): ProductEntry | string {
  const values = text.split('|');
  if (values.length !== header.width) return `${values.length} fields where the header has ${header.width}`;
  const row: NlRow = { line, get: (column) => unquote(values[header.index.get(column) ?? -1] ?? '') };
  return readNlProduct(row, substances);
}

interface Pass {
  problems: ProblemLog;
  report: FileReport;
  keys: Set<string>;
}

/** Checks one line of the first pass; returns the product when it is kept. */
function check(file: string, header: Header, line: NumberedLine, substances: NlSubstances, pass: Pass): ProductEntry | null {
  let product = readLine(header, line, substances);
  if (typeof product !== 'string' && pass.keys.has(product.key)) product = `${product.key} is listed twice (the first row is kept)`;
  pass.report.read += 1;
  if (typeof product === 'string') {
    pass.problems.add(file, line.line, product);
    pass.report.skipped = (pass.report.skipped ?? 0) + 1;
    return null;
  }
  pass.keys.add(product.key);
  pass.report.kept += 1;
  return product;
}

function newPass(file: string): Pass {
  return { problems: new ProblemLog(), report: { file, role: 'Geneesmiddeleninformatiebank', read: 0, kept: 0, skipped: 0 }, keys: new Set() };
}

function refuseEmpty(file: string, pass: Pass): void {
  // An empty export would withdraw every stored product of the source on ingest.
  if (pass.report.kept === 0) throw new FileRejectedError(file, 'no usable registrations below the header');
}

/** Parses the export held in memory. */
export function parseNlCbg(file: InputFile): AdapterResult {
  const [first, ...body] = numberedLines(decodeUtf8OrLatin(file.content));
  const header = readHeader(file.name, first?.text);
  const substances: NlSubstances = new Map();
  const pass = newPass(file.name);
  const products = body.map((line) => check(file.name, header, line, substances, pass)).filter((p): p is ProductEntry => p !== null);
  refuseEmpty(file.name, pass);
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: NL_CBG_SOURCE, substances: [...substances.values()], products },
    problems: pass.problems.problems,
    files: [pass.report],
  };
}

/** Opens the export on disk for a streamed ingest: problems and substances from a first pass, products on the second. */
export async function openNlCbg(file: InputFile): Promise<StreamedAdapterResult> {
  const encoding = (await isUtf8File(file)) ? 'utf-8' : 'windows-1252';
  const substances: NlSubstances = new Map();
  const pass = newPass(file.name);
  let header: Header | null = null;
  const skip = new Set<number>();
  for await (const line of fileLines(file, encoding)) {
    if (!header) header = readHeader(file.name, line.text);
    else if (!check(file.name, header, line, substances, pass)) skip.add(line.line);
  }
  if (!header) readHeader(file.name, undefined);
  refuseEmpty(file.name, pass);
  async function* products(): AsyncGenerator<ProductEntry> {
    let seen: Header | null = null;
    for await (const line of fileLines(file, encoding)) {
      if (!seen) { seen = readHeader(file.name, line.text); continue; }
      if (skip.has(line.line)) continue;
      const product = readLine(seen, line, substances);
      if (typeof product === 'string') throw new FileRejectedError(file.name, `line ${line.line} changed while the file was ingested`);
      yield product;
    }
  }
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: NL_CBG_SOURCE, substances: [...substances.values()], products: products() },
    problems: pass.problems.problems,
    files: [pass.report],
  };
}
