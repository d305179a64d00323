/**
 * The AIFA register read as a stream (what `drugref ingest it-aifa` and the sync worker use):
 * the same snapshot, problems and file reports as `parseItAifa` (it-aifa.ts), without holding
 * the register (80 MB, 160 000 packs) or its products in memory. The files beside it
 * (PA_confezioni.csv, the price lists) are a fraction of its size and are read whole.
 *
 * 1. On opening, every register row is checked (problems, duplicate AICs), the substances it
 *    names are collected, and the files beside it are read and checked against its AICs, so
 *    problems, row counts and `--strict` are settled before anything is written.
 * 2. While the engine ingests, the register is read again and its products are yielded one
 *    AIC6 at a time: AIFA lists a medicine's packs together (the file is sorted by AIC), so the
 *    products of one AIC6 are complete when the next AIC6 starts.
 *
 * A register whose AIC6 runs are not contiguous (a re-sorted copy) is read whole instead.
 * Every register record is one line; AIFA's descriptions hold quotes but no line breaks.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { ProductEntry, SubstanceEntry } from '../snapshot.ts';
import type { StreamedAdapterResult } from '../input.ts';
import type { FileReport } from '../row-outcome.ts';
import { RowTally } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import { FileRejectedError } from './common.ts';
import type { InputFile } from './common.ts';
import { AIFA_HEADER_SEARCH_LINES, columnIndex, dataRow, headerCells } from './delimited-table.ts';
import { detectSeparator, splitLine, splitLines } from './delimited-text.ts';
import type { DelimitedRow } from './delimited-table.ts';
import { REGISTER_COLUMNS, roleOfHeader } from './it-aifa-files.ts';
import type { AifaRole } from './it-aifa-files.ts';
import { addRegisterRow, checkRegisterRow, isSkip, registerSubstance, tallySkip } from './it-aifa-register.ts';
import type { RegisterState } from './it-aifa-register.ts';
import {
  IT_AIFA_SOURCE, completeProduct, openWhole, parseItAifa, readAnnexes, reports, unusedAifaFile,
} from './it-aifa.ts';
import type { Annexes, Opened } from './it-aifa.ts';
import { fileLines, isUtf8File } from './line-stream.ts';

/** A file whose header sits on one line, read line by line. */
interface LineFile {
  file: InputFile;
  role: AifaRole;
  encoding: 'utf-8' | 'windows-1252';
  separator: string;
  headerLine: number;
  headerText: string[];
  header: string[];
  index: ReadonlyMap<string, number>;
  width: number;
}
type Register = LineFile;

/** The file's role and one-line header, or null when no line of the first lines is an AIFA header (the H list's header spans two). */
async function lineHeader(file: InputFile): Promise<LineFile | null> {
  const encoding = (await isUtf8File(file)) ? 'utf-8' : 'windows-1252';
  for await (const { line, text } of fileLines(file, encoding)) {
    if (line > AIFA_HEADER_SEARCH_LINES) break;
    const separator = detectSeparator(text);
    const { headerText, header } = headerCells(splitLine(text, separator));
    const role = roleOfHeader(header, file.name);
    if (role) return { file, role, encoding, separator, headerLine: line, headerText, header, index: columnIndex(header), width: header.length };
  }
  return null;
}

/** Lines split together: csv-parse is called once per batch of quoted lines, not once per line. */
const BATCH_LINES = 1000;

/** The data rows after a one-line header (the register's, in both passes). */
async function* lineRows(source: LineFile): AsyncGenerator<DelimitedRow> {
  let batch: Array<{ line: number; text: string }> = [];
  const rows = function* (): Generator<DelimitedRow> {
    const fields = splitLines(batch.map((b) => b.text), source.separator);
    for (const [i, { line }] of batch.entries()) {
      const row = dataRow(source.index, line, fields[i]!);
      if (row) yield row;
    }
    batch = [];
  };
  for await (const numbered of fileLines(source.file, source.encoding)) {
    if (numbered.line <= source.headerLine) continue;
    batch.push(numbered);
    if (batch.length === BATCH_LINES) yield* rows();
  }
  yield* rows();
}
const registerRows = lineRows;

