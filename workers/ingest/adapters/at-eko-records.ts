/**
 * The text files of the Austrian Erstattungskodex data carrier (the Dachverband's monthly
 * `ehmvMM_YY_teil1.zip`): fixed-width Windows-1252 records, one per line (CRLF; LF in
 * `rezeptpflicht.txt`), keyed by the 7-digit Austrian Pharmazentralnummer. This module holds the
 * layouts, recognises each file by them and reads it into records with their outcomes; at-eko.ts
 * builds products and packs from them.
 *
 * Columns (1-based start, length) as the data carrier's record descriptions (`SB_*.doc`) give them:
 * - `medikament.txt` (195): PZN 1/7, register number prefix 8/2 (`EU` or blank), register number
 *   10/6, EU pack number 16/3, name 19/100, box 119/3 (G, Y), Kassenzeichen 122/3, quantity
 *   125/5 (decimal comma), quantity unit 130/2, Kassenverkaufspreis 132/9 (euro cents), KVP per
 *   unit 141/9, dose form code 150/9, divisibility 159/3, price model 162/3, number of packs
 *   freely prescribable 165/3, pack note 168/28.
 * - `wirkstoff.txt` (62): PZN 1/7, product ATC 8/7, serial number 15/2, substance ATC 17/7,
 *   strength 24/10 (decimal comma, in the unit of) dimension 34/9 (`G/ST`, `IE/ML`, `G/DIE` ...).
 * - `atccode.txt` (207): ATC code 1/7 (space padded, every level), German name 8/200.
 * - `rezeptpflicht.txt` (68): PZN 1/7, prescription flag 8/1, its wording 9/60.
 * - `medikament_zusatz.txt` (13): PZN 1/7, long-term approval 8/3 (`L6`, `L12`), narcotic vignette 11/3 (`SG`).
 * - `regeltext.txt`, `hinweis.txt`: `|PZN|;|text|`, the rule of a yellow-box pack, the note on a
 *   pack (`nicht lieferbar`). `regeltext_v2.txt` (the same rules in HTML) and
 *   `wirkstoff_information.txt` (ingredient text of combinations) are in the same form, not read.
 */
import { decodeUtf8OrLatin } from './common.ts';
import type { InputFile } from './common.ts';
import { column, fixedLayout, fixedLines, layoutMatch, lineProblem, recordOf } from './fixed-width.ts';
import type { FixedLayout, FixedRecord } from './fixed-width.ts';
import type { Match } from './file-roles.ts';
import type { RowTally } from '../row-outcome.ts';

const PZN = /^\d{7}$/;
/** An ATC code of any level, space padded, or `_______`: the EKO's "no code". */
const ATC_OR_NONE = /^(?:[A-Z][A-Z0-9 ]{6}|_{7}| {7})$/;

export const MEDIKAMENT = fixedLayout('medikament.txt', {
  pzn: [1, 7], prefix: [8, 2], register: [10, 6], euPack: [16, 3], name: [19, 100], box: [119, 3], kassenzeichen: [122, 3],
  menge: [125, 5], mengenart: [130, 2], kvp: [132, 9], kvpUnit: [141, 9], form: [150, 9], teilbarkeit: [159, 3],
  preismodell: [162, 3], abgabeanzahl: [165, 3], hinweis: [168, 28],
}, { recordLength: 195 });

/** What makes a line a pack line: a PZN, a name from column 19 and a price in columns 132-140. */
const MEDIKAMENT_SHAPE = fixedLayout('medikament.txt', { pzn: [1, 7, PZN], name: [19, 100, /\S/], kvp: [132, 9, /^ *\d+$/] }, { recordLength: 195, minLength: 140 });

/** The shortest `medikament.txt` line that still carries the price (the columns after it may be trimmed). */
export const MEDIKAMENT_MIN_LENGTH = 140;

export const WIRKSTOFF = fixedLayout('wirkstoff.txt', {
  pzn: [1, 7, PZN], productAtc: [8, 7, ATC_OR_NONE], serial: [15, 2, /^(?:\d\d| {2})$/], substanceAtc: [17, 7, ATC_OR_NONE],
  strength: [24, 10], dimension: [34, 9],
}, { recordLength: 62, minLength: 17 });

export const ATCCODE = fixedLayout('atccode.txt', { code: [1, 7, /^[A-Z][A-Z0-9 ]{6}$/], name: [8, 200, /\S/] }, { recordLength: 207, minLength: 8 });

export const REZEPTPFLICHT = fixedLayout('rezeptpflicht.txt', { pzn: [1, 7, PZN], flag: [8, 1, /^\d$/], wording: [9, 60] }, { recordLength: 68, minLength: 8 });

export const ZUSATZ = fixedLayout('medikament_zusatz.txt', { pzn: [1, 7, PZN], langzeit: [8, 3], suchtgift: [11, 3] }, { recordLength: 13, minLength: 7 });

export type MedikamentRecord = { line: number } & Record<keyof typeof MEDIKAMENT.columns, string>;
export type WirkstoffRecord = { line: number } & Record<keyof typeof WIRKSTOFF.columns, string>;

/** Text of a data carrier file: Windows-1252 as published; UTF-8 (a re-saved copy) is read too. */
function ekoLines(file: InputFile): Array<{ line: number; text: string }> {
  return fixedLines(decodeUtf8OrLatin(file.content));
}

