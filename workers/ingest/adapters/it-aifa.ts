/**
 * AIFA open data for Italy (source `it-aifa`): the register of packs (`confezioni_fornitura.csv`,
 * or the older `confezioni.csv`), optionally with the active ingredients per pack
 * (`PA_confezioni.csv`), the Classe A / Classe H lists and the lista di trasparenza. Files are
 * `;`-separated, UTF-8 or Windows-1252, decimal commas; each file's role is read from its header
 * (it-aifa-files.ts), so names and order do not matter. Register rows → it-aifa-register.ts,
 * price lists → it-aifa-prices.ts.
 *
 * With PA_confezioni.csv the ingredients of a product are that file's rows for its first pack
 * (each substance with QUANTITA and UNITA_MISURA); without it, PA_ASSOCIATI names one substance
 * and the strength is read from the description's label.
 *
 * A Banca Dati Farmaci extract (it-aifa-bdfn.ts) is the register when no confezioni file is
 * given, and adds substances, routes, dates and class beside one. Price lists given without any
 * register stand for themselves under their own source (it-aifa-lists.ts), so they never delete
 * a register pack. A file none of whose first lines is an AIFA header is named unused.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, Ingredient, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { RowTally, unusedFile } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import { FileRejectedError, parseFrenchNumber, provisionalNameKey } from './common.ts';
import type { InputFile } from './common.ts';
import { delimitedTable } from './delimited-table.ts';
import type { DelimitedTable } from './delimited-table.ts';
import { INGREDIENT_COLUMNS, roleOfHeader } from './it-aifa-files.ts';
import type { AifaRole } from './it-aifa-files.ts';
import { applyBdfn, readBdfn } from './it-aifa-bdfn.ts';
import type { BdfnPack } from './it-aifa-bdfn.ts';
import { IT_AIFA_LISTS_SOURCE, packsOfLists } from './it-aifa-lists.ts';
import { NOT_IN_REGISTER, applyPriceRow, readPriceList } from './it-aifa-prices.ts';
import type { PriceList } from './it-aifa-prices.ts';
import { addRegisterRow, aicOf, tallySkip } from './it-aifa-register.ts';
import type { RegisterState } from './it-aifa-register.ts';

export const IT_AIFA_FILE = 'confezioni_fornitura.csv';
export const IT_AIFA_OPTIONAL_FILES = ['BDFN_MEDICINALE_SPOR_<ddmmyyyy>_tracciato.csv', 'PA_confezioni.csv', 'Classe_A_per_principio_attivo_<dd-mm-yyyy>.csv', 'Classe_H_per_principio_attivo_<dd-mm-yyyy>.csv', 'Lista_farmaci_equivalenti.csv'];

export const IT_AIFA_SOURCE: SourceInfo = {
  id: 'it-aifa',
  name: 'AIFA open data: medicinali autorizzati (confezioni) and price lists',
  country: 'IT',
  // AIFA regenerates the register daily; a week without a sync means the sync is broken.
  refresh_interval_hours: 24 * 7,
  licence: 'CC BY 4.0 (AIFA open data)',
  url: 'https://www.aifa.gov.it/liste-dei-farmaci',
};

const ROLE_NAMES: Record<AifaRole, string> = {
  register: 'confezioni', bdfn: 'BDFN (Banca Dati Farmaci)', ingredients: 'PA_confezioni', class_a: 'Classe A', class_h: 'Classe H', transparency: 'lista di trasparenza',
};
// Class lists first, so the monthly transparency list's public price wins.
const ORDER: AifaRole[] = ['register', 'bdfn', 'ingredients', 'class_a', 'class_h', 'transparency'];

/** A file read whole with the role its header gives it. */
export interface Opened { file: InputFile; role: AifaRole; table: DelimitedTable }

/** Reads a (small) AIFA file whole and tells its role from the header; null when no line near the top is an AIFA header. */
export function openWhole(file: InputFile): Opened | null {
  let role: AifaRole | null = null;
  try {
    const table = delimitedTable(file, (keys) => (role = roleOfHeader(keys, file.name)) !== null, 'CODICE_AIC or AIC');
    return { file, role: role!, table };
  } catch (error) {
    if (error instanceof FileRejectedError && role === null) return null;
    throw error;
  }
}

/** The report of a file given with the AIFA files that is none of them: named, not refused. */
export function unusedAifaFile(file: InputFile): FileReport {
  return unusedFile(file.name, 'not an AIFA file (no header naming CODICE_AIC or AIC with the columns of a register, BDFN or price list)');
}

