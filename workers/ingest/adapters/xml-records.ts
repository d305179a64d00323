/**
 * Streaming reader for record-oriented XML registers (SL preparations, Artikelstamm items,
 * Refdata articles, SPL products): the bytes are decoded in chunks in the encoding the XML
 * declaration names and scanned once with saxes; each record element is handed over as a
 * small tree as soon as it closes, with the line of its start tag. Memory holds one record,
 * never a tree of the whole document, and every problem can name its line.
 */
import { SaxesParser } from 'saxes';
import { FileRejectedError, decodeWindows1252 } from './common.ts';
import { ByteCursor, xmlEncodingOf } from './byte-cursor.ts';

/** An element of a record: local name (namespace prefix dropped), attributes, children, text and start line. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
  line: number;
  /** Byte offset of a record in its file (just after the tag before it), when its scanner was given a ByteCursor: xml-reread.ts reads it again from there. */
  offset?: number;
}

/** What the caller decides for each element that opens. */
export interface XmlRecordHandlers {
  /** Called for every start tag with its local name, its open ancestors and attributes; may throw FileRejectedError. */
  onOpen?(name: string, ancestors: readonly string[], attributes: Record<string, string>): void;
  /** True when the element opening here is a record (checked only outside records). */
  isRecord(name: string, ancestors: readonly string[]): boolean;
  onRecord(record: XmlElement, line: number): void;
  /** Note each record's byte offset (`XmlElement.offset`), to read it again later (xml-reread.ts). */
  offsets?: boolean;
}

/** Decoded chunk size: large enough for speed, small enough to keep memory flat. */
const CHUNK_BYTES = 1 << 20;

/** Single-byte encodings the older register exports declare; Windows-1252 decoding serves them all. */
const LATIN = /^(iso-?8859-1|latin-?1|windows-1252|cp1252)$/;

/** A chunk decoder for the file: UTF-8 (a byte-order mark always wins) unless the declaration names a Latin encoding. */
function chunkDecoder(file: string, content: Buffer): (bytes: Buffer, last: boolean) => string {
  const bom = content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf;
  const declared = /^[^>]*\bencoding\s*=\s*["']([\w.-]+)["']/.exec(content.subarray(0, 200).toString('latin1'))?.[1]?.toLowerCase() ?? 'utf-8';
  if (!bom && LATIN.test(declared)) return (bytes) => decodeWindows1252(bytes);
  if (!bom && declared !== 'utf-8' && declared !== 'utf8') throw new FileRejectedError(file, `unsupported XML encoding "${declared}"`);
  const decoder = new TextDecoder('utf-8');
  return (bytes, last) => decoder.decode(bytes, { stream: !last });
}

/**
 * A copy of an element's text or attribute value that does not point into the decoded chunk. V8 keeps substrings
 * of 13+ characters as slices of their parent, so one stored id would otherwise keep its whole
 * 1 MiB chunk alive, and the records an adapter keeps the whole decoded file.
 */
function detached(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, 'utf-8').toString('utf-8');
}

/** Local part of a qualified name: `soap:Body` → `Body`. */
function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return colon < 0 ? qualified : qualified.slice(colon + 1);
}

/** What a record scanner asks its caller as elements open and records close. */
export interface RecordScan {
  /** Every start tag: local name, open ancestors (root first) and attributes; may throw FileRejectedError. */
  onOpen?(name: string, ancestors: readonly string[], attributes: Record<string, string>): void;
  /** True when the element opening here, outside any record, starts a record. */
  startsRecord(name: string, ancestors: readonly string[]): boolean;
  /** A record element, closed, as a small tree. */
  onRecord(element: XmlElement): void;
  /** Given (fed each decoded block before the parser), every record gets its byte offset. */
  bytes?: ByteCursor;
}

/**
 * A saxes parser that builds each record element as a small tree (local names, namespace
 * declarations kept as written, texts detached from the decoded block) and hands it over as
 * it closes; XML that is not well-formed rejects the file naming the line. Every reader of a
 * record-oriented register (in memory, from disk, FEST) scans with it.
 */
