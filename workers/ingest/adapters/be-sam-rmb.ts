/**
 * The reimbursement export of SAM v2 (`RMB-<version>.xml`, root `ExportReimbursements`): one
 * `ReimbursementContext` per CNK and legal basis, its dated `Data` slices naming the RIZIV-INAMI
 * reimbursement category (`ReimbursementCriterion`, A/B/C/Cs/Cx …) and the reimbursement base
 * price. Read before the AMP file so each public-pharmacy pack gets its statutory rate and the
 * base price (kind `reimbursed`).
 */
import { normaliseIdentifier } from '../../../resolvers/catalogue/codes.ts';
import { FileRejectedError } from './common.ts';
import type { InputFile, ProblemLog } from './common.ts';
import { SAM_EXPORT_NS, attrOf, childOf, currentSlice, euro } from './be-sam-read.ts';
import { openInput } from './line-stream.ts';
import { xmlFileRecords } from './xml-file-records.ts';

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

/** Root element name of an XML file, read from its first block (`ExportActualMedicines`, `ExportReimbursements` …). */
export async function samRoot(file: InputFile): Promise<string> {
  const head = file.path === undefined ? file.content.subarray(0, 4096) : await firstBytes(file);
  const m = /<(?:[\w.-]+:)?(Export\w+)[\s>]/.exec(head.toString('utf-8'));
  return m ? m[1]! : '';
}

async function firstBytes(file: InputFile): Promise<Buffer> {
  for await (const block of openInput(file)) return (block as Buffer).subarray(0, 4096);
  return Buffer.alloc(0);
}

/** The CNKs' reimbursements and how many contexts were read and skipped. */
export interface SamReimbursements {
  byCnk: Map<string, SamReimbursement>;
  read: number;
  skipped: number;
}

/** Reads the reimbursement export into a map from CNK to its current reimbursement (public pharmacy only). */
export async function readSamReimbursements(file: InputFile, day: string, log: ProblemLog): Promise<SamReimbursements> {
  const out = new Map<string, SamReimbursement>();
  let read = 0;
  let skipped = 0;
  const records = xmlFileRecords(file, {
    onRoot(name, attributes) {
      const namespaced = Object.entries(attributes).some(([k, v]) => k.startsWith('xmlns') && v === SAM_EXPORT_NS);
      if (name !== 'ExportReimbursements' || !namespaced) throw new FileRejectedError(file.name, `not a SAM v2 reimbursement export (root <${name}>)`);
    },
    isRecord: (name, ancestors) => ancestors.length === 1 && name === 'ReimbursementContext',
  });
  for await (const context of records) {
    read += 1;
    // Hospital contexts and other code types are out of scope, counted as skipped without a problem.
    if (attrOf(context, 'codeType') !== 'CNK' || attrOf(context, 'deliveryEnvironment') !== 'P') { skipped += 1; continue; }
    const cnk = /^\d{1,7}$/.test(attrOf(context, 'code')) ? normaliseIdentifier('be_apb', attrOf(context, 'code')) : null;
    if (!cnk) { log.add(file.name, context.line, `ReimbursementContext: CNK "${attrOf(context, 'code')}" is not a 7-digit code`); skipped += 1; continue; }
    const slice = currentSlice(context, day);
    const criterion = childOf(slice?.data, 'ReimbursementCriterion');
    const category = (attrOf(criterion, 'category') || attrOf(criterion, 'Category')).trim();
    if (!slice || category === '') { log.add(file.name, context.line, `ReimbursementContext ${cnk}: no reimbursement category`); skipped += 1; continue; }
    const entry: SamReimbursement = { category };
    const rate = RATE_BY_CATEGORY[category.toUpperCase()];
    if (rate !== undefined) entry.rate = rate;
    const base = euro(slice.data, 'ReimbursementBasePrice');
    if (base !== null) entry.basePrice = base;
    if (slice.from) entry.validFrom = slice.from;
    if (attrOf(context, 'legalReferencePath')) entry.legalReference = attrOf(context, 'legalReferencePath');
    // Several legal bases may cover one CNK; the first listed is kept.
    if (!out.has(cnk)) out.set(cnk, entry);
  }
  return { byCnk: out, read, skipped };
}
