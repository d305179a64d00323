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
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, Ingredient, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { FileRejectedError, ProblemLog, parseFrenchNumber, provisionalNameKey } from './common.ts';
import type { InputFile } from './common.ts';
import { delimitedTable } from './delimited-table.ts';
import type { DelimitedTable } from './delimited-table.ts';
import { INGREDIENT_COLUMNS, roleOfHeader } from './it-aifa-files.ts';
import type { AifaRole } from './it-aifa-files.ts';
import { applyPriceRow, readPriceList } from './it-aifa-prices.ts';
import type { PriceList } from './it-aifa-prices.ts';
import { addRegisterRow, aicOf } from './it-aifa-register.ts';
import type { RegisterState } from './it-aifa-register.ts';

export const IT_AIFA_FILE = 'confezioni_fornitura.csv';
export const IT_AIFA_OPTIONAL_FILES = ['PA_confezioni.csv', 'Classe_A_per_principio_attivo_<dd-mm-yyyy>.csv', 'Classe_H_per_principio_attivo_<dd-mm-yyyy>.csv', 'Lista_farmaci_equivalenti.csv'];

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
  register: 'confezioni', ingredients: 'PA_confezioni', class_a: 'Classe A', class_h: 'Classe H', transparency: 'lista di trasparenza',
};
// Class lists first, so the monthly transparency list's public price wins.
const ORDER: AifaRole[] = ['register', 'ingredients', 'class_a', 'class_h', 'transparency'];

/** A file read whole with the role its header gives it. */
export interface Opened { file: InputFile; role: AifaRole; table: DelimitedTable }

/** Reads a (small) AIFA file whole and tells its role from the header. */
export function openWhole(file: InputFile): Opened {
  let role: AifaRole | null = null;
  const table = delimitedTable(file, (keys) => (role = roleOfHeader(keys, file.name)) !== null, 'CODICE_AIC or AIC');
  return { file, role: role!, table };
}

/** What the files beside the register add, checked against it: ingredients and price lists by AIC. */
export interface Annexes {
  ingredients: Map<string, Ingredient[]>;
  lists: PriceList[];
  /** Rows kept per file. */
  kept: Map<InputFile, number>;
}

/** Ingredients per AIC from PA_confezioni.csv; rows without a valid AIC or a name are reported. */
function readIngredients(opened: Opened, inRegister: (aic: string) => boolean, log: ProblemLog, substances: Map<string, SubstanceEntry>): Map<string, Ingredient[]> {
  const out = new Map<string, Ingredient[]>();
  const quantityColumn = INGREDIENT_COLUMNS.quantity.find((c) => opened.table.header.includes(c));
  const unitColumn = INGREDIENT_COLUMNS.unit.find((c) => opened.table.header.includes(c));
  for (const row of opened.table.rows) {
    const aic = aicOf(row.get(INGREDIENT_COLUMNS.aic));
    const name = row.get(INGREDIENT_COLUMNS.substance);
    if (!aic || name === '') { log.add(opened.file.name, row.line, 'no valid AIC or no PRINCIPIO_ATTIVO'); continue; }
    // Ingredients of packs the register does not list would never be used.
    if (!inRegister(aic)) continue;
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

/** Reads the files beside the register (any order given; class lists before the transparency list). */
export function readAnnexes(opened: Opened[], inRegister: (aic: string) => boolean, log: ProblemLog, substances: Map<string, SubstanceEntry>): Annexes {
  const annexes: Annexes = { ingredients: new Map(), lists: [], kept: new Map() };
  for (const o of [...opened].sort((a, b) => ORDER.indexOf(a.role) - ORDER.indexOf(b.role))) {
    const before = log.problems.length;
    if (o.role === 'register') throw new FileRejectedError(o.file.name, `a second register file (${IT_AIFA_FILE})`);
    if (o.role === 'ingredients') {
      for (const [aic, list] of readIngredients(o, inRegister, log, substances)) annexes.ingredients.set(aic, list);
    } else {
      annexes.lists.push(readPriceList(o.table, o.role, o.file.name, inRegister, (line, message) => log.add(o.file.name, line, message)));
    }
    annexes.kept.set(o.file, o.table.rows.length - (log.problems.length - before));
  }
  return annexes;
}

/** Gives a product its PA_confezioni ingredients (those of its first pack listed there) and its packs their prices. */
export function completeProduct(product: ProductEntry, annexes: Annexes): ProductEntry {
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

/** The file report of an AIFA file. */
export function fileReport(file: InputFile, role: AifaRole, read: number, kept: number): FileReport {
  return { file: file.name, role: ROLE_NAMES[role], read, kept, skipped: read - kept };
}

/** Parses the AIFA files given, the register read whole; the others are joined to it by AIC. */
export function parseItAifa(files: InputFile[]): AdapterResult {
  const opened = files.map(openWhole);
  const registers = opened.filter((o) => o.role === 'register');
  if (registers.length !== 1) {
    throw new FileRejectedError(files[0]?.name ?? IT_AIFA_FILE, `expected one register file (${IT_AIFA_FILE}), got ${registers.length}`);
  }
  const log = new ProblemLog();
  const state: RegisterState = { products: new Map(), packs: new Map(), substances: new Map() };
  const register = registers[0]!;
  for (const row of register.table.rows) {
    const problem = addRegisterRow(row, register.table.header.length, state);
    if (problem) log.add(register.file.name, row.line, problem);
  }
  // An empty register would delete every stored AIFA pack on ingest: refuse it instead.
  if (state.packs.size === 0) throw new FileRejectedError(register.file.name, 'no usable AIC rows below the header');
  const annexes = readAnnexes(opened.filter((o) => o !== register), (aic) => state.packs.has(aic), log, state.substances);
  for (const product of state.products.values()) completeProduct(product, annexes);
  const problemsOf = (file: InputFile) => log.problems.filter((p) => p.file === file.name).length;
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT,
      source: IT_AIFA_SOURCE,
      substances: [...state.substances.values()],
      products: [...state.products.values()],
    },
    problems: log.problems,
    files: opened.map((o) => fileReport(o.file, o.role, o.table.rows.length, o === register ? o.table.rows.length - problemsOf(o.file) : annexes.kept.get(o.file) ?? 0)),
  };
}
