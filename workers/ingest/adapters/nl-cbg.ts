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
import type { AdapterResult, ProductEntry, SourceInfo } from '../snapshot.ts';
import type { StreamedAdapterResult } from '../input.ts';
import { FileRejectedError, decodeUtf8OrLatin, numberedLines } from './common.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
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

/** The first pass over the export: each line's outcome, and the keys kept so far. */
interface Pass {
  tally: RowTally;
  keys: Set<string>;
}

const ROLE = 'Geneesmiddeleninformatiebank';

/**
 * Checks one line of the first pass; returns the product when it is kept. A line that cannot
 * be read is malformed; a registration listed again is a duplicate (the first line is kept).
 */
function check(header: Header, line: NumberedLine, substances: NlSubstances, pass: Pass): ProductEntry | null {
  const product = readLine(header, line, substances);
  if (typeof product === 'string') {
    pass.tally.malformedRow(line.line, product);
    return null;
  }
  if (pass.keys.has(product.key)) {
    pass.tally.exclude(EXCLUDED.duplicate);
    return null;
  }
  pass.keys.add(product.key);
  pass.tally.keep();
  return product;
}

function newPass(file: string): Pass {
  return { tally: new RowTally(file), keys: new Set() };
}

function refuseEmpty(file: string, pass: Pass): void {
  // An empty export would withdraw every stored product of the source on ingest.
  if (pass.tally.kept === 0) throw new FileRejectedError(file, 'no usable registrations below the header');
}

/** Parses the export held in memory. */
export function parseNlCbg(file: InputFile): AdapterResult {
  const [first, ...body] = numberedLines(decodeUtf8OrLatin(file.content));
  const header = readHeader(file.name, first?.text);
  const substances: NlSubstances = new Map();
  const pass = newPass(file.name);
  const products = body.map((line) => check(header, line, substances, pass)).filter((p): p is ProductEntry => p !== null);
  refuseEmpty(file.name, pass);
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: NL_CBG_SOURCE, substances: [...substances.values()], products },
    problems: pass.tally.problems,
    files: [pass.tally.report(ROLE)],
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
    else if (!check(header, line, substances, pass)) skip.add(line.line);
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
    problems: pass.tally.problems,
    files: [pass.tally.report(ROLE)],
  };
}
