/**
 * Record layouts of the Danish medicine price list (Lægemiddelstyrelsen's "takst", published
 * every 14 days as a folder of fixed-width files `lms01.txt` … `lms32.txt` and `system.txt`),
 * and the reading of one file into checked records. Columns are 1-based start and length, as
 * the takst's own record descriptions ("LMS01 … 01 Drugid N 11 1-11") give them; the same
 * positions the NSP "stamdata" takst importer (trifork/sdm, dodi/importer) reads.
 *
 *   lms01 (lægemidler) 180: drug id 1/11, varetype 12/2, varedeltype 14/2, alfabetsekvens 16/9,
 *     spec.nr 25/5, navn 30/30, formtekst 60/20, formkode 80/7, yderligere form 87/7, styrke
 *     tekst 94/20, styrke numerisk 114/10 (3 decimals), styrkeenhed 124/3 (LMS15 type 3),
 *     MT-indehaver 127/6, repræsentant 133/6, ATC 139/8, administrationsvej 147/8,
 *     trafikadvarsel 155/1, substitution 156/1, (void 157-159), substitutionsgruppe 160/4,
 *     dosisdispensering 164/1, afregistreringsdato 165/8, karantænedato 173/8
 *   lms02 (pakninger) 137: drug id 1/11, varenummer 12/6, alfabetsekvens 18/3, delpakning 21/6,
 *     antal delpakninger 27/3, pakningsstørrelse tekst 30/30, numerisk 60/8 (2 decimals), enhed
 *     68/2 (LMS15 type 4), emballage 70/4, udleveringsbestemmelse 74/5, speciale 79/5,
 *     medicintilskud 84/2, klausul 86/5, antal DDD 91/9, opbevaringstid 100/2+102/1,
 *     opbevaringsbetingelse 103/1, oprettet 104/8, seneste prisændring 112/8, udgået 120/8,
 *     beregningskode 128/1, tilskudsgruppe 129/1, færdigfremstillingsgebyr 130/1, (131), distributør 132/6
 *   lms03 (priser) 96: varenummer 1/6, then 9-digit amounts in øre: AIP 7, registerpris (AUP) 16,
 *     ESP 25, (void 34, 43), tilskudspris (TSP) 52, leverancepris til hospitaler 61, 70, 79, (void 88)
 *   lms09 (firmaer) 60: firmanummer 1/6, kort navn 7/20, langt navn 27/32, parallelimportør 59/2
 *   lms12 (ATC-koder og tekst) 152: ATC code in 1/8 (its levels in 1-2, 3-4, 5, 6, 7-8), text 9/72
 *   lms30 (indholdsstoffer): drug id 1/11, varenummer 12/6, stofklasse 18/100, substansgruppe 118/100, substans 218/150
 *   system.txt: the release header, `0012.0 LMS-TAKST … 20110309`: version 1/6, takst date 48/8
 *
 * The files are written in the DOS code page 850 (older ones in 865; both put æ ø å Æ Ø Å in
 * 0x80-0x9F) or ISO-8859-1, with LF or CRLF line ends.
 */
import { FileRejectedError, decodeWindows1252 } from './common.ts';
import { fixedLayout, fixedLines, lineProblem, recordOf } from './fixed-width.ts';
import type { FixedLayout, FixedRecord } from './fixed-width.ts';
import { RowTally } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';

const DIGITS = (n: number): RegExp => new RegExp(`^\\d{${n}}$`);
const DIGITS_OR_BLANK = (n: number): RegExp => new RegExp(`^(?:\\d{${n}}| {${n}})$`);
/** `ååååmmdd`, or blank / zeros for "none". */
const DATE = /^(?:\d{8}| {8})$/;

/** A takst layout and the role its file plays. */
export interface LmsLayout extends FixedLayout {
  role: string;
}

function lms(id: string, role: string, columns: Record<string, readonly [number, number, RegExp?]>, recordLength?: number, minLength?: number): LmsLayout {
  return { ...fixedLayout(id, columns, { ...(recordLength ? { recordLength } : {}), ...(minLength ? { minLength } : {}) }), role };
}

export const LMS01 = lms('lms01', 'lægemidler (lms01)', {
  drugId: [1, 11, DIGITS(11)], varetype: [12, 2], varedeltype: [14, 2], alfabet: [16, 9], specNummer: [25, 5, DIGITS_OR_BLANK(5)],
  navn: [30, 30, /\S/], formTekst: [60, 20], formKode: [80, 7], yderligereForm: [87, 7], styrkeTekst: [94, 20],
  styrkeNumerisk: [114, 10, DIGITS_OR_BLANK(10)], styrkeEnhed: [124, 3], mtIndehaver: [127, 6, DIGITS_OR_BLANK(6)],
  repraesentant: [133, 6, DIGITS_OR_BLANK(6)], atc: [139, 8], administrationsvej: [147, 8], trafikadvarsel: [155, 1],
  substitution: [156, 1], substitutionsgruppe: [160, 4], dosisdispensering: [164, 1], afregistreret: [165, 8, DATE],
  karantaene: [173, 8, DATE],
}, 180);

