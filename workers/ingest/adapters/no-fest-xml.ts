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
 */
import { FileRejectedError } from './common.ts';
import { childOf, streamRecords } from './xml-records.ts';
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
  /** Entries of the catalogues read, for the file report. */
  read: number;
}

/** Receives each product and pack entry as it closes, so no entry tree outlives its mapping. */
export interface FestHandlers {
  merkevare(entry: FestEntry): void;
  pakning(entry: FestEntry): void;
  malformed(line: number, message: string): void;
}

/** The M30 message namespace; any date version of it is accepted. */
const M30_NAMESPACE = /^http:\/\/www\.kith\.no\/xmlstds\/eresept\/m30\/\d{4}-\d{2}-\d{2}$/;

function inner(oppf: XmlElement, name: string): XmlElement | undefined {
  return childOf(oppf, name);
}

/** Reads the FEST document; refuses another root or a root outside the M30 namespace. */
export function readFest(file: string, content: Buffer, handlers: FestHandlers): FestDocument {
  const doc: FestDocument = { styrker: new Map(), virkestoffer: new Map(), read: 0 };
  const entry = (oppf: XmlElement, name: string, line: number): FestEntry | null => {
    const element = inner(oppf, name);
    if (!element) {
      handlers.malformed(line, `${oppf.name} without <${name}>`);
      return null;
    }
    return { line, status: childOf(oppf, 'Status')?.attributes.V?.trim() ?? '', element };
  };
  const byId = (map: Map<string, XmlElement>, e: FestEntry | null): void => {
    const id = e ? childOf(e.element, 'Id')?.text.trim() ?? '' : '';
    if (e && id === '') handlers.malformed(e.line, `<${e.element.name}> without <Id>`);
    else if (e) map.set(id, e.element);
  };
  streamRecords(file, content, {
    roots: ['FEST'],
    records: FEST_RECORDS,
    onRoot(attributes) {
      const namespaces = Object.entries(attributes).filter(([k]) => k.startsWith('xmlns')).map(([, v]) => v);
      if (!namespaces.some((ns) => M30_NAMESPACE.test(ns))) throw new FileRejectedError(file, 'FEST root is not in the M30 namespace (http://www.kith.no/xmlstds/eresept/m30/...)');
    },
    onRecord(path, record, line) {
      if (path === 'HentetDato') { doc.extractedAt = record.text.trim(); return; }
      doc.read += 1;
      if (path.endsWith('OppfLegemiddelMerkevare')) { const e = entry(record, 'LegemiddelMerkevare', line); if (e) handlers.merkevare(e); }
      else if (path.endsWith('OppfLegemiddelpakning')) { const e = entry(record, 'Legemiddelpakning', line); if (e) handlers.pakning(e); }
      else if (path.endsWith('OppfVirkestoffMedStyrke')) byId(doc.styrker, entry(record, 'VirkestoffMedStyrke', line));
      else byId(doc.virkestoffer, entry(record, 'Virkestoff', line));
    },
  });
  return doc;
}