/** The files given, read whole; those that are no AIFA file are named unused, and a release without any AIFA file is refused. */
function openAll(files: readonly InputFile[]): { opened: Opened[]; unused: Map<InputFile, FileReport> } {
  const opened: Opened[] = [];
  const unused = new Map<InputFile, FileReport>();
  for (const file of files) {
    const o = openWhole(file);
    if (o) opened.push(o);
    else unused.set(file, unusedAifaFile(file));
  }
  if (opened.length === 0) {
    throw new FileRejectedError(files[0]?.name ?? IT_AIFA_FILE, `no AIFA file among the files given (no header row naming CODICE_AIC or AIC with the columns of ${IT_AIFA_FILE}, a BDFN extract or a price list)`);
  }
  return { opened, unused };
}

/** What the files beside the register add, checked against it: ingredients, BDFN facts and price lists by AIC. */
export interface Annexes {
  ingredients: Map<string, Ingredient[]>;
  bdfn: Map<string, BdfnPack>;
  lists: PriceList[];
  /** Row outcomes per file. */
  tallies: Map<InputFile, RowTally>;
}

/** Ingredients per AIC from PA_confezioni.csv; rows without a valid AIC or a name are malformed, rows of packs the register lacks excluded. */
function readIngredients(opened: Opened, inRegister: (aic: string) => boolean, tally: RowTally, substances: Map<string, SubstanceEntry>): Map<string, Ingredient[]> {
  const out = new Map<string, Ingredient[]>();
  const quantityColumn = INGREDIENT_COLUMNS.quantity.find((c) => opened.table.header.includes(c));
  const unitColumn = INGREDIENT_COLUMNS.unit.find((c) => opened.table.header.includes(c));
  for (const row of opened.table.rows) {
    const aic = aicOf(row.get(INGREDIENT_COLUMNS.aic));
    const name = row.get(INGREDIENT_COLUMNS.substance);
    if (!aic || name === '') { tally.malformedRow(row.line, 'no valid AIC or no PRINCIPIO_ATTIVO'); continue; }
    // Ingredients of packs the register does not list would never be used.
    if (!inRegister(aic)) { tally.exclude(NOT_IN_REGISTER); continue; }
    tally.keep();
    const key = provisionalNameKey(name);
    if (!substances.has(key)) substances.set(key, { unii: key, name, names: { it: name.toLowerCase() }, provisional: true });
    const quantity = quantityColumn ? row.get(quantityColumn) : '';
    const unit = unitColumn ? row.get(unitColumn) : '';
    const value = parseFrenchNumber(quantity);
    const ingredient: Ingredient = { unii: key };
    if (value !== null) Object.assign(ingredient, { strength_value: value, ...(unit ? { strength_unit: unit } : {}), strength_text: `${quantity} ${unit}`.trim() });
    out.set(aic, [...(out.get(aic) ?? []), ingredient]);
  }
  return out;
}

/** Reads the files beside the register (any order given; class lists before the transparency list), each row into its file's tally. */
export function readAnnexes(opened: Opened[], inRegister: (aic: string) => boolean, problems: RowProblem[], substances: Map<string, SubstanceEntry>): Annexes {
  const annexes: Annexes = { ingredients: new Map(), bdfn: new Map(), lists: [], tallies: new Map() };
  for (const o of [...opened].sort((a, b) => ORDER.indexOf(a.role) - ORDER.indexOf(b.role))) {
    const tally = new RowTally(o.file.name, problems);
    annexes.tallies.set(o.file, tally);
    if (o.role === 'register') throw new FileRejectedError(o.file.name, `a second register file (${IT_AIFA_FILE})`);
    if (o.role === 'bdfn') {
      if (annexes.bdfn.size > 0) throw new FileRejectedError(o.file.name, 'a second BDFN extract; give one release at a time');
      annexes.bdfn = readBdfn(o.table, inRegister, tally, substances);
    } else if (o.role === 'ingredients') {
      for (const [aic, list] of readIngredients(o, inRegister, tally, substances)) annexes.ingredients.set(aic, list);
    } else {
      annexes.lists.push(readPriceList(o.table, o.role, o.file.name, inRegister, tally));
    }
  }
  return annexes;
}

/** Gives a product its BDFN facts, its PA_confezioni ingredients (those of its first pack listed there) and its packs their prices. */
export function completeProduct(product: ProductEntry, annexes: Annexes): ProductEntry {
  applyBdfn(product, annexes.bdfn);
  const first = product.packs.find((p) => annexes.ingredients.has(p.key));
  if (first) product.ingredients = annexes.ingredients.get(first.key)!;
  for (const pack of product.packs) {
    for (const list of annexes.lists) {
      const row = list.rows.get(pack.key);
      if (row) applyPriceRow(list, row, { product, pack });
    }
  }
  return product;
}

/** The file report of an AIFA file from its tally. */
export function fileReport(tally: RowTally, role: AifaRole): FileReport {
  return tally.report(ROLE_NAMES[role]);
}

