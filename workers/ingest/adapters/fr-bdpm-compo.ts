/**
 * `CIS_COMPO_bdpm.txt`, the composition: CIS, pharmaceutical element, substance code,
 * substance name, dosage, dosage reference, nature (SA = active substance, FT = therapeutic
 * fraction), link number.
 *
 * BDPM substance codes are not UNIIs, so substances are keyed provisionally as `bdpm:<code>`
 * with their French name. An FT row shares its link number with the SA it expresses
 * (CHLORHYDRATE DE METFORMINE 1000 mg ≙ METFORMINE 780 mg): the SA is the ingredient, the FT
 * its `moiety` with its own strength, and the SA substance's `moiety_unii` points to the FT
 * substance, so salts fold to their moiety.
 */
import type { Ingredient, ProductEntry, SubstanceEntry } from '../snapshot.ts';
import { parseFrenchNumber } from './common.ts';
import type { InputFile } from './common.ts';
import type { RowTally } from '../row-outcome.ts';
import { CIS, NO_PRODUCT, checkFirstRow, fileLines, rowFields } from './fr-bdpm-rows.ts';

/** Prefix of provisional keys of BDPM substance codes. */
export const BDPM_SUBSTANCE_PREFIX = 'bdpm:';

const COMPO_COLUMNS = 8;

interface CompoRow {
  line: number;
  cis: string;
  key: string;
  name: string;
  dosage: string;
  reference: string;
  nature: 'SA' | 'FT';
  link: string;
}

/** A unit the arithmetic can use: `mg`, `UI`, `microgrammes`, `%`, `mg/ml` (no spaces, short). */
const UNIT = /^(?:[\p{L}µ]{1,15}|%)(?:\/[\p{L}]{1,10})?$/u;

/** `1,00 mg` → 1 mg; `100 000 UI` → 100000 UI; null when the dosage is not a number and a unit. */
export function parseDosage(raw: string): { value: number; unit: string } | null {
  const m = /^([\d\s\u00a0.,]*\d)\s*(.*)$/.exec(raw.trim());
  if (!m) return null;
  const value = parseFrenchNumber(m[1]!);
  const unit = m[2]!.trim();
  return value === null || !UNIT.test(unit) ? null : { value, unit };
}

/**
 * Strength of a dosage per its reference: per dose unit for `un comprimé`, `une gélule`,
 * `un flacon de 5 ml` (the unit as written); per unit of volume or mass for `1 ml`, `100 ml`,
 * `100 g` (`5 g` per `100 ml` → 0.05 g/ml). Null when arithmetic cannot tell.
 */
export function strengthOf(dosage: string, reference: string): { value: number; unit: string } | null {
  const amount = parseDosage(dosage);
  if (!amount) return null;
  const per = /^(\d[\d\s.,]*)\s*(ml|l|g|mg|kg|cm2|cm²)\b/i.exec(reference.trim());
  if (!per || amount.unit.includes('/') || amount.unit === '%') return amount;
  const quantity = parseFrenchNumber(per[1]!);
  if (!quantity) return null;
  return { value: Number((amount.value / quantity).toPrecision(12)), unit: `${amount.unit}/${per[2]!.toLowerCase()}` };
}

/** The dosage as the register writes it, with its reference (`1 000 mg pour un comprimé`). */
function strengthText(row: CompoRow): string | undefined {
  if (!row.dosage) return undefined;
  if (!row.reference) return row.dosage;
  return /^pour\b/i.test(row.reference) ? `${row.dosage} ${row.reference}` : `${row.dosage} pour ${row.reference}`;
}

function readCompoRow(line: number, text: string): CompoRow | string {
  const f = rowFields(text, COMPO_COLUMNS);
  if (f.length !== COMPO_COLUMNS) return `expected ${COMPO_COLUMNS} tab-separated fields, got ${f.length}`;
  const [cis, , code, name, dosage, reference, nature, link] = f as [string, string, string, string, string, string, string, string];
  if (!CIS.test(cis)) return `CIS code "${cis}" is not 8 digits`;
  if (!/^\d+$/.test(code) || name === '') return `substance code "${code}" or name missing`;
  if (nature !== 'SA' && nature !== 'FT') return `nature "${nature}" is neither SA nor FT`;
  return { line, cis, key: BDPM_SUBSTANCE_PREFIX + code, name, dosage, reference, nature, link };
}

function strengthFields(row: CompoRow): { strength_value?: number; strength_unit?: string; strength_text?: string } {
  const strength = strengthOf(row.dosage, row.reference);
  const text = strengthText(row);
  return {
    ...(strength ? { strength_value: strength.value, strength_unit: strength.unit } : {}),
    ...(text ? { strength_text: text } : {}),
  };
}

function ingredientOf(row: CompoRow, moiety: CompoRow | undefined): Ingredient {
  const ingredient: Ingredient = { unii: row.key, ...strengthFields(row) };
  if (moiety) ingredient.moiety = { unii: moiety.key, ...strengthFields(moiety) };
  return ingredient;
}

function remember(substances: Map<string, SubstanceEntry>, row: CompoRow): SubstanceEntry {
  let known = substances.get(row.key);
  if (!known) {
    known = { unii: row.key, name: row.name, names: { fr: row.name }, provisional: true };
    substances.set(row.key, known);
  }
  return known;
}

function readRows(file: InputFile, products: Map<string, ProductEntry>, tally: RowTally): CompoRow[] {
  const lines = fileLines(file);
  checkFirstRow(file.name, lines, 'CIS_COMPO_bdpm', (f) => f.length === COMPO_COLUMNS && CIS.test(f[0]!), COMPO_COLUMNS);
  const rows: CompoRow[] = [];
  for (const { line, text } of lines) {
    const row = readCompoRow(line, text);
    if (typeof row === 'string') tally.malformedRow(line, row);
    else if (!products.has(row.cis)) tally.exclude(NO_PRODUCT);
    else {
      rows.push(row);
      tally.keep();
    }
  }
  return rows;
}

/** Adds CIS_COMPO ingredients (SA with their FT moiety) to the products; returns the substances named. */
export function applyComposition(file: InputFile, products: Map<string, ProductEntry>, tally: RowTally): SubstanceEntry[] {
  const rows = readRows(file, products, tally);
  const moieties = new Map<string, CompoRow>();
  for (const row of rows) {
    const link = `${row.cis}\t${row.link}`;
    if (row.nature === 'FT' && row.link !== '' && !moieties.has(link)) moieties.set(link, row);
  }
  const substances = new Map<string, SubstanceEntry>();
  for (const row of rows) {
    if (row.nature !== 'SA') continue;
    const product = products.get(row.cis)!;
    const found = row.link === '' ? undefined : moieties.get(`${row.cis}\t${row.link}`);
    const moiety = found && found.key !== row.key ? found : undefined;
    // One SA can appear once per pharmaceutical element (two layers, exact duplicate rows): count it once.
    if (!product.ingredients.some((i) => i.unii === row.key)) product.ingredients.push(ingredientOf(row, moiety));
    const substance = remember(substances, row);
    if (moiety) {
      remember(substances, moiety);
      substance.moiety_unii ??= moiety.key;
    }
  }
  return [...substances.values()];
}
