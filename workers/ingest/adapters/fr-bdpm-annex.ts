/**
 * The BDPM files that annotate medicines by CIS:
 * - `CIS_GENER_bdpm.txt`: generic group id, group label, CIS, type (0 princeps, 1 generic,
 *   2 generic by dosage complementarity, 4 substitutable; there is no 3), sort number.
 * - `CIS_CPD_bdpm.txt`: CIS, one condition of prescription or dispensing per row.
 * - `CIS_MITM.txt`: CIS, ATC code, denomination, BDPM link — the medicines of major
 *   therapeutic interest; the only BDPM file with ATC codes, so other CIS keep none.
 * - `CIS_InfoImportantes*.txt` (generated live, timestamped name): CIS, start date, end date,
 *   HTML text with a link to the ANSM safety information.
 * - `CIS_CIP_Dispo_Spec.txt`: the ANSM availability notices, read as fr-availability.ts
 *   reads them for fr-ansm-supply (each code's current notice).
 *
 * Rows of CIS codes that are not (or no longer) in CIS_bdpm are out of scope: counted as
 * skipped, not reported as malformed (about a fifth of GENER rows, routinely).
 */
import { atcLevel } from '../../../vocabulary/codes.ts';
import type { ProductEntry } from '../snapshot.ts';
import type { InputFile } from './common.ts';
import type { RowTally } from '../row-outcome.ts';
import { CIS, NO_PRODUCT, bdpmDate, checkFirstRow, fileLines, firstHref, htmlToText, rowFields } from './fr-bdpm-rows.ts';
import { currentNotices } from './fr-availability.ts';

type GenericRole = NonNullable<ProductEntry['generic_groups']>[number]['role'];

const GENERIC_ROLES: Record<string, GenericRole> = { 0: 'princeps', 1: 'generic', 2: 'complementary', 4: 'substitutable' };

/** A row about a pack CIS_CIP_bdpm.txt does not hold (its medicine is there). */
const NO_PACK = 'no_pack';

/** Reads a file row by row; `apply` returns an error message, true (kept) or the reason it is excluded. */
function eachRow(
  file: InputFile, role: string, columns: number, fits: (f: string[]) => boolean, tally: RowTally,
  apply: (fields: string[]) => string | true | { excluded: string },
): void {
  const lines = fileLines(file);
  checkFirstRow(file.name, lines, role, (f) => f.length === columns && fits(f), columns);
  for (const { line, text } of lines) {
    const fields = rowFields(text, columns, true);
    const result = fields.length === columns ? apply(fields) : `expected ${columns} tab-separated fields, got ${fields.length}`;
    if (typeof result === 'string') tally.malformedRow(line, result);
    else if (result === true) tally.keep();
    else tally.exclude(result.excluded);
  }
}

/** CIS_GENER_bdpm.txt → `generic_groups` (and `generic`: false for a princeps, true otherwise). */
export function applyGenericGroups(file: InputFile, products: Map<string, ProductEntry>, tally: RowTally): void {
  const touched = new Set<ProductEntry>();
  eachRow(file, 'CIS_GENER_bdpm', 5, (f) => /^\d+$/.test(f[0]!) && CIS.test(f[2]!), tally, (fields) => {
    const [group, label, cis, type] = fields as [string, string, string, string];
    if (!/^\d+$/.test(group)) return `generic group id "${group}" is not a number`;
    if (!CIS.test(cis)) return `CIS code "${cis}" is not 8 digits`;
    const role = GENERIC_ROLES[type];
    if (!role) return `generic type "${type}" is not 0, 1, 2 or 4`;
    const product = products.get(cis);
    if (!product) return { excluded: NO_PRODUCT };
    const groups = product.generic_groups ?? (product.generic_groups = []);
    if (!groups.some((g) => g.code === group)) groups.push({ code: group, ...(label ? { label } : {}), role });
    touched.add(product);
    return true;
  });
  for (const product of touched) {
    product.generic_groups!.sort((a, b) => Number(a.code) - Number(b.code));
    product.generic = product.generic_groups!.some((g) => g.role !== 'princeps');
  }
}

/** The list a CPD condition names (`liste I`, `Liste II`, `stupéfiants`), else null. */
export function dispensingList(condition: string): string | null {
  const s = condition.trim().replace(/\s+/g, ' ');
  if (/^liste I$/i.test(s)) return 'Liste I';
  if (/^liste II$/i.test(s)) return 'Liste II';
  return /^stup[ée]fiants?$/i.test(s) ? 'Stupéfiant' : null;
}

/** Precedence when a medicine names several lists: the strictest regime applies. */
const LIST_ORDER = ['Stupéfiant', 'Liste I', 'Liste II'];