export function recordScanner(file: string, scan: RecordScan): SaxesParser {
  const parser = new SaxesParser({ position: true });
  const ancestors: string[] = [];
  const stack: XmlElement[] = [];
  // Byte offsets (with `scan.bytes`): the end of the tag before the current one, of the current one, and where the open record starts.
  let before = 0;
  let after = 0;
  let start = 0;
  parser.on('error', (error) => {
    throw new FileRejectedError(file, `not well-formed XML at line ${parser.line}: ${error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '')}`);
  });
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    const attributes: Record<string, string> = {};
    // Attribute values are detached too: a kept code or display name would otherwise keep its block.
    for (const [key, value] of Object.entries(tag.attributes)) attributes[key.startsWith('xmlns') ? key : localName(key)] = detached(String(value));
    if (scan.bytes) [before, after] = [after, scan.bytes.byteAt(parser.position)];
    scan.onOpen?.(name, ancestors, attributes);
    if (stack.length > 0 || scan.startsRecord(name, ancestors)) {
      // A record's offset is just after the tag before it, so only whitespace or comments come before its start tag.
      if (stack.length === 0) start = before;
      const element: XmlElement = { name, attributes, children: [], text: '', line: parser.line };
      stack.at(-1)?.children.push(element);
      stack.push(element);
    }
    ancestors.push(name);
  });
  const addText = (text: string): void => {
    const current = stack.at(-1);
    if (current) current.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    ancestors.pop();
    const element = stack.pop();
    if (!element) {
      if (scan.bytes) after = scan.bytes.byteAt(parser.position);
      return;
    }
    element.text = detached(element.text);
    if (stack.length > 0) return;
    if (scan.bytes) {
      after = scan.bytes.byteAt(parser.position);
      element.offset = start;
    }
    scan.onRecord(element);
  });
  return parser;
}

/** First child element named `name`, or undefined. */
export function childOf(element: XmlElement | undefined, name: string): XmlElement | undefined {
  return element?.children.find((c) => c.name === name);
}

/** Every child element named `name`. */
export function childrenOf(element: XmlElement | undefined, name: string): XmlElement[] {
  return element ? element.children.filter((c) => c.name === name) : [];
}

/** Trimmed text of the first child named `name` ('' when absent). */
export function textOf(element: XmlElement | undefined, name: string): string {
  return childOf(element, name)?.text.trim() ?? '';
}

/** Trimmed value of attribute `name` ('' when absent). */
export function attrOf(element: XmlElement | undefined, name: string): string {
  return element?.attributes[name]?.trim() ?? '';
}

/**
 * Scans `content` and calls the handlers; a document that is not well-formed is rejected as a
 * whole (FileRejectedError naming the line). Returns the local name of the root element.
 */
export function streamXmlRecords(file: string, content: Buffer, handlers: XmlRecordHandlers): string {
  let root = '';
  const decode = chunkDecoder(file, content);
  const { latin, bom } = xmlEncodingOf(content);
  const bytes = handlers.offsets ? new ByteCursor(latin, bom ? 3 : 0) : undefined;
  const parser = recordScanner(file, {
    bytes,
    onOpen(name, ancestors, attributes) {
      if (root === '') root = name;
      handlers.onOpen?.(name, ancestors, attributes);
    },
    startsRecord: (name, ancestors) => handlers.isRecord(name, ancestors),
    onRecord: (element) => handlers.onRecord(element, element.line),
  });
  for (let offset = 0; offset < content.length; offset += CHUNK_BYTES) {
    const end = Math.min(offset + CHUNK_BYTES, content.length);
    const text = decode(content.subarray(offset, end), end === content.length);
    bytes?.push(text);
    parser.write(text);
  }
  parser.close();
  if (root === '') throw new FileRejectedError(file, 'no XML root element');
  return root;
}

/** Where record elements sit in a document with a known root, and what to do with each. */
export interface RecordSpec {
  /** Accepted names of the root element; any other root rejects the file. */
  roots: readonly string[];
  /** Record elements as `parent/name` (`ITEMS/ITEM`), or `name` for children of the root. */
  records: readonly string[];
  /** Called with the root's attributes (namespace declarations included) before any record. */
  onRoot?(attributes: Record<string, string>): void;
  onRecord(path: string, record: XmlElement, line: number): void;
}

/** The record path of an element opening under `ancestors`, or null when it is no record. */
function recordPath(name: string, ancestors: readonly string[], spec: RecordSpec): string | null {
  if (ancestors.length === 1 && spec.records.includes(name)) return name;
  const qualified = `${ancestors.at(-1)}/${name}`;
  return ancestors.length > 1 && spec.records.includes(qualified) ? qualified : null;
}

/** Streams the records `spec` names, checking the root element first. */
export function streamRecords(file: string, content: Buffer, spec: RecordSpec): void {
  let path = '';
  streamXmlRecords(file, content, {
    onOpen(name, ancestors, attributes) {
      if (ancestors.length > 0) return;
      if (!spec.roots.includes(name)) throw new FileRejectedError(file, `root element is not <${spec.roots.join('> or <')}>`);
      spec.onRoot?.(attributes);
    },
    isRecord(name, ancestors) {
      path = recordPath(name, ancestors, spec) ?? '';
      return path !== '';
    },
    onRecord: (record, line) => spec.onRecord(path, record, line),
  });
}
