/**
 * Spanish AEMPS CIMA supply problems (`/cima/rest/psuministro`): a page
 * `{ totalFilas, pagina, tamanioPagina, resultados: [...] }` whose rows name a presentation by
 * its national code `cn` with `tipoProblemaSuministro`, `fini` and `ffin` (epoch milliseconds,
 * Madrid midnight; `ffin` absent for an open-ended problem), `activo` and `observ`.
 *
 * Status: a problem that is no longer active means the presentation is supplied again
 * (available). Of the active ones, type 9 (the holder distributes the limited units under
 * control) and type 10 (units authorised for exceptional marketing, often imported) still
 * reach patients: limited; every other type: unavailable. A page that holds fewer rows than
 * `totalFilas` is a partial publication (rows not on it are kept).
 */
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import type { SupplyStatus } from '../../../vocabulary/supply.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import type { FileReport, RowProblem } from '../row-outcome.ts';
import { FileRejectedError } from './common.ts';
import type { InputFile } from './common.ts';
import { assignLoadedRoles } from './file-roles.ts';
import { forEachArrayElement } from './json-stream.ts';
import { rowKey, textOrNull } from './supply-rows.ts';
import type { SupplyParse, SupplyRow } from './supply-rows.ts';

export const ES_CIMA_SUPPLY_FILE = 'psuministro.json';

/** Problem types whose units still reach patients. */
const LIMITED_TYPES = new Set([9, 10]);

const MADRID_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Epoch milliseconds as the Madrid calendar day CIMA means; null when not a number. */
function madridDay(value: unknown): string | null {
  return typeof value === 'number' && Number.isFinite(value) ? MADRID_DAY.format(new Date(value)) : null;
}

function statusOf(active: boolean, type: number): SupplyStatus {
  if (!active) return 'available';
  return LIMITED_TYPES.has(type) ? 'limited' : 'unavailable';
}

function readProblem(value: unknown): SupplyRow | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not an object';
  const r = value as Record<string, unknown>;
  const code = normaliseIdentifier('cima_codigo', String(r.cn ?? ''));
  if (!code) return `cn "${String(r.cn ?? '')}" is not a 6-digit national code`;
  const type = r.tipoProblemaSuministro;
  if (typeof type !== 'number' || !Number.isInteger(type)) return 'tipoProblemaSuministro is not an integer';
  if (typeof r.activo !== 'boolean') return 'activo is not true or false';
  const since = madridDay(r.fini);
  if (since === null) return 'fini is not epoch milliseconds';
  const until = r.ffin === undefined || r.ffin === null ? null : madridDay(r.ffin);
  if (r.ffin !== undefined && r.ffin !== null && until === null) return 'ffin is not epoch milliseconds';
  const status = statusOf(r.activo, type);
  return {
    system: 'cima_codigo', code, status, reason: textOrNull(r.observ), since, expectedUntil: status === 'available' ? null : until,
    record: { name: textOrNull(r.nombre) ?? '', problem_type: type, active: r.activo, ...(until ? { ends_on: until } : {}) },
  };
}

function readPage(file: InputFile, problems: RowProblem[], seen: Set<string>): { rows: SupplyRow[]; report: FileReport; total: number | null } {
  const tally = new RowTally(file.name, problems);
  const rows: SupplyRow[] = [];
  const keys = forEachArrayElement(file.name, file.content, 'resultados', {
    onElement(value, line) {
      const row = readProblem(value);
      if (typeof row === 'string') return tally.malformedRow(line, row);
      if (seen.has(rowKey(row))) return tally.exclude(EXCLUDED.duplicate);
      seen.add(rowKey(row));
      rows.push(row);
      tally.keep();
    },
    onMalformed: (line, message) => tally.malformedRow(line, message),
  });
  if (!keys.includes('resultados')) throw new FileRejectedError(file.name, 'no "resultados" array: not a CIMA psuministro answer');
  const total = (JSON.parse(file.content.toString('utf8').replace(/^\uFEFF/, '')) as { totalFilas?: unknown }).totalFilas;
  return { rows, report: tally.report('supply problems'), total: typeof total === 'number' ? total : null };
}

export async function parseEsCimaSupply(files: InputFile[]): Promise<SupplyParse> {
  const roles = assignLoadedRoles(files, [{
    role: 'supply problems', many: true, names: [ES_CIMA_SUPPLY_FILE],
    recognise: (text) => (/"resultados"\s*:/.test(text) && /"tipoProblemaSuministro"\s*:/.test(text) ? 2 : 0),
  }]);
  const pages = roles.byRole.get('supply problems') ?? [];
  if (pages.length === 0) throw new FileRejectedError(files[0]?.name ?? ES_CIMA_SUPPLY_FILE, 'not a CIMA psuministro answer (no "resultados" with "tipoProblemaSuministro")');
  const problems: RowProblem[] = [];
  const seen = new Set<string>();
  const read = pages.map((page) => readPage(page, problems, seen));
  // Pages of one listing together: complete when they hold every row the listing counts.
  const total = Math.max(0, ...read.map((r) => r.total ?? 0));
  const rowsRead = read.reduce((n, r) => n + r.report.read, 0);
  return {
    source: {
      id: 'es-cima-supply', name: 'AEMPS CIMA problemas de suministro', country: 'ES', refresh_interval_hours: 24,
      licence: 'AEMPS CIMA: public information, reusable with the AEMPS named as source', url: 'https://cima.aemps.es/cima/publico/listadesabastecimiento.html',
    },
    rows: read.flatMap((r) => r.rows), problems, files: [...read.map((r) => r.report), ...roles.unused],
    partial: rowsRead < total,
  };
}
