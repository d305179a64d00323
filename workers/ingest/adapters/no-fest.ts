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
import type { AdapterResult, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { FileRejectedError, ProblemLog } from './common.ts';
import { FestEntryError, isReimbursed, marketedOn, merkevareOf, packOf, productOf, substanceOf } from './no-fest-rows.ts';
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

/** Products by FEST id; a repeated id keeps the first entry. */
function readProducts(file: string, doc: FestDocument, log: ProblemLog): Map<string, ProductEntry> {
  const products = new Map<string, ProductEntry>();
  for (const entry of doc.merkevarer) {
    const product = attempt(log, file, entry.line, () => productOf(entry, doc.styrker, doc.virkestoffer));
    if (!product) continue;
    if (products.has(product.key)) log.add(file, entry.line, `LegemiddelMerkevare ${product.key} repeated; the first entry is kept`);
    else products.set(product.key, product);
  }
  return products;
}

/** Attaches each pack to its merkevare; returns how many were kept. */
function attachPacks(file: string, doc: FestDocument, products: Map<string, ProductEntry>, log: ProblemLog): number {
  const seen = new Set<string>();
  let kept = 0;
  for (const entry of doc.pakninger) {
    const pack = attempt(log, file, entry.line, () => packOf(entry));
    if (!pack) continue;
    const product = products.get(merkevareOf(entry.element) ?? '');
    if (!product) { log.add(file, entry.line, `pack ${pack.key} names no LegemiddelMerkevare of the file`); continue; }
    if (seen.has(pack.key)) { log.add(file, entry.line, `Varenr ${pack.key} repeated; the first entry is kept`); continue; }
    seen.add(pack.key);
    product.packs.push(pack);
    const attributes = (product.attributes ??= {});
    if (isReimbursed(entry)) attributes.reimbursable = true;
    const marketed = marketedOn(entry);
    if (marketed && !(typeof attributes.marketed_on === 'string' && attributes.marketed_on <= marketed)) attributes.marketed_on = marketed;
    kept += 1;
  }
  return kept;
}

/** Parses one FEST document; malformed entries are reported with their line and skipped. */
export function parseNoFest(file: string, content: Buffer): AdapterResult {
  const log = new ProblemLog();
  const doc = readFest(file, content, (line, message) => log.add(file, line, message));
  const products = readProducts(file, doc, log);
  if (products.size === 0) throw new FileRejectedError(file, `no LegemiddelMerkevare read (${doc.read} entries): an empty FEST would delete the source on ingest`);
  const packs = attachPacks(file, doc, products, log);
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