/** A file beside the register as a table, read line by line (no decoded copy of the whole file), or whole when its header spans lines. */
async function openAnnex(file: InputFile, head: LineFile | null): Promise<Opened | null> {
  if (!head) return openWhole(file);
  const rows: DelimitedRow[] = [];
  for await (const row of lineRows(head)) rows.push(row);
  return { file, role: head.role, table: { header: head.header, headerText: head.headerText, rows, workbook: false } };
}

interface Checked { tally: RowTally; skipped: Set<number>; contiguous: boolean; aics: Set<string> }

/** First pass: every row checked into the register's tally and its substance collected; AIC6 runs checked for contiguity. */
async function checkRegister(register: Register, problems: RowProblem[], substances: Map<string, SubstanceEntry>): Promise<Checked> {
  const checked: Checked = { tally: new RowTally(register.file.name, problems), skipped: new Set(), contiguous: true, aics: new Set() };
  const closed = new Set<string>();
  let current: string | null = null;
  for await (const row of registerRows(register)) {
    const result = checkRegisterRow(row, register.width, (aic) => checked.aics.has(aic));
    if (isSkip(result)) { tallySkip(checked.tally, row.line, result); checked.skipped.add(row.line); continue; }
    checked.tally.keep();
    checked.aics.add(result.aic);
    if (row.get(REGISTER_COLUMNS.substances) !== '') registerSubstance(row.get(REGISTER_COLUMNS.substances), substances);
    if (result.aic6 !== current) {
      if (closed.has(result.aic6)) checked.contiguous = false;
      if (current !== null) closed.add(current);
      current = result.aic6;
    }
  }
  return checked;
}

/** Second pass: the products of each AIC6 run, completed from the annexes, as the run ends. */
async function* products(register: Register, skip: ReadonlySet<number>, annexes: Annexes): AsyncGenerator<ProductEntry> {
  let group: RegisterState = { products: new Map(), packs: new Map(), substances: new Map() };
  let current: string | null = null;
  for await (const row of registerRows(register)) {
    if (skip.has(row.line)) continue;
    const aic6 = row.get(REGISTER_COLUMNS.aic).replace(/^A/i, '').trim().padStart(9, '0').slice(0, 6);
    if (aic6 !== current) {
      for (const product of group.products.values()) yield completeProduct(product, annexes);
      group = { products: new Map(), packs: new Map(), substances: new Map() };
      current = aic6;
    }
    if (addRegisterRow(row, register.width, group) !== null) {
      throw new FileRejectedError(register.file.name, `line ${row.line} reads differently than when the file was checked: the file changed while it was ingested`);
    }
  }
  for (const product of group.products.values()) yield completeProduct(product, annexes);
}

/** Opens the AIFA files for a streamed ingest; see the module comment. */
export async function openItAifa(files: InputFile[]): Promise<StreamedAdapterResult> {
  const heads = await Promise.all(files.map(lineHeader));
  const registers = heads.filter((h): h is Register => h?.role === 'register');
  if (registers.length !== 1) return parseItAifa(files);
  const register = registers[0]!;
  const problems: RowProblem[] = [];
  const substances = new Map<string, SubstanceEntry>();
  const checked = await checkRegister(register, problems, substances);
  // A re-sorted copy cannot be grouped in one pass: read it whole, as `parse` does.
  if (!checked.contiguous) return parseItAifa(files);
  // An empty register would delete every stored AIFA pack on ingest: refuse it instead.
  if (checked.tally.kept === 0) throw new FileRejectedError(register.file.name, 'no usable AIC rows below the header');
  const others: Opened[] = [];
  const unused = new Map<InputFile, FileReport>();
  for (const [i, file] of files.entries()) {
    if (file === register.file) continue;
    const o = await openAnnex(file, heads[i]!);
    if (o) others.push(o);
    else unused.set(file, unusedAifaFile(file));
  }
  const annexes = readAnnexes(others, (aic) => checked.aics.has(aic), problems, substances);
  checked.aics.clear();
  annexes.tallies.set(register.file, checked.tally);
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT,
      source: IT_AIFA_SOURCE,
      substances: [...substances.values()],
      products: products(register, checked.skipped, annexes),
    },
    problems,
    files: reports(files, [...others, register], unused, annexes.tallies),
  };
}
