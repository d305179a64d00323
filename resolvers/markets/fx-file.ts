/**
 * Reference exchange rates from the ECB's published CSV files, so market overviews convert
 * prices with dated, citable rates. Both layouts are read: the daily `eurofxref.csv`
 * (`Date, USD, JPY, ...` then `10 September 2010, 1.2725, ...`) and the history file
 * `eurofxref-hist.csv` (ISO dates, one row per day). Values are units per 1 EUR; `N/A`
 * cells are skipped. Documented in docs/markets.md.
 */
import { readFile } from 'node:fs/promises';
import type { Database } from '../../platform/db.ts';

export const DEMO_FX_FILE = new URL('../../data/markets/ecb-eurofxref.csv', import.meta.url);
export const ECB_SOURCE = 'ECB euro foreign exchange reference rates';

export interface FxRow { date: string; currency: string; perEur: number }

/** A refused FX file; nothing is written. */
export class FxFileError extends Error {}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

function isoDate(text: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  const m = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(text);
  const month = m ? MONTHS.indexOf(m[2]!.toLowerCase()) : -1;
  if (!m || month < 0) throw new FxFileError(`"${text}" is not an ECB date`);
  return `${m[3]}-${String(month + 1).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
}

/** Parses an ECB reference-rate CSV into rows (one per date and currency). */
export function parseEcbCsv(text: string): FxRow[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const header = lines[0]?.split(',').map((c) => c.trim());
  if (!header || header[0] !== 'Date') throw new FxFileError('the first line must be the ECB header starting with "Date"');
  const rows: FxRow[] = [];
  for (const line of lines.slice(1)) {
    const cells = line.split(',').map((c) => c.trim());
    const date = isoDate(cells[0] ?? '');
    header.slice(1).forEach((currency, i) => {
      const cell = cells[i + 1];
      if (!currency || !/^[A-Z]{3}$/.test(currency) || !cell || cell === 'N/A') return;
      const perEur = Number(cell);
      if (!Number.isFinite(perEur) || perEur <= 0) throw new FxFileError(`${date} ${currency}: "${cell}" is not a rate`);
      rows.push({ date, currency, perEur });
    });
  }
  if (rows.length === 0) throw new FxFileError('the file holds no rates');
  return rows;
}

/** Upserts the rates of an ECB CSV text (plus EUR = 1 for each date) in one statement. */
export async function loadFxRates(db: Database, text: string, source = ECB_SOURCE): Promise<{ dates: string[]; rates: number }> {
  const rows = parseEcbCsv(text);
  const dates = [...new Set(rows.map((r) => r.date))].sort();
  const all = [...rows, ...dates.map((date) => ({ date, currency: 'EUR', perEur: 1 }))];
  await db.query(
    `INSERT INTO fx_rates (rate_date, currency, per_eur, source)
     SELECT r.date::date, r.currency, r."perEur", $2 FROM jsonb_to_recordset($1::jsonb) AS r(date text, currency text, "perEur" numeric)
     ON CONFLICT (rate_date, currency) DO UPDATE SET per_eur = EXCLUDED.per_eur, source = EXCLUDED.source`,
    [JSON.stringify(all), source],
  );
  return { dates, rates: all.length };
}

/** Loads an ECB CSV file from disk. */
export async function loadFxFile(db: Database, path: string | URL): Promise<{ dates: string[]; rates: number }> {
  return loadFxRates(db, await readFile(path, 'utf8'));
}
