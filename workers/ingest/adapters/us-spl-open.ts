/**
 * SPL documents opened for a streamed ingest (what `drugref ingest us-spl` and the sync worker
 * run): the same snapshot, problems and file reports as `parseUsSpl` (us-spl.ts). DailyMed
 * publishes one label document per file, each small (tens to hundreds of kilobytes), but a
 * release is tens of thousands of them; the in-memory parser holds every document's products
 * at once (and, given paths, every file's bytes). Here each document is read from disk alone
 * and dropped, twice:
 *
 * 1. on opening, every product is read and checked (malformed products, product and package
 *    NDCs repeated across documents), settling problems, counts and substances; of each
 *    document only the positions of its kept products, and of the packages it loses as
 *    repeats, are kept;
 * 2. while the engine ingests, the documents again, yielding the kept products.
 *
 * A document whose kept products no longer read the same refuses the ingest.
 */
import { readFile } from 'node:fs/promises';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { FileReport, ProductEntry, SubstanceEntry } from '../snapshot.ts';
import type { StreamedAdapterResult } from '../input.ts';
import { FileRejectedError, ProblemLog } from './common.ts';
import type { InputFile } from './common.ts';
import { SPL_ROLE, SPL_RULES, SPL_SOURCE, keepFirst, readSplDocument, splDocuments } from './us-spl.ts';
import { assignRoles, headBytes } from './file-roles.ts';
import { RowTally } from '../row-outcome.ts';
import type { SplOptions } from './us-spl.ts';

/** The document's bytes, read afresh (an input given as a path would otherwise keep them). */
async function load(file: InputFile): Promise<InputFile> {
  return file.path ? { name: file.name, content: await readFile(file.path) } : file;
}

/** What pass 2 needs of a document: positions of its kept products, and of each one's packages lost as repeats. */
interface Kept {
  products: number[];
  repeats: Map<number, Set<number>>;
}

/** Opens SPL documents for a streamed ingest; see the module comment. */
export async function openUsSpl(given: InputFile[], options: SplOptions = {}): Promise<StreamedAdapterResult> {
  const assignment = await assignRoles(given, SPL_RULES);
  // The first bytes of the members that are no document, to say why (pictures, other XML).
  const heads = new Map<InputFile, Buffer>();
  for (const file of given) if (!assignment.byRole.get(SPL_ROLE)?.includes(file)) heads.set(file, await headBytes(file));
  const { documents: files, unused } = splDocuments(given, assignment, (f) => heads.get(f)!);
  const asOf = options.asOf ?? new Date();
  const log = new ProblemLog();
  const substances = new Map<string, SubstanceEntry>();
  const reports = new Map<InputFile, FileReport>(unused);
  const plan: Kept[] = [];
  const seen = { products: new Set<string>(), packKeys: new Set<string>() };
  for (const file of files) {
    const kept: Kept = { products: [], repeats: new Map() };
    let position = 0;
    const tally = new RowTally(file.name, log.problems);
    readSplDocument(await load(file), { asOf, substances, log, tally }, (record) => {
      const at = position++;
      const packs = record.product.packs;
      if (!keepFirst(record, seen, log, file.name, tally)) return;
      seen.products.add(record.product.key);
      const left = new Set(record.product.packs);
      if (left.size < packs.length) kept.repeats.set(at, new Set(packs.flatMap((p, i) => (left.has(p) ? [] : [i]))));
      kept.products.push(at);
    });
    plan.push(kept);
    reports.set(file, tally.report(SPL_ROLE));
  }
  seen.products.clear();
  seen.packKeys.clear();

  async function* products(): AsyncGenerator<ProductEntry> {
    const scratch = { asOf, substances: new Map<string, SubstanceEntry>(), log: new ProblemLog() };
    for (const [f, file] of files.entries()) {
      const kept = plan[f]!;
      const wanted = new Set(kept.products);
      const out: ProductEntry[] = [];
      let position = 0;
      readSplDocument(await load(file), scratch, ({ product }) => {
        const at = position++;
        if (!wanted.has(at)) return;
        const repeats = kept.repeats.get(at);
        if (repeats) product.packs = product.packs.filter((_, i) => !repeats.has(i));
        out.push(product);
      });
      if (out.length !== kept.products.length) throw new FileRejectedError(file.name, 'the document changed during the ingest (other products than when it was opened)');
      scratch.substances.clear();
      yield* out;
    }
  }
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: SPL_SOURCE, substances: [...substances.values()], products: products() },
    problems: log.problems,
    files: given.map((f) => reports.get(f)!),
  };
}
