/**
 * An Artikelstamm v5 file opened for a streamed ingest (what `drugref ingest ch-artikelstamm`
 * and the sync worker run): the same snapshot, problems and file report as
 * `parseChArtikelstamm` (ch-artikelstamm.ts), read from disk in blocks (xml-file-records.ts):
 *
 * 1. on opening, every record is checked (problems, repeated PRODNOs and articles); the
 *    products of PRODUCT records are kept without packs (with what their items add: holder,
 *    generic flag, dispensing categories), as are the limitations and substances; of each
 *    item only the number of its product is kept;
 * 2. only when some item names a PRODNO no PRODUCT lists, shared with another item: the items
 *    again, to assemble those products;
 * 3. while the engine ingests, the records again: each product is yielded where it first
 *    appears (as the in-memory parser orders them), a non-pharma article's product with its
 *    pack, the others without packs;
 * 4. then the items again, yielding the other packs as loose packs, with their BAG limitation.
 *
 * A file that reads differently between the passes refuses the ingest.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { FileReport, ProductEntry, SlLimitation, SubstanceEntry } from '../snapshot.ts';
import type { LoosePack, StreamedAdapterResult } from '../input.ts';
import { FileRejectedError, RowError, findFile } from './common.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import type { InputFile } from './common.ts';
import {
  ARTIKELSTAMM_RECORDS, CH_ARTIKELSTAMM_FILE, CH_ARTIKELSTAMM_SOURCE, checkRoot, commonCategory, itemProduct, joinItem, limitPack,
  prodnoOf, productKeyOf, readLimitation, readProduct,
} from './ch-artikelstamm.ts';
import { readItem } from './ch-artikelstamm-items.ts';
import type { ItemRead } from './ch-artikelstamm-items.ts';
import { xmlFileRecords } from './xml-file-records.ts';
import type { XmlElement } from './xml-records.ts';

/** A product without its packs and the dispensing categories of the packs it has. */
interface Assembling {
  product: ProductEntry;
  categories: Set<string | undefined>;
}

/** What the passes after the first need: product numbers by position, never the keys checked. */
interface Plan {
  /** Product number of each PRODUCT record, -1 for a reported one. */
  productRecords: number[];
  /** Product number of each ITEM, -1 for a reported or repeated one. */
  items: number[];
  /** Items each product has. */
  count: number[];
  /** Product numbers of PRODUCT records. */
  listed: Set<number>;
  /** Products assembled so far, by number. */
  assembling: Map<number, Assembling>;
  /** BAG limitation of each product that names one. */
  limitations: Map<number, SlLimitation>;
}

function records(file: InputFile): AsyncGenerator<XmlElement> {
  return xmlFileRecords(file, {
    onRoot: (name, attributes) => checkRoot(file.name, name, attributes),
    isRecord: (name, ancestors) => ancestors.length > 1 && ARTIKELSTAMM_RECORDS.includes(`${ancestors.at(-1)}/${name}`),
  });
}

function join(entry: Assembling, read: ItemRead): void {
  joinItem(entry.product, read);
  entry.categories.add(read.pack.dispensing_category);
}

/** Pass 1; see the module comment. */
async function check(file: InputFile, problems: RowProblem[], substances: Map<string, SubstanceEntry>): Promise<{ plan: Plan; report: FileReport }> {
  const plan: Plan = { productRecords: [], items: [], count: [], listed: new Set(), assembling: new Map(), limitations: new Map() };
  const tally = new RowTally(file.name, problems);
  const keys = new Map<string, number>();
  const packKeys = new Set<string>();
  const limitationCodes = new Map<number, string>();
  const limitations = new Map<string, SlLimitation>();
  const number = (key: string): number => keys.get(key) ?? (keys.set(key, plan.count.push(0) - 1), plan.count.length - 1);
  for await (const node of records(file)) {
    const positions = node.name === 'PRODUCT' ? plan.productRecords : node.name === 'ITEM' ? plan.items : null;
    try {
      if (node.name === 'LIMITATION') {
        const { code, entry } = readLimitation(node);
        limitations.set(code, entry);
      } else if (node.name === 'PRODUCT') {
        const prodno = prodnoOf(node);
        if (keys.has(prodno)) throw new RowError(`PRODNO ${prodno} appears twice`);
        const { product, limitation } = readProduct(node, prodno, substances);
        const t = number(prodno);
        plan.listed.add(t);
        plan.assembling.set(t, { product, categories: new Set() });
        if (limitation) limitationCodes.set(t, limitation);
        positions!.push(t);
      } else {
        const read = readItem(node);
        if (packKeys.has(read.pack.key)) {
          tally.exclude(EXCLUDED.duplicate);
          positions!.push(-1);
          continue;
        }
        packKeys.add(read.pack.key);
        const t = number(productKeyOf(read));
        plan.count[t]! += 1;
        const entry = plan.assembling.get(t);
        if (entry) join(entry, read);
        positions!.push(t);
        tally.keep();
      }
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      if (node.name === 'ITEM') tally.malformedRow(node.line, error.message);
      else problems.push({ file: file.name, line: node.line, message: error.message });
      positions?.push(-1);
    }
  }
  for (const [t, code] of limitationCodes) {
    const limitation = limitations.get(code);
    if (limitation) plan.limitations.set(t, limitation);
  }
  return { plan, report: tally.report('ARTIKELSTAMM v5') };
}

