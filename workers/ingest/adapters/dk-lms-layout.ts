/**
 * Record layouts of the Danish medicine price list (Lægemiddelstyrelsen's "takst", published
 * on medicinpriser.dk every 14 days as fixed-width `lmsNN.txt` files), and the reading of one
 * file into checked records. Offsets are 0-based; lengths as the takst record descriptions
 * give them (the same layouts the NSP "stamdata" takst importer reads):
 *
 *   lms01 (lægemidler)  drug id 11, varetype 2, varedeltype 2, alfabetsekvens 9, spec.nr 5,
 *                       navn 30, formtekst 20, formkode 7, yderligere form 7, styrke tekst 20,
 *                       styrke numerisk 10 (3 decimals), styrkeenhed 3, MT-indehaver 6,
 *                       repræsentant 6, ATC 8, administrationsvej 8, trafikadvarsel 1,
 *                       substitution 1, blank 3, substitutionsgruppe 4, dosisdispensering 1,
 *                       afregistreringsdato 8, karantænedato 8
 *   lms02 (pakninger)   drug id 11, varenummer 6, alfabetsekvens 3, delpakning varenr 6,
 *                       antal delpakninger 3, pakningsstørrelse tekst 30, numerisk 8
 *                       (2 decimals), enhed 2, emballage 4, udleveringsbestemmelse 5,
 *                       udleveringsspeciale 5, medicintilskud 2, klausul 5, antal DDD 9,
 *                       opbevaringstid 2+1, opbevaringsbetingelse 1, oprettet 8,
 *                       seneste prisændring 8, udgået 8, beregningskode 1, tilskudsgruppe 1,
 *                       færdigfremstillingsgebyr 1, (1), distributør 6
 *   lms03 (priser)      varenummer 6, then 9-digit amounts in øre: AIP, registerpris (AUP),
 *                       ekspeditionens samlede pris (ESP), 2 × (unused here), tilskudspris,
 *                       leverancepris til hospitaler, (unused), ikke-tilskudsberettiget del
 *   lms09 (firmaer)     firmanummer 6, kort navn 20, langt navn 32, parallelimportør 2
 *   lms30 (indholdsstoffer) drug id 11, varenummer 6, stofklasse 100, substansgruppe 100, substans 150
 *
 * The files are ISO-8859-1 with CRLF line ends. Older takst generations were written in the
 * DOS code page 865, which puts æ ø å Æ Ø Å in 0x80-0x9F, where ISO-8859-1 has only control
 * characters: a file with such bytes is read as code page 865.
 */
import { FileRejectedError, decodeWindows1252 } from './common.ts';
import type { ProblemLog } from './common.ts';

/** One field: name, offset, length, and the shape its (untrimmed) value must have. */
export type FieldSpec = readonly [name: string, offset: number, length: number, pattern?: RegExp];

export interface RecordLayout {
  /** `lms01` ... as the file is named. */
  id: string;
  /** Role reported for the file. */
  role: string;
  fields: readonly FieldSpec[];
}

const DIGITS = (n: number): RegExp => new RegExp(`^\\d{${n}}$`);
const DIGITS_OR_BLANK = (n: number): RegExp => new RegExp(`^(?:\\d{${n}}| {${n}})$`);
/** `ååååmmdd`, or blank / zeros for "none". */
const DATE = /^(?:\d{8}| {8})$/;

export const LMS01: RecordLayout = {
  id: 'lms01', role: 'lægemidler (lms01)', fields: [
    ['drugId', 0, 11, DIGITS(11)], ['varetype', 11, 2], ['varedeltype', 13, 2], ['alfabet', 15, 9],
    ['specNummer', 24, 5, DIGITS_OR_BLANK(5)], ['navn', 29, 30], ['formTekst', 59, 20], ['formKode', 79, 7],
    ['yderligereForm', 86, 7], ['styrkeTekst', 93, 20], ['styrkeNumerisk', 113, 10, DIGITS_OR_BLANK(10)],
    ['styrkeEnhed', 123, 3], ['mtIndehaver', 126, 6, DIGITS_OR_BLANK(6)], ['repraesentant', 132, 6, DIGITS_OR_BLANK(6)],
    ['atc', 138, 8], ['administrationsvej', 146, 8], ['trafikadvarsel', 154, 1], ['substitution', 155, 1],
    ['substitutionsgruppe', 159, 4], ['dosisdispensering', 163, 1], ['afregistreret', 164, 8, DATE],
    ['karantaene', 172, 8, DATE],
  ],
};