export const LMS02 = lms('lms02', 'pakninger (lms02)', {
  drugId: [1, 11, DIGITS(11)], varenummer: [12, 6, DIGITS(6)], alfabet: [18, 3], delpakning: [21, 6, DIGITS_OR_BLANK(6)],
  antalDelpakninger: [27, 3, /^[ \d]{3}$/], pakningTekst: [30, 30], pakningNumerisk: [60, 8, DIGITS_OR_BLANK(8)],
  pakningEnhed: [68, 2], emballage: [70, 4], udlevering: [74, 5], udleveringSpeciale: [79, 5], tilskud: [84, 2],
  klausul: [86, 5], antalDdd: [91, 9, DIGITS_OR_BLANK(9)], oprettet: [104, 8, DATE], prisaendring: [112, 8, DATE],
  udgaaet: [120, 8, DATE], beregningskode: [128, 1], tilskudsgruppe: [129, 1], distributoer: [132, 6, DIGITS_OR_BLANK(6)],
}, 137);

// A copy may drop the blank tail; through the hospital price (column 69) is a price record.
// (lms24, also 60 wide and all digits, ends before it.)
export const LMS03 = lms('lms03', 'priser (lms03)', {
  varenummer: [1, 6, DIGITS(6)], aip: [7, 9, DIGITS(9)], registerpris: [16, 9, DIGITS_OR_BLANK(9)],
  esp: [25, 9, DIGITS_OR_BLANK(9)], tsp: [52, 9, DIGITS_OR_BLANK(9)], hospital: [61, 9, DIGITS_OR_BLANK(9)],
}, 96, 69);

// A firm has a name with letters; lms24 (60 wide too) has digits there.
export const LMS09 = lms('lms09', 'firmaer (lms09)', {
  firma: [1, 6, DIGITS(6)], kortNavn: [7, 20], langtNavn: [27, 32, /\p{L}/u], parallelimportoer: [59, 2],
}, 60, 27);

export const LMS12 = lms('lms12', 'ATC-koder og tekst (lms12)', {
  atc: [1, 8, /^ ?[A-Z][ \dA-Z]{6,7}$/], tekst: [9, 72, /\S/],
}, 152, 9);

export const LMS30 = lms('lms30', 'indholdsstoffer (lms30)', {
  drugId: [1, 11, DIGITS(11)], varenummer: [12, 6, DIGITS_OR_BLANK(6)], stofklasse: [18, 100],
  substansgruppe: [118, 100], substans: [218, 150],
}, 367, 218);

/** The release header: takst version and the date the takst applies from. */
export const SYSTEM = lms('system', 'takst header (system.txt)', {
  version: [1, 6, /^\d{4}\.\d$/], name: [8, 9, /^LMS-TAKST$/], date: [48, 8, DIGITS(8)],
}, undefined, 55);

/** A checked record: trimmed values by column name, and its line. */
export type LmsRecord = FixedRecord;

/** DOS code page 850/865 for 0x80-0x9F: the range where ISO-8859-1 has only controls (865 differs at 0x9B-0x9E only in signs). */
const CP850_C1 = 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£Ø×ƒ';

/** Text of a takst file: ISO-8859-1, or the DOS code page when its bytes show Danish letters there. */
export function decodeLms(content: Buffer): string {
  const dos = content.some((b) => b >= 0x80 && b <= 0x9f);
  if (!dos) return decodeWindows1252(content);
  // Only 0x80-0x9F differ in what a Danish text uses; the rest reads as Latin-1.
  return content.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => CP850_C1.charAt(c.charCodeAt(0) - 0x80));
}

/**
 * The records of one file; a malformed line is counted with its line and why. A file in which
 * not one line fits the layout is another file and is refused.
 */
export function readLms(file: string, content: Buffer, layout: LmsLayout, problems: RowProblem[]): { records: LmsRecord[]; tally: RowTally } {
  const records: LmsRecord[] = [];
  const tally = new RowTally(file, problems);
  for (const { line, text } of fixedLines(decodeLms(content))) {
    const problem = lineProblem(text, layout);
    if (problem) { tally.malformedRow(line, problem); continue; }
    tally.keep();
    records.push(recordOf(text, line, layout));
  }
  if (tally.read > 0 && tally.kept === 0) throw new FileRejectedError(file, `no line in the ${layout.id} layout (${tally.read} lines read)`);
  return { records, tally };
}