const changedWhileRead = (file: InputFile, line: number): FileRejectedError =>
  new FileRejectedError(file.name, `the record at line ${line} reads differently from when the file was opened (it changed during the ingest)`);

/** The items of `file` that pass 1 kept, read again, with their product numbers. */
async function* keptItems(file: InputFile, plan: Plan): AsyncGenerator<{ node: XmlElement; read: ItemRead; t: number } | { node: XmlElement; t: null }> {
  let position = 0;
  for await (const node of records(file)) {
    if (node.name !== 'ITEM') {
      if (node.name === 'PRODUCT') yield { node, t: null };
      continue;
    }
    const t = plan.items[position++];
    if (t === undefined) throw changedWhileRead(file, node.line);
    if (t < 0) continue;
    let read: ItemRead;
    try {
      read = readItem(node);
    } catch (error) {
      if (error instanceof RowError) throw changedWhileRead(file, node.line);
      throw error;
    }
    yield { node, read, t };
  }
  if (position !== plan.items.length) throw new FileRejectedError(file.name, 'the file changed during the ingest (fewer items than when it was opened)');
}

/** Pass 2: products of several items whose PRODNO no PRODUCT lists. */
async function assemble(file: InputFile, plan: Plan): Promise<void> {
  const unlisted = (t: number): boolean => !plan.listed.has(t) && plan.count[t]! > 1;
  if (!plan.count.some((_, t) => unlisted(t))) return;
  for await (const item of keptItems(file, plan)) {
    if (item.t === null || !unlisted(item.t)) continue;
    let entry = plan.assembling.get(item.t);
    if (!entry) plan.assembling.set(item.t, (entry = { product: itemProduct(item.read), categories: new Set() }));
    join(entry, item.read);
  }
}

function finished(entry: Assembling): ProductEntry {
  const only = commonCategory(entry.categories);
  if (only) entry.product.dispensing_category = only;
  return entry.product;
}

/** Opens an Artikelstamm v5 file for a streamed ingest; see the module comment. */
export async function openChArtikelstamm(files: InputFile[]): Promise<StreamedAdapterResult> {
  const given = findFile(files, CH_ARTIKELSTAMM_FILE) ?? (files.length === 1 ? files[0] : undefined);
  if (!given) throw new FileRejectedError(CH_ARTIKELSTAMM_FILE, `expected exactly one file (${CH_ARTIKELSTAMM_FILE}), got ${files.length}`);
  const file: InputFile = given;
  const problems: RowProblem[] = [];
  const substances = new Map<string, SubstanceEntry>();
  const { plan, report } = await check(file, problems, substances);
  await assemble(file, plan);
  /** Items that go as loose packs: those of listed products and of products assembled in pass 2. */
  const loose = (t: number): boolean => plan.listed.has(t) || plan.count[t]! > 1;

  async function* products(): AsyncGenerator<ProductEntry> {
    let position = 0;
    for await (const item of keptItems(file, plan)) {
      const t = item.t ?? plan.productRecords[position++] ?? -1;
      const entry = plan.assembling.get(t);
      if (entry) {
        plan.assembling.delete(t);
        yield finished(entry);
      } else if (item.t !== null && !loose(item.t)) {
        // A product of one item (a non-pharma article): built with its pack where it stands.
        const single: Assembling = { product: itemProduct(item.read), categories: new Set() };
        single.product.packs.push(item.read.pack);
        join(single, item.read);
        yield finished(single);
      }
    }
  }
  async function* packs(): AsyncGenerator<LoosePack> {
    for await (const item of keptItems(file, plan)) {
      if (item.t === null || !loose(item.t)) continue;
      limitPack(item.read.pack, plan.limitations.get(item.t));
      yield { product_key: productKeyOf(item.read), pack: item.read.pack };
    }
  }
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: CH_ARTIKELSTAMM_SOURCE, substances: [...substances.values()], products: products(), packs: packs() },
    problems,
    files: [report],
  };
}