function addCondition(product: ProductEntry, condition: string): void {
  const list = dispensingList(condition);
  const current = product.dispensing_category;
  if (list && list === current) return;
  let text = condition;
  if (list && (!current || LIST_ORDER.indexOf(list) < LIST_ORDER.indexOf(current))) {
    product.dispensing_category = list;
    if (!current) return;
    // The weaker list the medicine also names stays as a condition.
    text = current;
  }
  const attributes = product.attributes ?? (product.attributes = {});
  const known = typeof attributes.prescription_conditions === 'string' ? attributes.prescription_conditions.split('; ') : [];
  if (!known.includes(text)) attributes.prescription_conditions = [...known, text].join('; ');
}

/** CIS_CPD_bdpm.txt → `dispensing_category` (Liste I / Liste II / Stupéfiant), other conditions in attributes. */
export function applyConditions(file: InputFile, products: Map<string, ProductEntry>, tally: RowTally): void {
  eachRow(file, 'CIS_CPD_bdpm', 2, (f) => CIS.test(f[0]!), tally, ([cis = '', condition = '']) => {
    if (!CIS.test(cis)) return `CIS code "${cis}" is not 8 digits`;
    if (!condition) return 'condition is empty';
    const product = products.get(cis);
    if (!product) return { excluded: NO_PRODUCT };
    addCondition(product, condition);
    return true;
  });
}

/** CIS_MITM.txt → `atc_code` and `attributes.mitm` (medicine of major therapeutic interest). */
export function applyMitm(file: InputFile, products: Map<string, ProductEntry>, tally: RowTally): void {
  eachRow(file, 'CIS_MITM', 4, (f) => CIS.test(f[0]!), tally, ([cis = '', atc = '']) => {
    const code = atc.toUpperCase();
    if (!CIS.test(cis) || atcLevel(code) === null) return `expected a CIS code and an ATC code, got "${cis}" and "${atc}"`;
    const product = products.get(cis);
    if (!product) return { excluded: NO_PRODUCT };
    product.atc_code = code;
    product.attributes = { ...product.attributes, mitm: true };
    return true;
  });
}

/**
 * CIS_InfoImportantes → `attributes.safety_info` (texts, newest first, one per line),
 * `safety_info_url`, `safety_info_from` and `safety_info_until` of the newest note.
 */
export function applySafetyInfo(file: InputFile, products: Map<string, ProductEntry>, tally: RowTally): void {
  const notes = new Map<ProductEntry, Array<{ from: string; until: string | null; text: string; url?: string }>>();
  eachRow(file, 'CIS_InfoImportantes', 4, (f) => CIS.test(f[0]!), tally, ([cis = '', start = '', end = '', html = '']) => {
    if (!CIS.test(cis)) return `CIS code "${cis}" is not 8 digits`;
    const from = bdpmDate(start);
    const until = end ? bdpmDate(end) : null;
    if (!from || (end && !until)) return `dates "${start}" and "${end}" are not DD/MM/YYYY`;
    const text = htmlToText(html);
    if (!text) return 'safety information text is empty';
    const product = products.get(cis);
    if (!product) return { excluded: NO_PRODUCT };
    const list = notes.get(product) ?? [];
    list.push({ from, until, text, ...(firstHref(html) ? { url: firstHref(html)! } : {}) });
    notes.set(product, list);
    return true;
  });
  for (const [product, list] of notes) {
    list.sort((a, b) => b.from.localeCompare(a.from) || a.text.localeCompare(b.text));
    const newest = list[0]!;
    product.attributes = {
      ...product.attributes,
      safety_info: [...new Set(list.map((n) => n.text))].join('\n'),
      safety_info_from: newest.from,
      ...(newest.until ? { safety_info_until: newest.until } : {}),
      ...(newest.url ? { safety_info_url: newest.url } : {}),
    };
  }
}

/**
 * CIS_CIP_Dispo_Spec.txt → the pack's `availability` (its CIP13 given) or `attributes.availability`
 * (whole medicine), from each code's current notice as fr-ansm-supply reads it (fr-availability.ts),
 * so the attribute and the supply status never tell two stories.
 */
export function applyAvailability(file: InputFile, products: Map<string, ProductEntry>, tally: RowTally): void {
  const lines = fileLines(file);
  checkFirstRow(file.name, lines, 'CIS_CIP_Dispo_Spec', (f) => f.length === 8 && CIS.test(f[0]!), 8);
  for (const { row } of currentNotices(lines, tally).values()) {
    const product = products.get(String(row.record.cis));
    const label = String(row.record.status);
    if (!product) {
      tally.unkeep({ excluded: NO_PRODUCT });
    } else if (row.system === 'cip13') {
      const pack = product.packs.find((p) => p.key === row.code);
      if (pack) pack.availability = label;
      else tally.unkeep({ excluded: NO_PACK });
    } else {
      product.attributes = { ...product.attributes, availability: label, ...(row.since ? { availability_since: row.since } : {}) };
    }
  }
}
