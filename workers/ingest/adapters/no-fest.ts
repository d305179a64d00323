/**
 * Norwegian FEST (Direktoratet for medisinske produkter): the M30 XML `fest251.xml` that DMP
 * publishes in `fest251.zip`, and documents holding only some of its catalogues (extracts, the
 * FEST web service). Products are LegemiddelMerkevare entries, packs Legemiddelpakning entries
 * attached to the merkevare their Pakningsinfo names; strengths and substances from
 * VirkestoffMedStyrke and Virkestoff. Reading in no-fest-xml.ts, mapping in no-fest-rows.ts,
 * the documents of one ingest combined (and laid over the catalogue when they are not the
 * whole register) in no-fest-combine.ts.
 *
 * Files are FEST by their content (root `FEST` in the M30 namespace), whatever their names;
 * several are read together; a file that is not FEST beside them is named unused. Every entry
 * of a catalogue read is kept, malformed (line and why) or excluded (a repeated id, a pack
 * whose merkevare is nowhere to be found).
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, SourceInfo } from '../snapshot.ts';
import { RowTally } from '../row-outcome.ts';
import type { FileReport } from '../row-outcome.ts';
import type { Queryable } from '../../../platform/db.ts';
import { FileRejectedError } from './common.ts';
import type { InputFile } from './common.ts';
import { openInput } from './line-stream.ts';
import { assignRoles, rootElement } from './file-roles.ts';
import type { RoleRule } from './file-roles.ts';
import type { StreamedAdapterResult } from '../input.ts';
import { FestEntryError, isReimbursed, marketedOn, merkevareOf, packOf, productOf } from './no-fest-rows.ts';
import { readFest } from './no-fest-xml.ts';
import { WHOLE_REGISTER, combineFest, isWholeRegister } from './no-fest-combine.ts';
import type { FestEntries } from './no-fest-combine.ts';
import { heldFest, nothingHeld } from './no-fest-held.ts';

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

/** A FEST document: root `FEST`, sure when the M30 namespace is in its head too. */
const FEST_RULE: RoleRule<'fest'> = {
  role: 'fest',
  recognise: (text) => (rootElement(text) !== 'FEST' ? 0 : /kith\.no\/xmlstds\/eresept\/m30\//.test(text) ? 2 : 1),
  names: [NO_FEST_FILE],
  many: true,
};

/** One document read: its tally, the catalogues it holds and when DMP extracted it. */
interface DocumentRead { tally: RowTally; catalogues: Set<string>; extractedAt?: string }

/** Maps a product or pack entry, a FestEntryError counting it malformed. */
function attempt<T>(tally: RowTally, line: number, map: () => T): T | null {
  try {
    return map();
  } catch (err) {
    if (!(err instanceof FestEntryError)) throw err;
    tally.malformedRow(line, err.message);
    return null;
  }
}

/** Reads one document into `into`, mapping each entry as it closes (no entry tree is kept). */
async function readDocument(file: string, blocks: Iterable<Buffer> | AsyncIterable<Buffer>, into: FestEntries): Promise<DocumentRead> {
  const tally = new RowTally(file);
  const doc = await readFest(file, blocks, {
    tally,
    merkevare(entry) {
      const mapped = attempt(tally, entry.line, () => productOf(entry));
      if (mapped) into.products.push({ tally, line: entry.line, ...mapped });
    },
    pakning(entry) {
      const pack = attempt(tally, entry.line, () => packOf(entry));
      const marketed = marketedOn(entry);
      if (pack) into.packs.push({ tally, line: entry.line, pack, merkevare: merkevareOf(entry.element) ?? '', reimbursed: isReimbursed(entry), ...(marketed ? { marketed } : {}) });
    },
  });
  // Strengths and substances of every document serve the products of every other.
  for (const [id, e] of doc.styrker) if (!into.styrker.has(id)) into.styrker.set(id, e);
  for (const [id, e] of doc.virkestoffer) if (!into.virkestoffer.has(id)) into.virkestoffer.set(id, e);
  for (const c of doc.catalogues) into.catalogues.add(c);
  return { tally, catalogues: doc.catalogues, ...(doc.extractedAt ? { extractedAt: doc.extractedAt } : {}) };
}

/** `FEST M30 (HentetDato …)`, naming the catalogues read when the document holds only some. */
function roleOf(doc: DocumentRead): string {
  const held = WHOLE_REGISTER.filter((c) => doc.catalogues.has(c));
  const partial = held.length < WHOLE_REGISTER.length ? `, partial: ${held.join(' + ') || 'no catalogue drugref reads'}` : '';
  return `FEST M30${partial}${doc.extractedAt ? ` (HentetDato ${doc.extractedAt})` : ''}`;
}

/** What `readNoFest` is given: each document's name and bytes (all at once, or blocks from disk). */
interface FestSource { name: string; blocks: () => Iterable<Buffer> | AsyncIterable<Buffer> }

/**
 * Reads the FEST documents of one ingest together. The whole register stands alone; documents
 * that are not the whole register are laid over what `catalogue` holds of FEST (none given:
 * over nothing), so they update what they hold and delete nothing else.
 */
async function readNoFest(sources: readonly FestSource[], unused: FileReport[], catalogue?: Queryable): Promise<AdapterResult> {
  const entries: FestEntries = { styrker: new Map(), virkestoffer: new Map(), catalogues: new Set(), products: [], packs: [] };
  const docs: DocumentRead[] = [];
  for (const source of sources) docs.push(await readDocument(source.name, source.blocks(), entries));
  const whole = isWholeRegister(entries.catalogues);
  const held = whole ? null : catalogue ? await heldFest(catalogue) : nothingHeld();
  const { products, substances } = combineFest(entries, held);
  const first = sources[0]!.name;
  if (whole && products.length === 0) {
    throw new FileRejectedError(first, `no LegemiddelMerkevare read (${entries.products.length} entries): an empty FEST would delete the source on ingest`);
  }
  if (products.length === 0) {
    throw new FileRejectedError(first, `holds only ${[...entries.catalogues].join(', ') || 'no catalogue'}, and the catalogue holds no FEST product for its entries: give the whole fest251.xml first`);
  }
  const problems = docs.flatMap((d) => d.tally.problems);
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: NO_FEST_SOURCE, substances, products },
    problems,
    files: [...docs.map((d) => d.tally.report(roleOf(d))), ...unused],
  };
}

