/**
 * Reading of Norway's FEST (Forskrivnings- og ekspedisjonsstøtte, Direktoratet for medisinske
 * produkter) M30 XML: the catalogue entries drugref keeps, collected record by record with
 * saxes (xml-records.ts), so the document (hundreds of MB) is never a tree in memory.
 *
 * The document: root `FEST` in the M30 namespace (`http://www.kith.no/xmlstds/eresept/m30/
 * 2014-12-01`), `HentetDato`, then catalogues `Kat<Type>` of entries `Oppf<Type>`, each with
 * its own `Id`, `Tidspunkt`, `Status` (V="A" active) and the entry proper in the prescribing
 * namespace (`.../eresept/forskrivning/2014-12-01`, often redeclared as the default on the
 * inner element). Elements are matched by local name, so a document that binds either
 * namespace to a prefix reads the same. Read: KatLegemiddelMerkevare, KatLegemiddelpakning,
 * KatVirkestoffMedStyrke, KatVirkestoff; products and packs are handed over entry by entry
 * (their substances may come later in the file). Every other catalogue (interactions, exchange groups,
 * reimbursement clauses, trade goods) is skipped.
 *
 * A document need not hold every catalogue: extracts and the FEST web service give one
 * catalogue (only `KatLegemiddelpakning`, only `KatLegemiddelMerkevare`). Which catalogues a
 * document holds (even empty) is noted, so the adapter knows whether it read the whole register.
 */
import { FileRejectedError } from './common.ts';
import type { SaxesParser } from 'saxes';
import { EXCLUDED } from '../row-outcome.ts';
import type { RowTally } from '../row-outcome.ts';
import { childOf, recordScanner as scanRecords } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

/** The catalogues read, by entry element. */
export const FEST_RECORDS = [
  'KatLegemiddelMerkevare/OppfLegemiddelMerkevare',
  'KatLegemiddelpakning/OppfLegemiddelpakning',
  'KatVirkestoffMedStyrke/OppfVirkestoffMedStyrke',
  'KatVirkestoff/OppfVirkestoff',
  'HentetDato',
] as const;

/** One catalogue entry: the inner element, the entry's status and line. */
export interface FestEntry {
  line: number;
  /** `Status/@V` of the Oppf element: `A` is an active entry. */
  status: string;
  element: XmlElement;
}

/** What the document gives besides the product and pack entries handed to the caller as they close. */
export interface FestDocument {
  /** When DMP extracted the file (`HentetDato`), ISO date-time. */
  extractedAt?: string;
  /** VirkestoffMedStyrke and Virkestoff by their own `Id` (small elements, referenced from products). */
  styrker: Map<string, XmlElement>;
  virkestoffer: Map<string, XmlElement>;
  /** The catalogues (`KatLegemiddelpakning` ...) the document holds, even empty ones. */
  catalogues: Set<string>;
}

/**
 * Receives each product and pack entry as it closes, so no entry tree outlives its mapping.
 * `tally` counts the entries of the file: the reader counts the strengths and substances it
 * keeps and every entry it cannot read; products and packs are counted by the caller, which
 * decides their outcome once every file is read.
 */
export interface FestHandlers {
  tally: RowTally;
  merkevare(entry: FestEntry): void;
  pakning(entry: FestEntry): void;
}

/** The M30 message namespace; any date version of it is accepted. */
const M30_NAMESPACE = /^http:\/\/www\.kith\.no\/xmlstds\/eresept\/m30\/\d{4}-\d{2}-\d{2}$/;

function inner(oppf: XmlElement, name: string): XmlElement | undefined {
  return childOf(oppf, name);
}

/** The record path of an element opening under `ancestors` (`Kat…/Oppf…`, or `HentetDato`), or ''. */
function recordPath(name: string, ancestors: readonly string[]): string {
  const path = ancestors.length === 1 ? name : `${ancestors.at(-1)}/${name}`;
  return ancestors.length <= 2 && (FEST_RECORDS as readonly string[]).includes(path) ? path : '';
}

