/**
 * The reimbursement export of SAM v2 (`RMB-<version>.xml`, root `ExportReimbursements`): one
 * `ReimbursementContext` per CNK and legal basis, its dated `Data` slices naming the RIZIV-INAMI
 * reimbursement category (`ReimbursementCriterion`, A/B/C/Cs/Cx …) and the reimbursement base
 * price. Read before the AMP file so each public-pharmacy pack gets its statutory rate and the
 * base price (kind `reimbursed`).
 */
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import { FileRejectedError } from './common.ts';
import type { InputFile, ProblemLog } from './common.ts';
import { RowTally } from '../row-outcome.ts';
import type { FileReport } from '../row-outcome.ts';
import { SAM_EXPORT_NS, attr, attrOf, childOf, currentSlice, euro } from './be-sam-read.ts';
import { dicsRecords } from './be-sam-dics.ts';
import { xmlFileRecords } from './xml-file-records.ts';
import type { XmlElement } from './xml-records.ts';

/** What the reimbursement export says of one CNK on the reading day. */
export interface SamReimbursement {
  category: string;
  /** Share the insurer pays for a patient in the regular regime; absent for lump-sum categories. */
  rate?: number;
  basePrice?: number;
  validFrom?: string;
  legalReference?: string;
}

/**
 * Reimbursed share by category in the regular regime: the patient's share (remgeld / ticket
 * modérateur) is 0 % in A, 25 % in B, 50 % in C, 60 % in Cs and 80 % in Cx. Lump-sum hospital
 * categories (Fa, Fb) and the rest have no rate of their own.
 */
const RATE_BY_CATEGORY: Record<string, number> = { A: 100, B: 75, C: 50, CS: 40, CX: 20 };

/** The reimbursement contexts of the RMB export (root `ExportReimbursements` in the export namespace). */
function exportContexts(file: InputFile): AsyncGenerator<XmlElement> {
  return xmlFileRecords(file, {
    onRoot(name, attributes) {
      const namespaced = Object.entries(attributes).some(([k, v]) => k.startsWith('xmlns') && v === SAM_EXPORT_NS);
      if (name !== 'ExportReimbursements' || !namespaced) throw new FileRejectedError(file.name, `not a SAM v2 reimbursement export (root <${name}>)`);
    },
    isRecord: (name, ancestors) => ancestors.length === 1 && name === 'ReimbursementContext',
  });
}

/** One context's reimbursement, or why it is left out: a reason to exclude, or a problem. */
function readContext(context: XmlElement, day: string): { cnk: string; entry: SamReimbursement } | { excluded: string } | { malformed: string } {
  // Hospital contexts and other code types are out of scope: drugref prices public-pharmacy packs.
  if (attr(context, 'codeType') !== 'CNK' || attr(context, 'deliveryEnvironment') !== 'P') return { excluded: 'out_of_scope' };
  const cnk = /^\d{1,7}$/.test(attr(context, 'code')) ? normaliseIdentifier('be_apb', attr(context, 'code')) : null;
  if (!cnk) return { malformed: `ReimbursementContext: CNK "${attr(context, 'code')}" is not a 7-digit code` };
  const slice = currentSlice(context, day);
  const criterion = childOf(slice?.data, 'ReimbursementCriterion');
  const category = (attrOf(criterion, 'category') || attrOf(criterion, 'Category')).trim();
  if (!slice || category === '') return { malformed: `ReimbursementContext ${cnk}: no reimbursement category` };
  const entry: SamReimbursement = { category };
  const rate = RATE_BY_CATEGORY[category.toUpperCase()];
  if (rate !== undefined) entry.rate = rate;
  const base = euro(slice.data, 'ReimbursementBasePrice');
  if (base !== null) entry.basePrice = base;
  if (slice.from) entry.validFrom = slice.from;
  if (attr(context, 'legalReferencePath')) entry.legalReference = attr(context, 'legalReferencePath');
  return { cnk, entry };
}

/**
 * Reads the reimbursement export, or a DICS FindReimbursement answer (`dics`), into `into`:
 * CNK → its current reimbursement (public pharmacy only). Several legal bases may cover one
 * CNK; the first listed is kept and the others are excluded as `other_legal_basis`.
 */
export async function readSamReimbursements(file: InputFile, day: string, log: ProblemLog, into: Map<string, SamReimbursement>, dics = false): Promise<FileReport> {
  const tally = new RowTally(file.name, log.problems);
  for await (const context of dics ? dicsRecords(file, 'FindReimbursementResponse') : exportContexts(file)) {
    const read = readContext(context, day);
    if ('excluded' in read) tally.exclude(read.excluded);
    else if ('malformed' in read) tally.malformedRow(context.line, read.malformed);
    else if (into.has(read.cnk)) tally.exclude('other_legal_basis');
    else { into.set(read.cnk, read.entry); tally.keep(); }
  }
  return tally.report(dics ? 'DICS reimbursement' : 'RMB');
}
