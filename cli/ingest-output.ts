/**
 * What `drugref ingest` and `drugref demo` print: row problems as `file:line: message`, a
 * progress bar while the engine writes (only on a terminal, so logs and pipes stay clean),
 * and one summary line per table.
 */
import cliProgress from 'cli-progress';
import { INGEST_TABLES } from '../workers/ingest/engine.ts';
import type { IngestProgress, IngestReport } from '../workers/ingest/engine.ts';
import { formatExcluded } from '../workers/ingest/row-outcome.ts';
import type { RowProblem, SettledReport } from '../workers/ingest/row-outcome.ts';

/** Problems listed in full up to this many; the rest are counted (a broken export can have 100k rows). */
const MAX_LISTED_PROBLEMS = 100;

/** `file:line: message`, or `file: message` where the format has no lines (JSON paths). */
export function formatProblem(p: RowProblem): string {
  return p.line > 0 ? `${p.file}:${p.line}: ${p.message}` : `${p.file}: ${p.message}`;
}

export function formatProblems(problems: readonly RowProblem[]): string[] {
  const lines = problems.slice(0, MAX_LISTED_PROBLEMS).map(formatProblem);
  if (problems.length > MAX_LISTED_PROBLEMS) lines.push(`… and ${problems.length - MAX_LISTED_PROBLEMS} more problem rows`);
  return lines;
}

/**
 * One line per input file: the role the adapter recognised and what became of its rows (kept,
 * malformed, excluded by reason), or why a member of the release was not read.
 */
export function formatFiles(files: readonly SettledReport[]): string[] {
  const width = Math.max(...files.map((f) => f.file.length));
  return files.map((f) => {
    if (f.role === 'unused') return `  ${f.file.padEnd(width)}  not read: ${f.note ?? 'not used by this adapter'}`;
    const excluded = formatExcluded(f);
    return `  ${f.file.padEnd(width)}  ${f.role}: ${f.read} read, ${f.kept} kept, ${f.malformed} malformed${excluded ? `, excluded ${excluded}` : ''}`;
  });
}

/** One line per table that has anything to say, and a total. */
export function formatReport(report: IngestReport): string[] {
  const lines: string[] = [];
  for (const table of INGEST_TABLES) {
    const c = report.tables[table];
    if (c.insert + c.update + c.delete + c.recall + c.unchanged + c.shared === 0) continue;
    const parts = [`${c.insert} inserted`, `${c.update} updated`, `${c.delete} deleted`];
    if (c.recall) parts.push(`${c.recall} recalls`);
    parts.push(`${c.unchanged} unchanged`);
    if (c.shared) parts.push(`${c.shared} held by another source`);
    lines.push(`  ${table.padEnd(10)} ${parts.join(', ')}`);
  }
  if (report.merged.products + report.merged.packs > 0) {
    lines.push(`  merged     ${report.merged.products} products and ${report.merged.packs} packs represented by another source's rows`);
  }
  lines.push(`${report.changes} change records, ${(report.durationMs / 1000).toFixed(1)} s (${report.sources.join(', ')})`);
  return lines;
}

/** A progress callback drawing a bar on a TTY; a no-op elsewhere. Call `stop` when done. */
export function progressBar(stream: NodeJS.WriteStream = process.stdout): { onProgress?: (p: IngestProgress) => void; stop(): void } {
  if (!stream.isTTY) return { stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    { stream, format: 'ingesting [{bar}] {percentage}% | {source} {step}', hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    onProgress(p) {
      // While a large register streams through, the bar names the records written so far.
      const step = p.rows === undefined ? p.step : `${p.step} ${p.rows.toLocaleString('en')} records`;
      if (!started) {
        bar.start(p.total, 0, { source: p.source, step });
        started = true;
      }
      bar.update(p.done, { source: p.source, step });
    },
    stop: () => {
      if (started) bar.stop();
      started = false;
    },
  };
}
