/**
 * The code tables of Fimea's release that drugref uses, and Fimea's substitution list:
 * - `atc.txt` (ATCTUN; ATCKOODI; SELITES; SELITER; DDD; DDDYKSIKKO): the Finnish and Swedish
 *   text of each ATC code, given to the products of the release that carry the code;
 * - `laakemuoto.txt` (LAAKEMUOTOTUN; LAAKEMUOTONIMI; LAAKEMUOTONIMIR; LAAKEMUOTONIMIE): the
 *   Swedish and English name of each dose form, given to the products of that form;
 * - `GS-ladattava.txt`: packs by Vnr with their substitution group (lääkevaihto), given to the
 *   product of the pack as a generic group of substitutable products.
 * A row is kept when a product of the release takes what it says, excluded (`unused_code`,
 * `not_in_register`) when none does, malformed when it cannot be read.
 */
import type { ProductEntry } from '../snapshot.ts';
import { RowTally } from '../row-outcome.ts';
import type { FileReport, RowProblem } from '../row-outcome.ts';
import type { InputFile } from './common.ts';
import { pickColumn } from './delimited-table.ts';
import type { DelimitedTable } from './delimited-table.ts';
import { GROUP_COLUMNS } from './fi-fimea-roles.ts';
import { KELA_COLUMNS } from './fi-kela.ts';
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';

/** A row of a code table no product of the release uses. */
export const UNUSED_CODE = 'unused_code';
/** A row for a pack the register's pack files do not list. */
export const NOT_IN_REGISTER = 'not_in_register';

/** A read table with its file. */
export interface ReadTable { file: InputFile; role: string; table: DelimitedTable }

function setAttributes(product: ProductEntry, values: Record<string, string>): void {
  const set = Object.entries(values).filter(([, v]) => v !== '');
  if (set.length > 0) product.attributes = { ...product.attributes, ...Object.fromEntries(set) };
}

/** Rows of a table one by one, each given `apply`'s outcome; a short or long row is malformed. */
function eachRow(read: ReadTable, problems: RowProblem[], apply: (get: (c: string) => string) => 'kept' | string | { malformed: string }): FileReport {
  const tally = new RowTally(read.file.name, problems);
  for (const row of read.table.rows) {
    if (!read.table.workbook && row.width !== read.table.header.length) {
      tally.malformedRow(row.line, `${row.width} fields where the header names ${read.table.header.length}`);
      continue;
    }
    const outcome = apply(row.get);
    if (outcome === 'kept') tally.keep();
    else if (typeof outcome === 'object') tally.malformedRow(row.line, outcome.malformed);
    else tally.exclude(outcome);
  }
  return tally.report(read.role);
}

/** ATC texts (Finnish, Swedish) to the products with that code. */
export function applyAtcTexts(read: ReadTable, products: readonly ProductEntry[], problems: RowProblem[]): FileReport {
  const byCode = new Map<string, ProductEntry[]>();
  for (const p of products) if (p.atc_code) byCode.set(p.atc_code, [...(byCode.get(p.atc_code) ?? []), p]);
  return eachRow(read, problems, (get) => {
    const code = get('atckoodi').toUpperCase();
    if (code === '') return { malformed: 'no ATCKOODI' };
    const users = byCode.get(code);
    if (!users) return UNUSED_CODE;
    for (const p of users) setAttributes(p, { atc_selite_fi: get('selites'), atc_selite_sv: get('seliter') });
    return 'kept';
  });
}

/** Dose form names (Swedish, English) to the products of that form, by the form's code (LAAKEMUOTOTUN). */
export function applyFormNames(read: ReadTable, formOf: ReadonlyMap<ProductEntry, string>, problems: RowProblem[]): FileReport {
  const byForm = new Map<string, ProductEntry[]>();
  for (const [p, form] of formOf) byForm.set(form, [...(byForm.get(form) ?? []), p]);
  return eachRow(read, problems, (get) => {
    const code = get('laakemuototun');
    if (code === '') return { malformed: 'no LAAKEMUOTOTUN' };
    const users = byForm.get(code);
    if (!users) return UNUSED_CODE;
    for (const p of users) setAttributes(p, { laakemuoto_sv: get('laakemuotonimir'), laakemuoto_en: get('laakemuotonimie') });
    return 'kept';
  });
}

/** Fimea's substitution list: each pack's substitution group to its product. */
export function applySubstitution(read: ReadTable, byVnr: ReadonlyMap<string, ProductEntry>, problems: RowProblem[]): FileReport {
  const vnrColumn = pickColumn(read.table.header, KELA_COLUMNS.vnr)!;
  const groupColumn = pickColumn(read.table.header, GROUP_COLUMNS)!;
  return eachRow(read, problems, (get) => {
    const raw = get(vnrColumn);
    // Vnr with its leading zeros, or without them as a spreadsheet saved it (`46718`).
    const vnr = /^\d{1,6}$/.test(raw) ? normaliseIdentifier('fi_vnr', raw.padStart(6, '0')) : null;
    const group = get(groupColumn);
    if (!vnr) return { malformed: `Vnr "${raw}" is not a 6-digit Vnr` };
    if (group === '') return { malformed: `Vnr ${vnr}: no substitution group` };
    const product = byVnr.get(vnr);
    if (!product) return NOT_IN_REGISTER;
    const groups = product.generic_groups ?? [];
    if (!groups.some((g) => g.code === group)) product.generic_groups = [...groups, { code: group, role: 'substitutable' }];
    setAttributes(product, { substituutioryhma: group });
    return 'kept';
  });
}
