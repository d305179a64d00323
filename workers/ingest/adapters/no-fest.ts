/**
 * Norwegian FEST (Direktoratet for medisinske produkter): the M30 XML `fest251.xml` that DMP
 * publishes in `fest251.zip`. Products are LegemiddelMerkevare entries, packs Legemiddelpakning
 * entries attached to the merkevare their Pakningsinfo names; strengths and substances from
 * VirkestoffMedStyrke and Virkestoff. Reading in no-fest-xml.ts, mapping in no-fest-rows.ts.
 *
 * A malformed entry (no Id, a Varenr that is not 6 digits, a reference to an entry the file
 * does not list) is reported with its line and skipped; a repeated id keeps its first entry.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, PackEntry, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { FileRejectedError, ProblemLog, findFile } from './common.ts';
import type { InputFile } from './common.ts';
import { openInput } from './line-stream.ts';
import type { StreamedAdapterResult } from '../input.ts';
import { FestEntryError, isReimbursed, marketedOn, merkevareOf, packOf, productOf, resolveIngredients, substanceOf } from './no-fest-rows.ts';
import type { IngredientRef } from './no-fest-rows.ts';
import { readFest } from './no-fest-xml.ts';
import type { FestDocument } from './no-fest-xml.ts';

export const NO_FEST_FILE = 'fest251.xml';

export const NO_FEST_SOURCE: SourceInfo = {
  id: 'no-fest',
  name: 'FEST (Direktoratet for medisinske produkter)',
  country: 'NO',
  // DMP publishes a full extract before the 1st and the 15th of each month, now and then in between.
  refresh_interval_hours: 24 * 20,
  // FEST is published under the Norwegian Licence for Open Government Data: free re-use, source named.
  licence: 'NLOD 2.0 (Norsk lisens for offentlige data); source: FEST, Direktoratet for medisinske produkter',
  url: 'https://www.dmp.no/om-oss/distribusjon-av-legemiddeldata/fest/',
};

/** Runs a mapper, turning its FestEntryError into a reported, skipped entry. */
function attempt<T>(log: ProblemLog, file: string, line: number, map: () => T): T | null {
  try {
    return map();
  } catch (err) {
    if (!(err instanceof FestEntryError)) throw err;
    log.add(file, line, err.message);
    return null;
  }
}

/** A product read, its ingredients still references until the substances are read. */
interface PendingProduct { line: number; product: ProductEntry; refs: IngredientRef[] }
/** A pack read, with what it tells its product. */
interface PendingPack { line: number; pack: PackEntry; merkevare: string; reimbursed: boolean; marketed?: string }

/** Maps each entry as it closes (no entry tree is kept), collecting compact products and packs. */
async function readEntries(file: string, blocks: Iterable<Buffer> | AsyncIterable<Buffer>, log: ProblemLog): Promise<{ doc: FestDocument; products: PendingProduct[]; packs: PendingPack[] }> {
  const products: PendingProduct[] = [];
  const packs: PendingPack[] = [];
  const doc = await readFest(file, blocks, {
    merkevare(entry) {
      const mapped = attempt(log, file, entry.line, () => productOf(entry));
      if (mapped) products.push({ line: entry.line, ...mapped });
    },
    pakning(entry) {
      const pack = attempt(log, file, entry.line, () => packOf(entry));
      const marketed = marketedOn(entry);
      if (pack) packs.push({ line: entry.line, pack, merkevare: merkevareOf(entry.element) ?? '', reimbursed: isReimbursed(entry), ...(marketed ? { marketed } : {}) });
    },
    malformed: (line, message) => log.add(file, line, message),
  });
  return { doc, products, packs };
}

/** Products by FEST id with their ingredients resolved; a repeated id keeps the first entry. */
function resolveProducts(file: string, doc: FestDocument, pending: readonly PendingProduct[], log: ProblemLog): Map<string, ProductEntry> {
  const products = new Map<string, ProductEntry>();
  for (const { line, product, refs } of pending) {
    const ingredients = attempt(log, file, line, () => resolveIngredients(refs, doc.styrker, doc.virkestoffer));
    if (!ingredients) continue;
    if (products.has(product.key)) { log.add(file, line, `LegemiddelMerkevare ${product.key} repeated; the first entry is kept`); continue; }
    product.ingredients = ingredients;
    products.set(product.key, product);
  }
  return products;
}

/** Attaches each pack to its merkevare; returns how many were kept. */
function attachPacks(file: string, pending: readonly PendingPack[], products: Map<string, ProductEntry>, log: ProblemLog): number {
  const seen = new Set<string>();
  let kept = 0;
  for (const { line, pack, merkevare, reimbursed, marketed } of pending) {
    const product = products.get(merkevare);
    if (!product) { log.add(file, line, `pack ${pack.key} names no LegemiddelMerkevare of the file`); continue; }
    if (seen.has(pack.key)) { log.add(file, line, `Varenr ${pack.key} repeated; the first entry is kept`); continue; }
    seen.add(pack.key);
    product.packs.push(pack);
    const attributes = (product.attributes ??= {});
    if (reimbursed) attributes.reimbursable = true;
    // The product's first marketing date: the earliest of its packs'.
    if (marketed && !(typeof attributes.marketed_on === 'string' && attributes.marketed_on <= marketed)) attributes.marketed_on = marketed;
    kept += 1;
  }
  return kept;
}

/**
 * Reads one FEST document from its blocks; malformed entries are reported with their line and
 * skipped. Products (a few tens of thousands, small) are returned whole; the file never is.
 */
async function readNoFest(file: string, blocks: Iterable<Buffer> | AsyncIterable<Buffer>): Promise<AdapterResult> {
  const log = new ProblemLog();
  const { doc, products: pendingProducts, packs: pendingPacks } = await readEntries(file, blocks, log);
  const products = resolveProducts(file, doc, pendingProducts, log);
  if (products.size === 0) throw new FileRejectedError(file, `no LegemiddelMerkevare read (${doc.read} entries): an empty FEST would delete the source on ingest`);
  const packs = attachPacks(file, pendingPacks, products, log);
  const substances: SubstanceEntry[] = [...new Map([...doc.virkestoffer.values()].map((v) => {
    const s = substanceOf(v);
    return [s.unii, s] as const;
  })).values()];
  const kept = products.size + packs + doc.styrker.size + doc.virkestoffer.size;
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: NO_FEST_SOURCE, substances, products: [...products.values()] },
    problems: log.problems,
    files: [{ file, role: `FEST M30${doc.extractedAt ? ` (HentetDato ${doc.extractedAt})` : ''}`, read: doc.read, kept, skipped: doc.read - kept }],
  };
}

/** Parses one FEST document held in memory. */
export function parseNoFest(file: string, content: Buffer): Promise<AdapterResult> {
  return readNoFest(file, [content]);
}

/** Reads one FEST document from disk in blocks (`drugref ingest` and the sync worker), never holding the file. */
export async function openNoFest(files: InputFile[]): Promise<StreamedAdapterResult> {
  const file = findFile(files, NO_FEST_FILE) ?? (files.length === 1 ? files[0] : undefined);
  if (!file) throw new FileRejectedError(NO_FEST_FILE, `expected exactly one file (${NO_FEST_FILE}), got ${files.length}`);
  return readNoFest(file.name, openInput(file) as AsyncIterable<Buffer>);
}
