/**
 * One row outcome, counted the same way by every adapter. Each data row (line, record, element)
 * of a file is exactly one of:
 * - kept: it is in the snapshot;
 * - malformed: it could not be read, reported as `file:line: why`; `--strict` refuses a file
 *   with any, and the skipped-rows guard refuses a file with too many;
 * - excluded: the register publishes it on purpose and drugref leaves it out for a named
 *   reason (a substance WHO gives no DDD, an RRF row of another source, a veterinary product,
 *   a duplicate of an earlier line). Never counted as malformed.
 * `read = kept + malformed + excluded`, per file, for every adapter (test/ingest/row-outcome).
 */
import type { RowCounts } from '../../resolvers/sources/sync-status.ts';

/** A row an adapter could not parse: reported with its file and line, then skipped. */
export interface RowProblem {
  file: string;
  /** 1-based line (or record number); 0 where the format has no lines (a JSON path says where). */
  line: number;
  message: string;
}

/**
 * Why a row was left out on purpose: a short snake_case word shared across adapters where the
 * meaning is the same. The common ones are below; an adapter may name its own.
 */
export type ExclusionReason = string;

/** Reasons several registers share, so summaries and sync status read alike everywhere. */
export const EXCLUDED = {
  /** A substance or code the publisher gives no DDD (WHO `NA`). */
  noDdd: 'no_ddd',
  /** A row of a kind drugref does not hold (another RRF source, a device, a veterinary product). */
  outOfScope: 'out_of_scope',
  /** The same key again in the same file; the first occurrence is kept. */
  duplicate: 'duplicate',
  /** A record the publisher marks as not for use here (a withdrawn or inactive pack with no data). */
  inactive: 'inactive',
  /** A row whose data lives in another file of the release (a header, a title or a totals line). */
  notData: 'not_data',
} as const;

/** What an adapter made of one input file: the role it recognised and the outcome of each row. */
export interface FileReport {
  /** The file as given. */
  file: string;
  /** The role the adapter recognised (`product`, `package`, `CIS_CIP`, `AMPP`, `code list`, `unused` ...). */
  role: string;
  read: number;
  kept: number;
  malformed: number;
  /** Rows excluded on purpose, by reason; absent or empty when none were. */
  excluded?: Readonly<Record<ExclusionReason, number>>;
  /** For a member of a release the adapter does not read (`role: 'unused'`): why. */
  note?: string;
}

/** Rows over all files of one ingest: what `--strict`, the guard, the CLI and sync status read. */

export type { RowCounts };

const REASON = /^[a-z][a-z0-9_]*$/;

/** A report with every outcome stated: `malformed` and `excluded` as this type defines them. */
export type SettledReport = FileReport & { excluded: Readonly<Record<ExclusionReason, number>> };

/** The report with its exclusions stated even when there are none (what the CLI and sync read). */
export function outcomeOf(report: FileReport): SettledReport {
  return { ...report, excluded: report.excluded ?? {} };
}

/** Rows excluded from one file, all reasons together. */
export function excludedCount(report: Pick<FileReport, 'excluded'>): number {
  let total = 0;
  for (const n of Object.values(report.excluded ?? {})) total += n;
  return total;
}

/** True when every row of the report has exactly one outcome. */
export function balanced(report: FileReport): boolean {
  return report.read === report.kept + report.malformed + excludedCount(report);
}

/** A file the adapter recognised as a member of the release it does not read: named, not refused. */
export function unusedFile(file: string, note: string): FileReport {
  return { file, role: 'unused', read: 0, kept: 0, malformed: 0, note };
}

/**
 * Counts the rows of one file as they are read. `malformed` also records the problem, so a
 * malformed row is never counted without its `file:line: why`, nor reported without being counted.
 */
export class RowTally {
  read = 0;
  kept = 0;
  malformed = 0;
  private readonly reasons = new Map<ExclusionReason, number>();

  constructor(readonly file: string, readonly problems: RowProblem[] = []) {}

  /** One row kept. */
  keep(): void {
    this.read += 1;
    this.kept += 1;
  }

  /** One row that could not be read, with why. */
  malformedRow(line: number, message: string): void {
    this.read += 1;
    this.malformed += 1;
    this.problems.push({ file: this.file, line, message });
  }

  /** One row left out on purpose, for `reason` (snake_case). */
  exclude(reason: ExclusionReason): void {
    if (!REASON.test(reason)) throw new Error(`exclusion reason "${reason}" is not snake_case`);
    this.read += 1;
    this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + 1);
  }

  /**
   * Takes back a row counted as kept (a later check found it malformed or a duplicate); the
   * row keeps its place in `read`.
   */
  unkeep(outcome: { malformed: { line: number; message: string } } | { excluded: ExclusionReason }): void {
    this.read -= 1;
    this.kept -= 1;
    if ('malformed' in outcome) this.malformedRow(outcome.malformed.line, outcome.malformed.message);
    else this.exclude(outcome.excluded);
  }

  report(role: string): FileReport {
    const excluded = Object.fromEntries(this.reasons);
    return { file: this.file, role, read: this.read, kept: this.kept, malformed: this.malformed, ...(this.reasons.size ? { excluded } : {}) };
  }
}

/** Adds the file reports up; without reports, every row reported as a problem is malformed. */
export function countRows(files: readonly FileReport[] | undefined, problems: readonly RowProblem[], kept: number): RowCounts {
  if (!files?.length) return { read: kept + problems.length, kept, malformed: problems.length, excluded: 0 };
  const sum: RowCounts = { read: 0, kept: 0, malformed: 0, excluded: 0 };
  for (const f of files) {
    sum.read += f.read;
    sum.kept += f.kept;
    sum.malformed += f.malformed;
    sum.excluded += excludedCount(f);
  }
  return sum;
}

/** `3 no_ddd, 1 duplicate`: a report's exclusions for a summary line, or '' when none. */
export function formatExcluded(report: Pick<FileReport, 'excluded'>): string {
  return Object.entries(report.excluded ?? {}).map(([reason, n]) => `${n} ${reason}`).join(', ');
}
