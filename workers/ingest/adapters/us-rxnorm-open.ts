/**
 * The RxNorm release opened for a streamed ingest (what `drugref ingest us-rxnorm` and the sync
 * worker run): the same snapshot, problems and file reports as `parseUsRxnorm` (us-rxnorm.ts),
 * with the RRF files read from disk line by line (line-stream.ts), never whole:
 *
 * 1. on opening, RXNCONSO then RXNSAT are read and every line checked, so problems and counts
 *    are settled before anything is written; the substances are built (their concepts and
 *    MTHSPL UNIIs are few), drug concepts keep only their term type, not their names, and the
 *    NDC ownership map becomes each drug's list of NDCs (join keys only) once RXNSAT is read;
 * 2. while the engine ingests, RXNCONSO again, for the names of the drugs that have NDCs only;
 *    then the products are yielded in the parser's order (the NDCs' first claims).
 *
 * A drug whose concept no longer reads on the second pass (the file changed) refuses the ingest.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { FileReport, ProductEntry } from '../snapshot.ts';
import type { StreamedAdapterResult } from '../input.ts';
import { RowTally } from '../row-outcome.ts';
import { FileRejectedError } from './common.ts';
import type { InputFile } from './common.ts';
import { fileLines } from './line-stream.ts';
import {
  DRUG_TTYS, RXNORM_SOURCE, consoAtom, drugNdcs, newData, packOf, productOf, readRrfLine, requireConso, roleByFirstLine,
  roleLabel, unusedMember, rrfFields, settleOutcomes, substances,
} from './us-rxnorm.ts';
import type { Role } from './us-rxnorm.ts';

/** RRF is UTF-8; a line that is not is read as Windows-1252, as the parser reads it. */
const lines = (file: InputFile) => fileLines(file, 'utf-8-else-windows-1252');

async function firstLine(file: InputFile): Promise<string> {
  for await (const { text } of lines(file)) return text;
  return '';
}

/** RXCUI → name of the drugs in `wanted`, read again from RXNCONSO (the last atom read wins, as on opening). */
async function drugNames(file: InputFile, wanted: ReadonlyMap<string, string>): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for await (const { text } of lines(file)) {
    const fields = rrfFields('conso', text);
    if (typeof fields === 'string') continue;
    const atom = consoAtom(fields);
    if (typeof atom !== 'string' && 'tty' in atom && DRUG_TTYS.has(atom.tty) && wanted.has(atom.rxcui)) names.set(atom.rxcui, atom.str);
  }
  return names;
}

/** Opens an RxNorm release for a streamed ingest; see the module comment. */
export async function openUsRxnorm(files: InputFile[]): Promise<StreamedAdapterResult> {
  const roles: Array<{ file: InputFile; first: string; role: Role | null }> = [];
  for (const file of files) {
    const first = await firstLine(file);
    roles.push({ file, first, role: roleByFirstLine(first) });
  }
  requireConso(roles.map((r) => r.role));
  const data = newData(false);
  const reports = new Map<InputFile, FileReport>();
  const tallies: Array<{ file: InputFile; role: Role; tally: RowTally }> = [];
  // Concepts first, whatever the order given: NDC owners are checked against them.
  for (const role of ['conso', 'sat'] as const) {
    for (const { file } of roles.filter((r) => r.role === role)) {
      const tally = new RowTally(file.name, data.log.problems);
      for await (const { line, text } of lines(file)) readRrfLine(role, text, line, data, tally);
      tallies.push({ file, role, tally });
    }
  }
  settleOutcomes(data);
  for (const { file, role, tally } of tallies) reports.set(file, tally.report(roleLabel(role)));
  for (const { file, first, role } of roles) if (role === null) reports.set(file, unusedMember(file.name, first));
  const entries = substances(data);
  const ndcs = drugNdcs(data);
  /** Term type of each drug with NDCs: all that is kept of the concepts. */
  const ttys = new Map([...ndcs.keys()].map((rxcui) => [rxcui, data.concepts.get(rxcui)!.tty]));
  data.concepts.clear();
  data.uniis.clear();
  data.ndcs.clear();
  const consoFiles = roles.filter((r) => r.role === 'conso').map((r) => r.file);

  async function* products(): AsyncGenerator<ProductEntry> {
    const names = new Map<string, string>();
    for (const file of consoFiles) for (const [rxcui, name] of await drugNames(file, ttys)) names.set(rxcui, name);
    for (const [rxcui, list] of ndcs) {
      const str = names.get(rxcui);
      if (str === undefined) throw new FileRejectedError(consoFiles[0]!.name, `the concept of RXCUI ${rxcui} no longer reads: the file changed during the ingest`);
      yield { ...productOf(rxcui, { tty: ttys.get(rxcui)!, str }), packs: list.map(packOf) };
    }
  }
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: RXNORM_SOURCE, substances: entries, products: products() },
    problems: data.log.problems,
    files: files.map((f) => reports.get(f)!),
  };
}
