/**
 * Columns of Swissmedic's "Zugelassene Packungen" (Packungen.xlsx), found by their header
 * text rather than by position: the sheet opens with a few title rows, the header row comes
 * next, and Swissmedic has reworded and moved columns over the years (layout of February 2019:
 * Zulassungs-Nummer, Dosisstärke-nummer, Bezeichnung des Arzneimittels, Zulassungsinhaberin,
 * Heilmittelcode, IT-Nummer, ATC-Code, Erstzul.datum Arzneimittel, Zul.datum Dosisstärke,
 * Gültigkeitsdauer der Zulassung, Packungscode, Packungsgrösse, Einheit, Abgabekategorie
 * Packung / Dosisstärke / Arzneimittel, Wirkstoff(e), Zusammensetzung, Volldeklaration rev.
 * AMZV umgesetzt, Anwendungsgebiet Arzneimittel / Dosisstärke, Gentechnisch hergestellte
 * Wirkstoffe, Kategorie bei Insulinen, Verz. bei betäubungsmittel-haltigen Arzneimitteln).
 */
import { FileRejectedError } from './common.ts';
import type { SheetRow } from './xlsx.ts';

/** Header text folded for comparison: lower case, ß as ss, no spaces, hyphens, dots or line breaks. */
export function foldHeader(text: string): string {
  return text.toLowerCase().replace(/ß/g, 'ss').replace(/[\s\u00ad.\-–_]+/g, '');
}

/** Column keys and the folded header prefixes that name them. */
const COLUMNS = {
  number: ['zulassungsnummer'],
  sequence: ['dosisstärkenummer'],
  name: ['bezeichnungdesarzneimittels', 'bezeichnungdespräparates', 'präparatebezeichnung'],
  holder: ['zulassungsinhaberin'],
  domain: ['heilmittelcode'],
  itNumber: ['itnummer'],
  atc: ['atccode'],
  firstAuthorised: ['erstzulassungsdatum', 'erstzuldatum'],
  sequenceAuthorised: ['zuldatumdosisstärke', 'zulassungsdatumdosisstärke'],
  validUntil: ['gültigkeitsdauerderzulassung'],
  packCode: ['packungscode'],
  size: ['packungsgrösse'],
  unit: ['einheit'],
  categoryPack: ['abgabekategoriepackung'],
  categorySequence: ['abgabekategoriedosisstärke'],
  categoryProduct: ['abgabekategoriearzneimittel'],
  substances: ['wirkstoff(e)', 'wirkstoffe', 'wirkstoff'],
  composition: ['zusammensetzung'],
  indicationProduct: ['anwendungsgebietarzneimittel'],
  indicationSequence: ['anwendungsgebietdosisstärke'],
  gmo: ['gentechnischhergestelltewirkstoffe'],
  insulin: ['kategoriebeiinsulinen'],
  narcotics: ['verzbeibetäub', 'verzeichnisbeibetäub'],
} as const;

export type ColumnKey = keyof typeof COLUMNS;

const REQUIRED: ColumnKey[] = ['number', 'sequence', 'name', 'packCode', 'categoryPack'];

/** Where the header row is and which column holds what. */
export interface ColumnMap {
  headerRow: number;
  index: Partial<Record<ColumnKey, number>>;
}

function keyOf(header: string): ColumnKey | null {
  const folded = foldHeader(header);
  for (const [key, prefixes] of Object.entries(COLUMNS) as Array<[ColumnKey, readonly string[]]>) {
    if (prefixes.some((p) => folded.startsWith(p))) return key;
  }
  return null;
}

/** Finds the header row among the first rows and maps the columns; rejects a sheet without the required ones. */
export function mapColumns(file: string, rows: SheetRow[]): ColumnMap {
  const header = rows.slice(0, 15).find((r) => r.cells.some((c) => typeof c === 'string' && foldHeader(c).startsWith('zulassungsnummer')));
  if (!header) throw new FileRejectedError(file, 'no header row with "Zulassungs-Nummer" in the first rows: not a Swissmedic Packungen file');
  const index: Partial<Record<ColumnKey, number>> = {};
  header.cells.forEach((cell, i) => {
    const key = typeof cell === 'string' ? keyOf(cell) : null;
    if (key && index[key] === undefined) index[key] = i;
  });
  const missing = REQUIRED.filter((k) => index[k] === undefined).map((k) => COLUMNS[k][0]);
  if (missing.length > 0) throw new FileRejectedError(file, `unexpected header: missing ${missing.join(', ')}`);
  return { headerRow: header.row, index };
}
