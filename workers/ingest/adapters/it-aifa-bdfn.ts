/**
 * The Banca Dati Farmaci extract (BDFN, `BDFN_MEDICINALE_SPOR_<ddmmyyyy>_tracciato.csv`): AIFA's
 * database of medicines in EMA SPOR terms, one row per pack × route × substance (× unit of
 * presentation for a pack of two kinds of tablet), UTF-8 with a byte-order mark, `;`, 49 columns,
 * the AIC with its leading zero. The extract repeats whole rows (a triphasic pill's six
 * substance rows come three times): a row equal to an earlier one is excluded as `duplicate`.
 *
 * Each AIC's rows give one pack: its first row the pack and product fields (read through the
 * register's columns, so a BDFN pack has the key the register gives it), all of them its routes
 * and its substances with their strengths (`UGUALE A 1 g` per `4 ml`; a `RANGE` keeps its text
 * only). Given without the register, the extract is the register; beside it, it adds what the
 * register does not say (substances with strengths, routes, authorisation date, SSN class).
 */
import type { Ingredient, ProductEntry, SubstanceEntry } from '../snapshot.ts';
import { EXCLUDED } from '../row-outcome.ts';
import type { RowTally } from '../row-outcome.ts';
import { parseFrenchNumber } from './common.ts';
import type { DelimitedRow, DelimitedTable } from './delimited-table.ts';
import { BDFN_COLUMNS as B, REGISTER_COLUMNS as C, italianDate } from './it-aifa-files.ts';
import { NOT_IN_REGISTER } from './it-aifa-prices.ts';
import { aicOf, registerSubstance } from './it-aifa-register.ts';

/** What the BDFN rows of one AIC say. */
export interface BdfnPack {
  /** The first row of the AIC as published, and read through the register's column names. */
  first: DelimitedRow;
  row: DelimitedRow;
  routes: string[];
  ingredients: Ingredient[];
  /** Substance names already in `ingredients` (the first row of each counts). */
  names: Set<string>;
}

/** Register column → BDFN column, for reading a BDFN row as a register row. */
const AS_REGISTER: Partial<Record<string, string>> = {
  [C.aic]: B.aic, [C.product]: B.product, [C.name]: B.name, [C.description]: B.description, [C.holder]: B.holder,
  [C.status]: B.status, [C.procedure]: B.procedure, [C.form]: B.form, [C.atc]: B.atc, [C.supply]: B.supply,
};

/** A BDFN row as the register's columns name its cells (the substances come from all rows, not one). */
export function bdfnAsRegister(row: DelimitedRow): DelimitedRow {
  return { line: row.line, width: row.width, get: (column) => { const c = AS_REGISTER[column]; return c ? row.get(c) : ''; } };
}

function amount(raw: string): number | null {
  return raw === '' ? null : parseFrenchNumber(raw);
}

/** The substance of a row with its strength: `1 g` per `4 ml` as value 1, unit `g/4ml`; a range as text only. */
function ingredientOf(row: DelimitedRow, substances: Map<string, SubstanceEntry>): Ingredient {
  const ingredient: Ingredient = { unii: registerSubstance(row.get(B.substance), substances) };
  const min = amount(row.get(B.min));
  const unit = row.get(B.unit);
  if (min === null || unit === '') return ingredient;
  const per = amount(row.get(B.per));
  const perUnit = row.get(B.perUnit);
  const denominator = perUnit === '' ? '' : `/${per !== null && per !== 1 ? row.get(B.per) : ''}${perUnit}`;
  const max = amount(row.get(B.max));
  if (row.get(B.operator).toUpperCase() === 'RANGE' && max !== null) {
    ingredient.strength_text = `${row.get(B.min)}-${row.get(B.max)} ${unit}${denominator}`;
    return ingredient;
  }
  return Object.assign(ingredient, { strength_value: min, strength_unit: `${unit}${denominator.replace(',', '.')}`, strength_text: `${row.get(B.min)} ${unit}${denominator}` });
}

/**
 * Reads the BDFN rows into packs by AIC, counting each row in `tally`: an invalid AIC or a short
 * row is malformed, a row equal to an earlier one a `duplicate`, a pack `inRegister` refuses
 * `not_in_register`; every other row is kept (it adds a route or a substance to its pack).
 */
export function readBdfn(table: DelimitedTable, inRegister: (aic: string) => boolean, tally: RowTally, substances: Map<string, SubstanceEntry>): Map<string, BdfnPack> {
  const packs = new Map<string, BdfnPack>();
  const seen = new Set<string>();
  for (const row of table.rows) {
    if (row.width < table.header.length) { tally.malformedRow(row.line, `row has ${row.width} fields, the header ${table.header.length}`); continue; }
    const aic = aicOf(row.get(B.aic));
    if (!aic) { tally.malformedRow(row.line, `AIC "${row.get(B.aic)}" is not a valid AIC (9 digits, Code 32 check digit)`); continue; }
    if (!inRegister(aic)) { tally.exclude(NOT_IN_REGISTER); continue; }
    const whole = table.header.map((h) => row.get(h)).join('\u0000');
    if (seen.has(whole)) { tally.exclude(EXCLUDED.duplicate); continue; }
    seen.add(whole);
    tally.keep();
    const pack = packs.get(aic) ?? { first: row, row: bdfnAsRegister(row), routes: [], ingredients: [], names: new Set<string>() };
    packs.set(aic, pack);
    const route = row.get(B.route);
    if (route !== '' && !pack.routes.includes(route)) pack.routes.push(route);
    const name = row.get(B.substance);
    if (name !== '' && !pack.names.has(name)) { pack.names.add(name); pack.ingredients.push(ingredientOf(row, substances)); }
  }
  return packs;
}

/** Gives a product what the BDFN says of its first pack it lists: substances with strengths, routes, date, SSN class. */
export function applyBdfn(product: ProductEntry, bdfn: ReadonlyMap<string, BdfnPack>): void {
  const key = product.packs.find((p) => bdfn.has(p.key))?.key;
  if (key === undefined) return;
  const pack = bdfn.get(key)!;
  if (pack.ingredients.length > 0) product.ingredients = pack.ingredients;
  if (pack.routes.length > 0) product.route = pack.routes.join(', ');
  // The date and class are the same on every row of a pack; its first row gives them.
  const { first } = pack;
  const authorised = italianDate(first.get(B.authorised));
  if (authorised) product.authorised_on = authorised;
  const band = first.get(B.band);
  if (band !== '') product.attributes = { ...product.attributes, classe_rimborsabilita: band };
}
