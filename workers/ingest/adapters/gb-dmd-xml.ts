/**
 * Streaming record reader for the dm+d release XML files. Every dm+d file is a flat table
 * dump: root → (section →) record → field elements holding text, e.g.
 * `ACTUAL_MEDICINAL_PROD_PACKS/AMPPS/AMPP/APPID`. The GTIN file nests one level deeper
 * (`AMPP/GTINDATA/GTIN`), kept as groups. The reader never builds a tree of the file: it
 * streams it with the shared record reader and hands each record, as a small flat object, to a callback,
 * so a 100 MB AMPP file costs one record's memory plus what the caller keeps.
 */
import type { InputFile } from './common.ts';
import { xmlFileRecords } from './xml-file-records.ts';
import { streamXmlRecords } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

/** One record element: its tag, the section it sits in, its line and its field texts. */
export interface DmdRecord {
  tag: string;
  /** Parent element of the record (`AMPPS`, `MEDICINAL_PRODUCT_PRICE`, `SUPPLIER` …); the root for VTM/ingredient files. */
  section: string;
  /** 1-based line of the record's start tag. */
  line: number;
  /** Trimmed text of each simple child element; an empty element gives ''. */
  fields: Record<string, string>;
  /** Child elements that have children of their own (GTIN file: GTINDATA). */
  groups: Array<{ tag: string; fields: Record<string, string> }>;
  /** Byte offset of the record in its file (byte-cursor.ts), to read it again. */
  offset: number;
}

/** Called with the root element's name; returns the depth of record elements (root = 1) or throws to refuse the file. */
export type RootHandler = (root: string) => number;

function fieldsOf(elements: readonly XmlElement[]): Record<string, string> {
  return Object.fromEntries(elements.map((e) => [e.name, e.text.trim()]));
}

/** The record of an element (also of one read again from its offset: xml-reread.ts). */
export function toRecord(element: XmlElement, section: string): DmdRecord {
  const fields = fieldsOf(element.children.filter((c) => c.children.length === 0));
  const groups = element.children.filter((c) => c.children.length > 0).map((c) => ({ tag: c.name, fields: fieldsOf(c.children) }));
  return { tag: element.name, section, line: element.line, fields, groups, offset: element.offset ?? -1 };
}

/**
 * Streams `content` and calls `onRecord` for every record element, at the depth `onRoot`
 * gives for the file's root. A file that is not well-formed XML, or whose root `onRoot`
 * refuses, throws FileRejectedError.
 */
export function readDmdRecords(file: string, content: Buffer, onRoot: RootHandler, onRecord: (record: DmdRecord) => void): void {
  let depth = 0;
  let section = '';
  streamXmlRecords(file, content, {
    offsets: true,
    onOpen(name, ancestors) {
      if (ancestors.length === 0) depth = onRoot(name);
    },
    isRecord(_name, ancestors) {
      if (ancestors.length + 1 !== depth) return false;
      section = ancestors.at(-1)!;
      return true;
    },
    onRecord: (record) => onRecord(toRecord(record, section)),
  });
}

/**
 * The records of `file` read from disk in blocks (or from memory the same way), exactly as
 * `readDmdRecords` hands them over: same tags, sections, lines and fields. `onRoot` is
 * called before the first record.
 */
export async function* streamDmdRecords(file: InputFile, onRoot: RootHandler): AsyncGenerator<DmdRecord> {
  let depth = 0;
  // Records of one block are yielded after it is scanned, so each one's section is queued as it opens.
  const sections: string[] = [];
  const records = xmlFileRecords(file, {
    offsets: true,
    onRoot(name) { depth = onRoot(name); },
    isRecord(_name, ancestors) {
      if (ancestors.length + 1 !== depth) return false;
      sections.push(ancestors.at(-1)!);
      return true;
    },
  });
  for await (const element of records) yield toRecord(element, sections.shift()!);
}
