/**
 * Streaming reader for record-oriented XML registers (Refdata articles and the like):
 * the document is scanned once with saxes and each record element is handed over as a small
 * tree as soon as it closes, with the line of its start tag. Memory stays bounded by one
 * record, not by the whole document tree, and every problem can name its line.
 */
import { SaxesParser } from 'saxes';
import { FileRejectedError, decodeText } from './common.ts';

/** An element of a record: local name (namespace prefix dropped), attributes, children and text. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** What the caller decides for each element that opens. */
export interface XmlRecordHandlers {
  /** Called for every start tag with its local name, its open ancestors and attributes; may throw FileRejectedError. */
  onOpen?(name: string, ancestors: readonly string[], attributes: Record<string, string>): void;
  /** True when the element opening here is a record (checked only outside records). */
  isRecord(name: string, ancestors: readonly string[]): boolean;
  onRecord(record: XmlElement, line: number): void;
}

/**
 * Text of an XML file: UTF-8 (a byte-order mark always wins) unless the XML declaration names
 * ISO-8859-1 or Windows-1252, which older register exports use.
 */
export function decodeXml(content: Buffer): string {
  const declared = /^[^>]*\bencoding=["']([\w.-]+)["']/.exec(content.subarray(0, 200).toString('latin1'))?.[1]?.toLowerCase() ?? '';
  return decodeText(content, /^(iso-8859-1|iso8859-1|latin-?1|windows-1252|cp1252)$/.test(declared) ? 'windows-1252' : 'utf-8');
}

/** Local part of a qualified name: `soap:Body` → `Body`. */
export function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return colon < 0 ? qualified : qualified.slice(colon + 1);
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

/**
 * Scans `xml` and calls the handlers; a document that is not well-formed is rejected as a
 * whole (FileRejectedError naming the line). Returns the local name of the root element.
 */
export function streamXmlRecords(file: string, xml: string, handlers: XmlRecordHandlers): string {
  const parser = new SaxesParser({ position: true });
  const ancestors: string[] = [];
  const stack: XmlElement[] = [];
  let root = '';
  let recordLine = 0;
  parser.on('error', (error) => {
    throw new FileRejectedError(file, `not well-formed XML at line ${parser.line}: ${error.message.replace(/^[^:]*:\d+:\d+: /, '')}`);
  });
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    if (root === '') root = name;
    const attributes: Record<string, string> = {};
    for (const [key, value] of Object.entries(tag.attributes)) attributes[localName(key)] = String(value);
    handlers.onOpen?.(name, ancestors, attributes);
    if (stack.length > 0 || handlers.isRecord(name, ancestors)) {
      if (stack.length === 0) recordLine = parser.line;
      const element: XmlElement = { name, attributes, children: [], text: '' };
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
    if (element && stack.length === 0) handlers.onRecord(element, recordLine);
  });
  parser.write(xml).close();
  if (root === '') throw new FileRejectedError(file, 'no XML root element');
  return root;
}
