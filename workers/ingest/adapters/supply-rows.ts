/**
 * What a shortage publication becomes: one supply row per pack code (or per authorisation
 * number where the publisher names no pack), on the common status scale of
 * vocabulary/supply.ts. The supply writer (workers/ingest/supply.ts) diffs these rows against
 * the stored ones; the catalogue joins them to its packs through the identifiers table.
 */
import type { SupplyStatus } from '../../../vocabulary/supply.ts';
import type { JsonValue } from '../canonical.ts';
import type { SourceInfo } from '../snapshot.ts';
import type { FileReport, RowProblem } from '../row-outcome.ts';
import type { InputFile } from './common.ts';

/** Identifier systems a supply row can name its pack (or product) by. */
export type SupplySystem = 'at_pzn' | 'at_zulassungsnummer' | 'eu_number' | 'cima_codigo' | 'ndc11' | 'cip13' | 'cis';

export interface SupplyRow {
  system: SupplySystem;
  code: string;
  status: SupplyStatus;
  /** The publisher's reason, in its words; null when it gives none. */
  reason: string | null;
  /** ISO date the status began, as published. */
  since: string | null;
  /** ISO date the publisher expects supply back; null when open-ended or not published. */
  expectedUntil: string | null;
  /** The publisher's own fields worth keeping (name, raw status, authorisation number ...). */
  record: Record<string, JsonValue>;
}

export interface SupplyParse {
  source: SourceInfo;
  rows: SupplyRow[];
  problems: RowProblem[];
  files: FileReport[];
  /** The files hold part of the publication (one page of several): rows not stated are kept. */
  partial: boolean;
}

export interface SupplyAdapter {
  id: string;
  description: string;
  files: string[];
  parse(files: InputFile[]): Promise<SupplyParse>;
}

/** A supply row with the date its publisher last updated it ('' when it states none). */
export interface DatedSupplyRow {
  row: SupplyRow;
  updated: string;
}

/** Excluded: an older statement of a code the publication states a newer one for. */
export const SUPERSEDED = 'superseded';

const SEVERITY: Readonly<Record<SupplyStatus, number>> = { available: 0, limited: 1, unavailable: 2, discontinued: 3 };

/**
 * Whether `next` states its code's state rather than `kept`, when a publication keeps older
 * statements beside the current one: updated later, then begun later, then the worse status
 * (two statements of one day that disagree are read cautiously). A full tie keeps `kept`.
 */
export function supersedes(next: DatedSupplyRow, kept: DatedSupplyRow): boolean {
  if (next.updated !== kept.updated) return next.updated > kept.updated;
  const a = next.row.since ?? '';
  const b = kept.row.since ?? '';
  if (a !== b) return a > b;
  return SEVERITY[next.row.status] > SEVERITY[kept.row.status];
}

/** A key for duplicates within one publication. */
export const rowKey = (row: Pick<SupplyRow, 'system' | 'code'>): string => `${row.system}|${row.code}`;

/** Trimmed text, or null when empty. */
export function textOrNull(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value).replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
}

/** An ISO `YYYY-MM-DD` that is a real date, else null. */
export function isoDateOrNull(raw: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) return null;
  const date = new Date(`${raw}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(raw) ? raw : null;
}