/** Hands each closed record (a small tree) to `onRecord` with its record path; the scan of one document. */
function recordScanner(file: string, onRoot: (attributes: Record<string, string>) => void, onRecord: (path: string, record: XmlElement, line: number) => void,
  onCatalogue: (name: string) => void): SaxesParser {
  let path = '';
  return scanRecords(file, {
    onOpen(name, ancestors, attributes) {
      if (ancestors.length === 1 && name.startsWith('Kat')) onCatalogue(name);
      if (ancestors.length > 0) return;
      if (name !== 'FEST') throw new FileRejectedError(file, 'root element is not <FEST>');
      onRoot(attributes);
    },
    startsRecord(name, ancestors) {
      path = ancestors.length === 0 ? '' : recordPath(name, ancestors);
      return path !== '';
    },
    onRecord(element) {
      onRecord(path, element, element.line);
      path = '';
    },
  });
}

/**
 * Reads a FEST document given as blocks of bytes (the whole file as one block, or blocks read
 * from disk), so only one block and one entry are held at a time. Refuses another root, a root
 * outside the M30 namespace, and XML that is not well-formed.
 */
export async function readFest(file: string, blocks: Iterable<Buffer> | AsyncIterable<Buffer>, handlers: FestHandlers): Promise<FestDocument> {
  const doc: FestDocument = { styrker: new Map(), virkestoffer: new Map(), catalogues: new Set() };
  const { tally } = handlers;
  const entry = (oppf: XmlElement, name: string, line: number): FestEntry | null => {
    const element = inner(oppf, name);
    if (!element) {
      tally.malformedRow(line, `${oppf.name} without <${name}>`);
      return null;
    }
    return { line, status: childOf(oppf, 'Status')?.attributes.V?.trim() ?? '', element };
  };
  const byId = (map: Map<string, XmlElement>, e: FestEntry | null): void => {
    if (!e) return;
    const id = childOf(e.element, 'Id')?.text.trim() ?? '';
    if (id === '') tally.malformedRow(e.line, `<${e.element.name}> without <Id>`);
    else if (map.has(id)) tally.exclude(EXCLUDED.duplicate);
    else {
      map.set(id, e.element);
      tally.keep();
    }
  };
  let rooted = false;
  const parser = recordScanner(file, (attributes) => {
    rooted = true;
    const namespaces = Object.entries(attributes).filter(([k]) => k.startsWith('xmlns')).map(([, v]) => v);
    if (!namespaces.some((ns) => M30_NAMESPACE.test(ns))) throw new FileRejectedError(file, 'FEST root is not in the M30 namespace (http://www.kith.no/xmlstds/eresept/m30/...)');
  }, (path, record, line) => {
    if (path === 'HentetDato') { doc.extractedAt = record.text.trim(); return; }
    if (path.endsWith('OppfLegemiddelMerkevare')) { const e = entry(record, 'LegemiddelMerkevare', line); if (e) handlers.merkevare(e); }
    else if (path.endsWith('OppfLegemiddelpakning')) { const e = entry(record, 'Legemiddelpakning', line); if (e) handlers.pakning(e); }
    else if (path.endsWith('OppfVirkestoffMedStyrke')) byId(doc.styrker, entry(record, 'VirkestoffMedStyrke', line));
    else byId(doc.virkestoffer, entry(record, 'Virkestoff', line));
  }, (name) => doc.catalogues.add(name));
  // FEST is UTF-8; the decoder drops a byte-order mark and carries characters split across blocks.
  const decoder = new TextDecoder('utf-8');
  for await (const block of blocks) parser.write(decoder.decode(block, { stream: true }));
  parser.write(decoder.decode());
  parser.close();
  if (!rooted) throw new FileRejectedError(file, 'no XML root element');
  return doc;
}