/** Role tests for assignRoles. */
export const recognise = {
  medikament: (text: string): Match => layoutMatch(text, MEDIKAMENT_SHAPE),
  wirkstoff: (text: string): Match => layoutMatch(text, WIRKSTOFF),
  atccode: (text: string): Match => layoutMatch(text, ATCCODE),
  rezeptpflicht: (text: string): Match => layoutMatch(text, REZEPTPFLICHT),
  zusatz: (text: string): Match => layoutMatch(text, ZUSATZ),
  /** `|PZN|;|text|` files share one form; `html` tells the HTML copy of the rules from the others. */
  pznText: (html: boolean) => (text: string): Match => {
    if (!/^\|\d{7}\|;\|/.test(text)) return 0;
    // The HTML copy writes umlauts as entities (`&uuml;`); regeltext.txt has the letters (and a stray `&nbsp;`).
    const isHtml = /&[auo]uml;|<br ?\/?>/i.test(text) && !/[äöüÄÖÜß]/.test(text);
    if (html) return isHtml ? 2 : 0;
    return isHtml ? 0 : 1;
  },
};

/** Every pack line: its columns, trimmed, and its line; judged in at-eko.ts. */
export function readMedikamente(file: InputFile): MedikamentRecord[] {
  return ekoLines(file).map(({ line, text }) => {
    const record = { line } as MedikamentRecord;
    for (const [field, col] of Object.entries(MEDIKAMENT.columns)) record[field as keyof typeof MEDIKAMENT.columns] = column(text, col);
    // The raw length decides whether the line was cut short; trailing blanks count.
    if (text.length < MEDIKAMENT_MIN_LENGTH) record.kvp = '';
    return record;
  });
}

/** The lines of a file that fit `layout`, each kept (or left to `judge`), the others malformed. */
function readRecords<K extends string>(file: InputFile, layout: FixedLayout<K>, tally: RowTally, judge?: (r: FixedRecord<K>) => string | null): FixedRecord<K>[] {
  const out: FixedRecord<K>[] = [];
  for (const { line, text } of ekoLines(file)) {
    const problem = lineProblem(text, layout);
    if (problem) { tally.malformedRow(line, problem); continue; }
    const record = recordOf(text, line, layout);
    const excluded = judge?.(record) ?? null;
    if (excluded) { tally.exclude(excluded); continue; }
    tally.keep();
    out.push(record);
  }
  return out;
}

/** The substance rows; a row without a substance code (`_______`, 69 in a full carrier) names none and is excluded. */
export function readWirkstoffe(file: InputFile, tally: RowTally): WirkstoffRecord[] {
  const noCode = (r: FixedRecord<keyof typeof WIRKSTOFF.columns>): string | null => (/^_*$/.test(r.get('substanceAtc')) ? 'no_substance_code' : null);
  return readRecords(file, WIRKSTOFF, tally, noCode).map((r) => ({
    line: r.line, pzn: r.get('pzn'), productAtc: r.get('productAtc'), serial: r.get('serial'), substanceAtc: r.get('substanceAtc'),
    strength: r.get('strength'), dimension: r.get('dimension'),
  }));
}

/** ATC code → German name, every level (`A` ALIMENTÄRES SYSTEM … `A10BA02` Metformin). */
export function readAtcNames(file: InputFile, tally: RowTally): Map<string, string> {
  return new Map(readRecords(file, ATCCODE, tally).map((r) => [r.get('code'), r.get('name')]));
}

/** PZN → prescription status wording (`rezeptpflichtig`, `rezeptfrei`, ...); a line without one says nothing. */
export function readRezeptpflicht(file: InputFile, tally: RowTally): Map<string, string> {
  const rows = readRecords(file, REZEPTPFLICHT, tally, (r) => (r.get('wording') === '' ? 'no_value' : null));
  return new Map(rows.map((r) => [r.get('pzn'), r.get('wording')]));
}

/** PZN → long-term approval (`L6`, `L12`) and narcotic vignette (`SG`); the pack lines with neither say nothing. */
export function readZusatz(file: InputFile, tally: RowTally): Map<string, { langzeit: string; suchtgift: string }> {
  const rows = readRecords(file, ZUSATZ, tally, (r) => (r.get('langzeit') === '' && r.get('suchtgift') === '' ? 'no_value' : null));
  return new Map(rows.map((r) => [r.get('pzn'), { langzeit: r.get('langzeit'), suchtgift: r.get('suchtgift') }]));
}

/** PZN → text of a `|PZN|;|text|` file (rule text, pack note); fields are `|`-quoted and `;`-separated. */
export function readPznTexts(file: InputFile, tally: RowTally): Map<string, string> {
  const out = new Map<string, string>();
  for (const { line, text } of ekoLines(file)) {
    const m = /^\|?(\d{7})\|?;\|?(.*?)\|?\s*$/.exec(text);
    if (!m) { tally.malformedRow(line, 'not a |PZN|;|text| line'); continue; }
    if (m[2]!.trim() === '') { tally.exclude('no_value'); continue; }
    tally.keep();
    out.set(m[1]!, m[2]!.replace(/\s+/g, ' ').trim());
  }
  return out;
}
