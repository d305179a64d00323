/**
 * Streaming XML reader for register exports that repeat one record element many times
 * (SL `Preparation`, Artikelstamm `ITEM`): the file is decoded and parsed in chunks with
 * saxes, and only the record being read is held as a small tree, so a 100 MB export never
 * becomes a 100 MB string plus a tree. Each record reaches the callback with the line of
 * its start tag, for problem reports.
 */
import { SaxesParser } from 'saxes';
import { FileRejectedError } from './common.ts';

/**
 * A record element as a small tree: child elements by name (always arrays, in document
 * order), attributes as `@_name`, character data as `#text`, the start-tag line as `#line`.
 */
export type Node = { [name: string]: unknown };

/** Where record elements sit and what to do with each. */
export interface RecordSpec {
  /** Accepted names of the root element; any other root rejects the file. */
  roots: readonly string[];
  /**
   * Record elements as `parent/name` (`ITEMS/ITEM`) or `name` for children of the root.
   * Elements outside records are not kept.
   */
  records: readonly string[];
  /** Called with the root's attributes before any record. */
  onRoot?(attributes: Record<string, string>): void;
  onRecord(path: string, node: Node, line: number): void;
}

const CHUNK = 1 << 20;

/** Encoding named in the XML declaration, for the two the Swiss registers use. */
function declaredEncoding(content: Buffer): 'utf-8' | 'windows-1252' {
  const head = content.subarray(0, 200).toString('latin1');
  const m = /encoding\s*=\s*["']([^"']+)["']/i.exec(head);
  return m && /^(iso-8859-1|latin-?1|windows-1252|cp1252)$/i.test(m[1]!) ? 'windows-1252' : 'utf-8';
}

interface State {
  depth: number;
  rootSeen: boolean;
  /** Open record elements, innermost last; the first is the record itself. */
  stack: Node[];
  path: string;
  names: string[];
}

function recordPath(names: string[], spec: RecordSpec): string | null {
  const name = names[names.length - 1]!;
  const parent = names[names.length - 2];
  if (names.length === 2 && spec.records.includes(name)) return name;
  const qualified = `${parent}/${name}`;
  return spec.records.includes(qualified) ? qualified : null;
}

function attributesOf(attributes: Record<string, string>, node: Node): void {
  for (const [name, value] of Object.entries(attributes)) {
    // Namespace declarations are not data.
    if (name !== 'xmlns' && !name.startsWith('xmlns:')) node[`@_${name}`] = value;
  }
}

function appendChild(parent: Node, name: string, node: Node): void {
  const list = parent[name];
  if (Array.isArray(list)) list.push(node);
  else parent[name] = [node];
}

/**
 * Parses `content` and calls `spec.onRecord` for every record element. Throws
 * FileRejectedError for XML that is not well-formed (with its line) or a wrong root element;
 * errors thrown by the callbacks propagate unchanged.
 */
export function streamRecords(file: string, content: Buffer, spec: RecordSpec): void {
  const parser = new SaxesParser({ position: true });
  const state: State = { depth: 0, rootSeen: false, stack: [], path: '', names: [] };
  parser.on('error', (error) => {
    throw new FileRejectedError(file, `not well-formed XML at line ${parser.line}: ${error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '')}`);
  });
  parser.on('opentag', (tag) => {
    state.names.push(tag.name);
    if (state.names.length === 1) {
      if (!spec.roots.includes(tag.name)) throw new FileRejectedError(file, `root element is not <${spec.roots.join('> or <')}>`);
      state.rootSeen = true;
      spec.onRoot?.(tag.attributes as Record<string, string>);
      return;
    }
    if (state.stack.length === 0) {
      const path = recordPath(state.names, spec);
      if (!path) return;
      state.path = path;
    }
    const node: Node = { '#line': parser.line };
    attributesOf(tag.attributes as Record<string, string>, node);
    state.stack.push(node);
  });
  const onText = (text: string): void => {
    const node = state.stack[state.stack.length - 1];
    if (node) node['#text'] = typeof node['#text'] === 'string' ? node['#text'] + text : text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    state.names.pop();
    if (state.stack.length === 0) return;
    const node = state.stack.pop()!;
    const parent = state.stack[state.stack.length - 1];
    if (parent) appendChild(parent, tag.name, node);
    else spec.onRecord(state.path, node, node['#line'] as number);
  });
  const decoder = new TextDecoder(declaredEncoding(content));
  for (let offset = 0; offset < content.length; offset += CHUNK) {
    parser.write(decoder.decode(content.subarray(offset, offset + CHUNK), { stream: true }));
  }
  parser.write(decoder.decode());
  parser.close();
  if (!state.rootSeen) throw new FileRejectedError(file, 'no root element');
}

/** The first child element `name`, or undefined. */
export function child(node: Node | undefined, name: string): Node | undefined {
  const value = node?.[name];
  return Array.isArray(value) ? (value[0] as Node | undefined) : undefined;
}

/** Every child element `name`, empty when absent. */
export function children(node: Node | undefined, name: string): Node[] {
  const value = node?.[name];
  return Array.isArray(value) ? (value as Node[]) : [];
}

/** Trimmed text of child element or attribute (`@_name`) `name`; '' when absent or empty. */
export function text(node: Node | undefined, name: string): string {
  if (name.startsWith('@_')) {
    const value = node?.[name];
    return typeof value === 'string' ? value.trim() : '';
  }
  const value = child(node, name)?.['#text'];
  return typeof value === 'string' ? value.trim() : '';
}