export const LMS02: RecordLayout = {
  id: 'lms02', role: 'pakninger (lms02)', fields: [
    ['drugId', 0, 11, DIGITS(11)], ['varenummer', 11, 6, DIGITS(6)], ['alfabet', 17, 3],
    ['delpakning', 20, 6, DIGITS_OR_BLANK(6)], ['antalDelpakninger', 26, 3, /^[ \d]{3}$/],
    ['pakningTekst', 29, 30], ['pakningNumerisk', 59, 8, DIGITS_OR_BLANK(8)], ['pakningEnhed', 67, 2],
    ['emballage', 69, 4], ['udlevering', 73, 5], ['udleveringSpeciale', 78, 5], ['tilskud', 83, 2],
    ['klausul', 85, 5], ['antalDdd', 90, 9, DIGITS_OR_BLANK(9)], ['oprettet', 103, 8, DATE],
    ['prisaendring', 111, 8, DATE], ['udgaaet', 119, 8, DATE], ['beregningskode', 127, 1],
    ['tilskudsgruppe', 128, 1], ['distributoer', 131, 6, DIGITS_OR_BLANK(6)],
  ],
};

export const LMS03: RecordLayout = {
  id: 'lms03', role: 'priser (lms03)', fields: [
    ['varenummer', 0, 6, DIGITS(6)], ['aip', 6, 9, DIGITS(9)], ['registerpris', 15, 9, DIGITS_OR_BLANK(9)],
    ['esp', 24, 9, DIGITS_OR_BLANK(9)], ['tsp', 51, 9, DIGITS_OR_BLANK(9)],
  ],
};

export const LMS09: RecordLayout = {
  id: 'lms09', role: 'firmaer (lms09)', fields: [
    ['firma', 0, 6, DIGITS(6)], ['kortNavn', 6, 20], ['langtNavn', 26, 32], ['parallelimportoer', 58, 2],
  ],
};

export const LMS30: RecordLayout = {
  id: 'lms30', role: 'indholdsstoffer (lms30)', fields: [
    ['drugId', 0, 11, DIGITS(11)], ['varenummer', 11, 6, DIGITS_OR_BLANK(6)], ['stofklasse', 17, 100],
    ['substansgruppe', 117, 100], ['substans', 217, 150],
  ],
};

/** A checked record: trimmed field values by name, and the line it came from. */
export interface LmsRecord {
  line: number;
  get(field: string): string;
}

/** DOS code page 865 (Nordic) for 0x80-0x9F: the range where ISO-8859-1 has only controls. */
const CP865_C1 = 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£ØPƒ'.replace('P', '\u20a7');

/** Text of a takst file: ISO-8859-1, or code page 865 when its bytes show Danish letters there. */
export function decodeLms(content: Buffer): string {
  const cp865 = content.some((b) => b >= 0x80 && b <= 0x9f);
  if (!cp865) return decodeWindows1252(content);
  // Only 0x80-0x9F differ in what a Danish text uses; the rest reads as Latin-1.
  return content.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => CP865_C1.charAt(c.charCodeAt(0) - 0x80));
}

/** The end of the last field: a line must reach at least into it. */
function minimumLength(layout: RecordLayout): number {
  return Math.max(...layout.fields.map(([, offset]) => offset + 1));
}

/** Checks one line against the layout; the first malformed field's message, or null. */
function malformed(text: string, layout: RecordLayout): string | null {
  if (text.length < minimumLength(layout)) return `line has ${text.length} characters, too short for a ${layout.id} record`;
  for (const [name, offset, length, pattern] of layout.fields) {
    const value = text.slice(offset, offset + length).padEnd(length, ' ');
    if (pattern && !pattern.test(value)) return `${name} "${value.trim()}" at column ${offset + 1} is malformed`;
  }
  return null;
}

/** Counts of one file, for its FileReport. */
export interface LmsTally {
  read: number;
  kept: number;
}

/**
 * The records of one file; malformed lines are reported with their number and skipped. A
 * file in which not one line fits the layout is another file and is refused.
 */
export function readLms(file: string, content: Buffer, layout: RecordLayout, log: ProblemLog): { records: LmsRecord[]; tally: LmsTally } {
  const records: LmsRecord[] = [];
  const tally: LmsTally = { read: 0, kept: 0 };
  const fields = new Map(layout.fields.map(([name, offset, length]) => [name, [offset, length] as const]));
  decodeLms(content).split('\n').forEach((raw, i) => {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') return;
    tally.read += 1;
    const problem = malformed(text, layout);
    if (problem) {
      log.add(file, i + 1, problem);
      return;
    }
    tally.kept += 1;
    records.push({
      line: i + 1,
      get: (name) => {
        const [offset, length] = fields.get(name) ?? [0, 0];
        return text.slice(offset, offset + length).trim();
      },
    });
  });
  if (tally.read > 0 && tally.kept === 0) throw new FileRejectedError(file, `no line in the ${layout.id} layout (${tally.read} lines read)`);
  return { records, tally };
}
