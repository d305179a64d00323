/**
 * Refdata article files opened for a streamed ingest (what `drugref ingest ch-refdata` and the
 * sync worker run): the same snapshot, problems and file reports as `parseChRefdataFiles`
 * (ch-refdata.ts), read from disk in blocks (xml-file-records.ts), in four passes:
 *
 * 1. on opening, every article is checked (problems, repeated packs) and given the number of
 *    its product; only the article's product number and each product's article count are kept;
 * 2. still on opening, the articles of products with more than one article are read again to
 *    assemble those products without their packs (name, holder, codes);
 * 3. while the engine ingests, the articles again: a product of one article is built and
 *    yielded with its pack where it stands, a larger one (assembled in pass 2) where its first
 *    article stands, without packs;
 * 4. then the articles again, yielding the packs of the larger products as loose packs.
 *
 * A product is yielded where its first article stands, as the in-memory parser orders them.
 * A file that reads differently between the passes refuses the ingest.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { FileReport, ProductEntry } from '../snapshot.ts';
import type { LoosePack, StreamedAdapterResult } from '../input.ts';
import { FileRejectedError } from './common.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import type { InputFile } from './common.ts';
import { CH_REFDATA_FILE, CH_REFDATA_SOURCE, RefdataLayout, buildPack, codesOf, finish, joinArticle, keysOf, newGroup } from './ch-refdata.ts';
import type { Codes, Group } from './ch-refdata.ts';
import type { RefdataArticle } from './ch-refdata-xml.ts';
import { xmlFileRecords } from './xml-file-records.ts';

/** An article of one of the files, numbered across all of them, with its file's layout. */
interface Read {
  article: RefdataArticle;
  ordinal: number;
  layout: RefdataLayout;
  file: InputFile;
}

/** Every article of `files` in order; the layout of each file is complete once its first article is read. */
async function* articles(files: InputFile[], onFile?: (layout: RefdataLayout) => void): AsyncGenerator<Read> {
  let ordinal = 0;
  for (const file of files) {
    const layout = new RefdataLayout(file.name);
    for await (const element of xmlFileRecords(file, layout)) {
      yield { article: layout.article(element), ordinal, layout, file };
      ordinal += 1;
    }
    onFile?.(layout);
  }
}

const changedWhileRead = (read: Read): FileRejectedError =>
  new FileRejectedError(read.file.name, `the article at line ${read.article.line} reads differently from when the file was opened (it changed during the ingest)`);

/** Where pass 1 put each article: the number of its product (-1: reported or repeated) and each product's article count. */
interface Plan {
  target: number[];
  count: number[];
}

/** Codes of an article pass 1 kept, checked again. */
function recheck(read: Read, plan: Plan): Codes | null {
  const t = plan.target[read.ordinal];
  if (t === undefined) throw changedWhileRead(read);
  if (t < 0) return null;
  const codes = codesOf(read.article);
  if (typeof codes === 'string') throw changedWhileRead(read);
  return codes;
}

/** Pass 1: problems, reports and the plan; the sets of keys it checks repeats against are dropped on return. */
async function check(files: InputFile[], problems: RowProblem[]): Promise<{ plan: Plan; reports: FileReport[] }> {
  const plan: Plan = { target: [], count: [] };
  const reports: FileReport[] = [];
  const packKeys = new Set<string>();
  const products = new Map<string, number>();
  const tallies = new Map(files.map((f) => [f, new RowTally(f.name, problems)]));
  for await (const { article, file } of articles(files, (layout) => reports.push(layout.report(tallies.get(files[reports.length]!)!)))) {
    const tally = tallies.get(file)!;
    const codes = codesOf(article);
    const keys = typeof codes === 'string' ? null : keysOf(codes);
    if (typeof codes === 'string') tally.malformedRow(article.line, codes);
    else if (keys && packKeys.has(keys.pack)) tally.exclude(EXCLUDED.duplicate);
    if (!keys || packKeys.has(keys.pack)) { plan.target.push(-1); continue; }
    tally.keep();
    packKeys.add(keys.pack);
    let t = products.get(keys.product);
    if (t === undefined) {
      t = plan.count.push(0) - 1;
      products.set(keys.product, t);
    }
    plan.target.push(t);
    plan.count[t]! += 1;
  }
  return { plan, reports };
}

/** Pass 2: the products of more than one article, without their packs. */
async function assemble(files: InputFile[], plan: Plan): Promise<Map<number, Group>> {
  const groups = new Map<number, Group>();
  for await (const read of articles(files)) {
    const codes = recheck(read, plan);
    const t = plan.target[read.ordinal]!;
    if (!codes || plan.count[t] === 1) continue;
    const keys = keysOf(codes);
    let group = groups.get(t);
    if (!group) groups.set(t, (group = newGroup(read.article, codes, keys.product)));
    joinArticle(group, read.article, buildPack(read.article, codes, keys.pack, read.layout.generatedOn));
  }
  return groups;
}

/** Opens Refdata article files for a streamed ingest; see the module comment. */
export async function openChRefdataFiles(files: InputFile[]): Promise<StreamedAdapterResult> {
  if (files.length === 0) throw new FileRejectedError(CH_REFDATA_FILE, 'no file given');
  const problems: RowProblem[] = [];
  const { plan, reports } = await check(files, problems);
  const groups = await assemble(files, plan);
  const total = plan.target.length;

  async function* products(): AsyncGenerator<ProductEntry> {
    let seen = 0;
    for await (const read of articles(files)) {
      seen += 1;
      const codes = recheck(read, plan);
      if (!codes) continue;
      const t = plan.target[read.ordinal]!;
      const keys = keysOf(codes);
      if (plan.count[t] === 1) {
        const group = newGroup(read.article, codes, keys.product);
        const pack = buildPack(read.article, codes, keys.pack, read.layout.generatedOn);
        joinArticle(group, read.article, pack);
        group.product.packs.push(pack);
        yield finish(group);
      } else if (groups.has(t)) {
        // Yielded where its first article stands; its packs follow as loose packs.
        yield finish(groups.get(t)!);
        groups.delete(t);
      }
    }
    if (seen !== total) throw new FileRejectedError(files.at(-1)!.name, 'the files changed during the ingest (another number of articles than when they were opened)');
  }
  async function* packs(): AsyncGenerator<LoosePack> {
    for await (const read of articles(files)) {
      const codes = recheck(read, plan);
      if (!codes || plan.count[plan.target[read.ordinal]!] === 1) continue;
      const keys = keysOf(codes);
      yield { product_key: keys.product, pack: buildPack(read.article, codes, keys.pack, read.layout.generatedOn) };
    }
  }
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: CH_REFDATA_SOURCE, products: products(), packs: packs() },
    problems,
    files: reports,
  };
}
