/**
 * The dm+d release opened for a streamed ingest (what `drugref ingest gb-dmd` and the sync
 * worker run): the same snapshot, problems and file reports as `parseGbDmd` (gb-dmd.ts),
 * without holding the files or the snapshot in memory. The files are read from disk in blocks
 * (gb-dmd-read.ts): the small tables the build looks up (lookup, ingredients, VTMs, VMPs,
 * VMPPs) are kept, the AMPs, AMPPs and GTINs only as the ids that link them, their prices and
 * their byte offsets. Every product is then linked from those keys alone, which settles the
 * problems, the kept counts and the substances before anything is written, and built, one at
 * a time, while the engine writes them: the AMP, AMPP and GTIN records are read again from
 * their files (gb-dmd-records.ts), and must still carry the ids they were linked by.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { ProductEntry, SubstanceEntry } from '../snapshot.ts';
import type { StreamedAdapterResult } from '../input.ts';
import { ProblemLog } from './common.ts';
import type { InputFile } from './common.ts';
import { GB_DMD_SOURCE, reportsOf, requireCoreFiles } from './gb-dmd.ts';
import { dmdProducts, linkPacks } from './gb-dmd-build.ts';
import { emptyDmdData, streamDmdFile } from './gb-dmd-read.ts';
import type { RoleCount } from './gb-dmd-read.ts';

/** Opens a dm+d release for a streamed ingest: the same snapshot, problems and reports as `parseGbDmd`; see the module comment. */
export async function openGbDmd(files: InputFile[]): Promise<StreamedAdapterResult> {
  const log = new ProblemLog();
  const data = emptyDmdData();
  const counts: RoleCount[] = [];
  for (const file of files) counts.push(await streamDmdFile(file, data, log));
  requireCoreFiles(data);
  linkPacks(data, log);
  const substances = new Map<string, SubstanceEntry>();
  // Linking every AMP reports unlinked records, counts what is kept and collects the substances, reading no record again.
  for (const _product of dmdProducts(data, log, substances, false)) { /* only its side effects are wanted */ }
  const reports = reportsOf(counts, log.problems);
  function* products(): Generator<ProductEntry> {
    // Linked again while built: the problems and counts were settled above.
    const counted = new Map([...data.counts].map(([role, count]) => [role, { ...count }]));
    yield* dmdProducts({ ...data, counts: counted }, new ProblemLog(), new Map());
  }
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: GB_DMD_SOURCE, substances: [...substances.values()], products: products() },
    problems: log.problems,
    files: reports,
  };
}