/** The FEST documents among `files` (by content), the rest named unused; none is a refusal. */
async function festFiles(files: InputFile[]): Promise<{ fest: InputFile[]; unused: FileReport[] }> {
  const { byRole, unused } = await assignRoles(files, [FEST_RULE]);
  const fest = byRole.get('fest') ?? [];
  if (fest.length === 0) {
    const given = files.map((f) => f.name).join(', ') || 'none';
    throw new FileRejectedError(files[0]?.name ?? NO_FEST_FILE, `no FEST M30 document (root <FEST>) among the files given: ${given}`);
  }
  return { fest, unused };
}

/** Parses FEST documents held in memory; `catalogue` is what a partial document is laid over. */
export async function parseNoFestFiles(files: InputFile[], catalogue?: Queryable): Promise<AdapterResult> {
  const { fest, unused } = await festFiles(files);
  return readNoFest(fest.map((f) => ({ name: f.name, blocks: () => [f.content] })), unused, catalogue);
}

/** Parses one FEST document held in memory. */
export function parseNoFest(file: string, content: Buffer, catalogue?: Queryable): Promise<AdapterResult> {
  return parseNoFestFiles([{ name: file, content }], catalogue);
}

/** Reads FEST documents from disk in blocks (`drugref ingest` and the sync worker), never holding a file. */
export async function openNoFest(files: InputFile[], catalogue?: Queryable): Promise<StreamedAdapterResult> {
  const { fest, unused } = await festFiles(files);
  return readNoFest(fest.map((f) => ({ name: f.name, blocks: () => openInput(f) as AsyncIterable<Buffer> })), unused, catalogue);
}
