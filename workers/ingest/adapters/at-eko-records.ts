/**
 * The text files of the Austrian Erstattungskodex data carrier (the Dachverband's monthly
 * `ehmvMM_YY_teil1.zip`): fixed-width Windows-1252 records, one per line (LF or CRLF), keyed by
 * the 7-digit Austrian Pharmazentralnummer. This module reads each file into plain records with
 * their line numbers; at-eko.ts builds products and packs from them.
 *
 * Column positions (1-based, width) as the data carrier lays them out:
 * - `medikament.txt`: PZN 1/7, register number prefix 8/2, register number 10/6, EU pack
 *   number 16/3, name 19/100, box 119/3, Kassenzeichen 122/3, quantity 125/5 (decimal comma),
 *   quantity unit 130/2, Kassenverkaufspreis 132/9 (euro cents), KVP per unit 141/9, dose form
 *   code 150/9, divisibility 159/3, price model 162/3, number of packs freely prescribable
 *   165/3, pack note 168/28.
 * - `wirkstoff.txt`: PZN 1/7, product ATC 8/7, serial number 15/2, substance ATC 17/7,
 *   strength 24/10 (decimal comma, in the unit of) dimension 34/9 (`G/ST`, `IE/ML` ...).
 * - `atccode.txt`: ATC code 1/7 (space padded), German name 8/200.
 * - `rezeptpflicht.txt`: PZN 1/7, prescription flag 8/1, its wording 9/60.
 * - `medikament_zusatz.txt`: PZN 1/7, long-term approval 8/3 (`L6`, `L12`), narcotic vignette 11/3 (`SG`).
 * - `regeltext.txt`: `|PZN|;|rule text|`, the reimbursement rule of a yellow-box pack.
 */
import { decodeUtf8OrLatin, numberedLines } from './common.ts';
import type { InputFile, NumberedLine } from './common.ts';

/** One column: 1-based start and width. */
type Column = readonly [start: number, width: number];

/** Reads a column of a fixed-width line, trimmed. */
function cut(text: string, [start, width]: Column): string {
  return text.slice(start - 1, start - 1 + width).trim();
}

export const MEDIKAMENT_COLUMNS = {
  pzn: [1, 7], prefix: [8, 2], register: [10, 6], euPack: [16, 3], name: [19, 100], box: [119, 3], kassenzeichen: [122, 3],
  menge: [125, 5], mengenart: [130, 2], kvp: [132, 9], kvpUnit: [141, 9], form: [150, 9], teilbarkeit: [159, 3],
  preismodell: [162, 3], abgabeanzahl: [165, 3], hinweis: [168, 28],
} as const satisfies Record<string, Column>;

/** The shortest `medikament.txt` line that still carries the price (the columns after it may be trimmed). */
export const MEDIKAMENT_MIN_LENGTH = 140;

export type MedikamentRecord = { line: number } & Record<keyof typeof MEDIKAMENT_COLUMNS, string>;

export interface WirkstoffRecord {
  line: number;
  pzn: string;
  productAtc: string;
  serial: string;
  substanceAtc: string;
  strength: string;
  dimension: string;
}

/** Text of a data carrier file: Windows-1252 as published; UTF-8 (a re-saved copy) is read too. */
export function ekoLines(file: InputFile): NumberedLine[] {
  return numberedLines(decodeUtf8OrLatin(file.content));
}

export function readMedikamente(file: InputFile): MedikamentRecord[] {
  return ekoLines(file).map(({ line, text }) => {
    const record = { line } as MedikamentRecord;
    for (const [field, column] of Object.entries(MEDIKAMENT_COLUMNS)) record[field as keyof typeof MEDIKAMENT_COLUMNS] = cut(text, column);
    // The raw length decides whether the line was cut short; trailing blanks count.
    if (text.replace(/\r$/, '').length < MEDIKAMENT_MIN_LENGTH) record.kvp = '';
    return record;
  });
}

export function readWirkstoffe(file: InputFile): WirkstoffRecord[] {
  return ekoLines(file).map(({ line, text }) => ({
    line, pzn: cut(text, [1, 7]), productAtc: cut(text, [8, 7]), serial: cut(text, [15, 2]), substanceAtc: cut(text, [17, 7]),
    strength: cut(text, [24, 10]), dimension: cut(text, [34, 9]),
  }));
}

/** ATC code → German name; `_______` (no code) lines are skipped. */
export function readAtcNames(file: InputFile): Map<string, string> {
  const names = new Map<string, string>();
  for (const { text } of ekoLines(file)) {
    const code = cut(text, [1, 7]);
    const name = cut(text, [8, 200]);
    if (/^[A-Z]\d{2}/.test(code) && name !== '') names.set(code, name);
  }
  return names;
}

/** PZN → prescription status wording (`rezeptpflichtig`, `rezeptfrei`, ...). */
export function readRezeptpflicht(file: InputFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const { text } of ekoLines(file)) {
    const wording = cut(text, [9, 60]);
    if (wording !== '') out.set(cut(text, [1, 7]), wording);
  }
  return out;
}

/** PZN → long-term approval (`L6`, `L12`) and narcotic vignette (`SG`) where the pack has one. */
export function readZusatz(file: InputFile): Map<string, { langzeit: string; suchtgift: string }> {
  const out = new Map<string, { langzeit: string; suchtgift: string }>();
  for (const { text } of ekoLines(file)) {
    const entry = { langzeit: cut(text, [8, 3]), suchtgift: cut(text, [11, 3]) };
    if (entry.langzeit !== '' || entry.suchtgift !== '') out.set(cut(text, [1, 7]), entry);
  }
  return out;
}

/** PZN → reimbursement rule text; fields are `|`-quoted and `;`-separated. */
export function readRegeltexte(file: InputFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const { text } of ekoLines(file)) {
    const m = /^\|?(\d{7})\|?;\|?(.*?)\|?\s*$/.exec(text);
    if (m && m[2]!.trim() !== '') out.set(m[1]!, m[2]!.replace(/\s+/g, ' ').trim());
  }
  return out;
}
