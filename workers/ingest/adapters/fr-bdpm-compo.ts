/**
 * Optional BDPM files read by the fr-bdpm adapter: `CIS_COMPO_bdpm.txt` (composition) and
 * `CIS_MITM.txt` (ATC codes of the medicines of major therapeutic interest).
 *
 * CIS_COMPO columns: CIS, pharmaceutical element, substance code, substance name, dosage,
 * dosage reference, nature (SA = active substance, FT = therapeutic fraction), link number.
 * BDPM substance codes are not UNIIs, so substances are keyed provisionally as `bdpm:<code>`.
 * An FT row shares its link number with the SA it expresses (CHLORHYDRATE DE METFORMINE →
 * METFORMINE): the FT becomes the SA's active moiety.
 */
import { atcLevel } from '../../../resolvers/catalogue/codes.ts';
import type { Ingredient, ProductEntry, SubstanceEntry } from '../snapshot.ts';
import { numberedLines, parseFrenchNumber, tabFields } from './common.ts';
import type { ProblemLog } from './common.ts';

/** Prefix of provisional keys of BDPM substance codes. */
export const BDPM_SUBSTANCE_PREFIX = 'bdpm:';

const CIS = /^\d{8}$/;

interface CompoRow {
  line: number;
  cis: string;
  key: string;
  name: string;
  dosage: string;
  nature: 'SA' | 'FT';
  link: string;
}

/** `1,00 mg` → 1 mg; `100 000 UI` → 100000 UI; null when the dosage has no leading number. */
export function parseDosage(raw: string): { value: number; unit: string } | null {
  const m = /^([\d\s\u00a0.,]*\d)\s*(.*)$/.exec(raw.trim());
  if (!m) return null;
  const value = parseFrenchNumber(m[1]!);
  return value === null ? null : { value, unit: m[2]!.trim() };
}

function readCompoRow(line: number, text: string): CompoRow | string {
  const f = tabFields(text);
  if (f.length < 8) return `expected 8 tab-separated fields, got ${f.length}`;
  const [cis, , code, name, dosage, , nature, link] = f as [string, string, string, string, string, string, string, string];
  if (!CIS.test(cis)) return `CIS code "${cis}" is not 8 digits`;
  if (!/^\d+$/.test(code) || name === '') return `substance code "${code}" or name missing`;
  if (nature !== 'SA' && nature !== 'FT') return `nature "${nature}" is neither SA nor FT`;
  return { line, cis, key: BDPM_SUBSTANCE_PREFIX + code, name, dosage, nature, link };
}

function ingredientOf(row: CompoRow): Ingredient {
  const dosage = parseDosage(row.dosage);
  return dosage ? { unii: row.key, strength_value: dosage.value, strength_unit: dosage.unit } : { unii: row.key };
}

function remember(substances: Map<string, SubstanceEntry>, row: CompoRow): SubstanceEntry {
  const known = substances.get(row.key) ?? { unii: row.key, name: row.name, provisional: true };
  substances.set(row.key, known);
  return known;
}

/** Adds CIS_COMPO ingredients to the products and returns the substances it names. */
export function applyComposition(
  file: string, text: string, products: Map<string, ProductEntry>, log: ProblemLog,
): SubstanceEntry[] {
  const substances = new Map<string, SubstanceEntry>();
  const rows: CompoRow[] = [];
  for (const { line, text: raw } of numberedLines(text)) {
    const row = readCompoRow(line, raw);
    if (typeof row === 'string') log.add(file, line, row);
    else if (!products.has(row.cis)) log.add(file, line, `CIS ${row.cis} is not a product of CIS_bdpm.txt (or was skipped)`);
    else rows.push(row);
  }
  for (const row of rows.filter((r) => r.nature === 'SA')) {
    const product = products.get(row.cis)!;
    // One SA can appear once per pharmaceutical element (e.g. two layers); count it once.
    if (!product.ingredients.some((i) => i.unii === row.key)) product.ingredients.push(ingredientOf(row));
    const moiety = rows.find((r) => r.nature === 'FT' && r.cis === row.cis && r.link === row.link);
    const substance = remember(substances, row);
    if (moiety && moiety.key !== row.key) {
      remember(substances, moiety);
      substance.moiety_unii = moiety.key;
    }
  }
  return [...substances.values()];
}

/** Sets `atc_code` from CIS_MITM.txt (CIS, ATC code, name, link); other CIS keep none. */
export function applyAtcCodes(file: string, text: string, products: Map<string, ProductEntry>, log: ProblemLog): void {
  for (const { line, text: raw } of numberedLines(text)) {
    const [cis = '', atc = ''] = tabFields(raw);
    const code = atc.toUpperCase();
    if (!CIS.test(cis) || atcLevel(code) === null) {
      log.add(file, line, `expected a CIS code and an ATC code, got "${cis}" and "${atc}"`);
      continue;
    }
    const product = products.get(cis);
    if (product) product.atc_code = code;
  }
}
