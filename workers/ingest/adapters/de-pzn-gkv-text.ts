/**
 * The GKV-Spitzenverband's list of co-payment-exempt medicines (§ 31 Abs. 3 Satz 4 SGB V) as
 * text, the way it comes out of the published PDF: title lines (`Zuzahlungsbefreite Arzneimittel
 * …`, `Produktstand 01.09.2009`), a header printed over two lines whose words are split
 * (`Packungs-` / `größe`, the second line above the first), then one line per pack and a page
 * footer (`Seite 1 von 1095`), page after page. The header's titles do not stand over their
 * columns, and the spaces between cells vary from line to line, so a cell is a run of text
 * separated by three or more spaces (two spaces occur inside a company name), in the order the
 * list prints them: Arzneimittelname, PZN, Hersteller, Wirkstoff, Wirkstärke (value, unit),
 * Packungsgröße (size, unit), Darreichungsform, Apothekenverkaufspreis.
 */
import type { Table } from './de-pzn-table.ts';

/** The cells of a pack line, in print order; the two-cell strength and size are joined below. */
const CELLS = ['arzneimittelname', 'pzn', 'hersteller', 'wirkstoff', 'wirkstärke', 'wirkstärke einheit', 'packungsgröße', 'packungsgröße einheit', 'darreichungsform', 'apothekenverkaufspreis'] as const;

/** The keys the table offers, as de-pzn's column names read them. */
const HEADER = ['arzneimittelname', 'pzn', 'hersteller', 'wirkstoff', 'wirkstärke', 'packungsgröße', 'darreichungsform', 'apothekenverkaufspreis', 'stand'];

const cellsOf = (line: string): string[] => line.trim().split(/\s{3,}/);
const isPackLine = (cells: string[]): boolean => /^\d{6,8}$/.test(cells[1] ?? '');

/** Lines the PDF repeats on every page: titles, the two header lines, the page footer. */
function isPageFurniture(line: string): boolean {
  const t = line.trim();
  return /^Seite \d+ von \d+$/.test(t) || /^Zuzahlungsbefreite Arzneimittel\b/.test(t) || /^sortiert nach\b/.test(t)
    || /^Produktstand\b/.test(t) || (/\bArzneimittelname\b/.test(t) && /\bPZN\b/.test(t)) || /^gr\S*e\s{3,}.*inkl\.\s?MwSt$/.test(t);
}

/** True when `lines[at]` is the list's header: it names the columns and the next line is a pack line of ten cells. */
function isHeaderAt(lines: readonly string[], at: number): boolean {
  const line = lines[at]!;
  if (!/\bArzneimittelname\b/.test(line) || !/\bPZN\b/.test(line) || !/\bWirkstoff/.test(line) || !/\bHersteller\b/.test(line)) return false;
  const next = lines.slice(at + 1).find((l) => l.trim() !== '');
  return next !== undefined && isPackLine(cellsOf(next)) && cellsOf(next).length === CELLS.length;
}

/**
 * The list as a table, or null when `text` is not this list. Each row gets the list's
 * Produktstand as `stand`; page furniture below the header is counted in `notData`; a line of
 * another shape is a row with a `problem`, so the adapter reports it with its line.
 */
export function gkvTextTable(text: string): Table | null {
  const lines = text.split(/\r?\n/);
  const at = lines.slice(0, 40).findIndex((_, i) => isHeaderAt(lines, i));
  if (at < 0) return null;
  const stand = /Produktstand\s+(\d{2}\.\d{2}\.\d{4})/.exec(lines.slice(0, at).join('\n'))?.[1] ?? '';
  const rows: Table['rows'] = [];
  let notData = 0;
  lines.slice(at + 1).forEach((raw, i) => {
    const line = at + i + 2;
    if (raw.trim() === '') return;
    if (isPageFurniture(raw)) { notData += 1; return; }
    const cells = cellsOf(raw);
    if (cells.length !== CELLS.length || !isPackLine(cells)) {
      rows.push({ line, get: (column) => (column === 'pzn' ? cells[1] ?? '' : ''), problem: `${cells.length} cells, not the list's ${CELLS.length} (Arzneimittelname … Apothekenverkaufspreis)` });
      return;
    }
    const cell = (name: (typeof CELLS)[number]): string => cells[CELLS.indexOf(name)]!;
    const values: Record<string, string> = {
      arzneimittelname: cell('arzneimittelname'), pzn: cell('pzn'), hersteller: cell('hersteller'), wirkstoff: cell('wirkstoff'),
      wirkstärke: `${cell('wirkstärke')} ${cell('wirkstärke einheit')}`, packungsgröße: `${cell('packungsgröße')} ${cell('packungsgröße einheit')}`,
      darreichungsform: cell('darreichungsform'), apothekenverkaufspreis: cell('apothekenverkaufspreis'), stand,
    };
    rows.push({ line, get: (column) => values[column] ?? '' });
  });
  return { header: HEADER, rows, layout: 'gkv-text', notData };
}