/** Products of the register's rows (confezioni_fornitura.csv), each row counted in `tally`. */
function readRegister(register: Opened, state: RegisterState, tally: RowTally): void {
  for (const row of register.table.rows) {
    const skip = addRegisterRow(row, register.table.header.length, state);
    if (skip) tallySkip(tally, row.line, skip);
    else tally.keep();
  }
}

/** Products of a BDFN extract given as the register: one pack per AIC from its first row. */
function bdfnRegister(bdfn: Opened, state: RegisterState, tally: RowTally): Map<string, BdfnPack> {
  const packs = readBdfn(bdfn.table, () => true, tally, state.substances);
  for (const [aic, pack] of packs) {
    const skip = addRegisterRow(pack.row, 0, state);
    if (skip && 'malformed' in skip) { tally.unkeep({ malformed: { line: pack.row.line, message: skip.malformed } }); packs.delete(aic); }
  }
  return packs;
}

/** The report of every file given, in the order given. */
export function reports(files: readonly InputFile[], opened: readonly Pick<Opened, 'file' | 'role'>[], unused: ReadonlyMap<InputFile, FileReport>, tallies: ReadonlyMap<InputFile, RowTally>): FileReport[] {
  return files.map((f) => unused.get(f) ?? fileReport(tallies.get(f)!, opened.find((o) => o.file === f)!.role));
}

function snapshotOf(source: SourceInfo, state: RegisterState, problems: RowProblem[], files: FileReport[]): AdapterResult {
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source, substances: [...state.substances.values()], products: [...state.products.values()] },
    problems,
    files,
  };
}

/** Price lists given without the register: their own packs, under their own source (it-aifa-lists.ts). */
function parseListsAlone(files: readonly InputFile[], opened: Opened[], unused: Map<InputFile, FileReport>): AdapterResult {
  const ingredients = opened.find((o) => o.role === 'ingredients');
  if (ingredients) throw new FileRejectedError(ingredients.file.name, `PA_confezioni.csv names the substances of packs the register describes: give it with ${IT_AIFA_FILE}`);
  const problems: RowProblem[] = [];
  const state: RegisterState = { products: new Map(), packs: new Map(), substances: new Map() };
  const annexes = readAnnexes(opened, () => true, problems, state.substances);
  const ordered = [...opened].sort((a, b) => ORDER.indexOf(a.role) - ORDER.indexOf(b.role));
  const lists = ordered.map((o, i) => ({ list: annexes.lists[i]!, header: o.table.header, tally: annexes.tallies.get(o.file)! }));
  // The transparency list describes a pack best (it names the ATC): its rows build the packs first.
  packsOfLists(lists.reverse(), state);
  if (state.packs.size === 0) throw new FileRejectedError(opened[0]!.file.name, 'no usable AIC rows below the header');
  for (const product of state.products.values()) completeProduct(product, annexes);
  return snapshotOf(IT_AIFA_LISTS_SOURCE, state, problems, reports(files, opened, unused, annexes.tallies));
}

/**
 * Parses the AIFA files given. The register (confezioni_fornitura.csv, else a BDFN extract) is
 * read whole and the others are joined to it by AIC; price lists alone stand for themselves.
 */
export function parseItAifa(files: InputFile[]): AdapterResult {
  const { opened, unused } = openAll(files);
  const registers = opened.filter((o) => o.role === 'register');
  if (registers.length > 1) throw new FileRejectedError(registers[1]!.file.name, `a second register file (${IT_AIFA_FILE}); give one release at a time`);
  const bdfns = opened.filter((o) => o.role === 'bdfn');
  const main = registers[0] ?? (bdfns.length === 1 ? bdfns[0]! : undefined);
  if (!main && bdfns.length === 0) return parseListsAlone(files, opened, unused);
  if (!main) throw new FileRejectedError(bdfns[1]!.file.name, 'a second BDFN extract; give one release at a time');
  const problems: RowProblem[] = [];
  const state: RegisterState = { products: new Map(), packs: new Map(), substances: new Map() };
  const tally = new RowTally(main.file.name, problems);
  let bdfn: Map<string, BdfnPack> | null = null;
  if (main.role === 'register') readRegister(main, state, tally);
  else bdfn = bdfnRegister(main, state, tally);
  // An empty register would delete every stored AIFA pack on ingest: refuse it instead.
  if (state.packs.size === 0) throw new FileRejectedError(main.file.name, 'no usable AIC rows below the header');
  const annexes = readAnnexes(opened.filter((o) => o !== main), (aic) => state.packs.has(aic), problems, state.substances);
  if (bdfn) annexes.bdfn = bdfn;
  annexes.tallies.set(main.file, tally);
  for (const product of state.products.values()) completeProduct(product, annexes);
  return snapshotOf(IT_AIFA_SOURCE, state, problems, reports(files, opened, unused, annexes.tallies));
}
