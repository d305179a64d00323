/**
 * Streaming record reader for the dm+d release XML files. Every dm+d file is a flat table
 * dump: root → (section →) record → field elements holding text, e.g.
 * `ACTUAL_MEDICINAL_PROD_PACKS/AMPPS/AMPP/APPID`. The GTIN file nests one level deeper
 * (`AMPP/GTINDATA/GTIN`), kept as groups. The reader never builds a tree of the file: it
 * feeds saxes decoded chunks and hands each record, as a small flat object, to a callback,
 * so a 100 MB AMPP file costs one record's memory plus what the caller keeps.
 */
import { SaxesParser } from 'saxes';
import { FileRejectedError, decodeWindows1252 } from './common.ts';

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
}

/** Called with the root element's name; returns the depth of record elements (root = 1) or throws to refuse the file. */
export type RootHandler = (root: string) => number;

/** Decoded chunk size: large enough for speed, small enough to keep memory flat. */
const CHUNK_BYTES = 1 << 20;

/** The encoding an XML declaration names, lower case; utf-8 when none is declared. */
function declaredEncoding(content: Buffer): string {
  const head = content.subarray(0, 200).toString('latin1');
  const m = /^(?:\uFEFF|\u00EF\u00BB\u00BF)?\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head);
  return m ? m[1]!.toLowerCase() : 'utf-8';
}

/** Decoder for the file's bytes, chunk by chunk: UTF-8 (BOM dropped) or a single-byte Latin encoding. */
function chunkDecoder(file: string, content: Buffer): (bytes: Buffer, last: boolean) => string {
  const encoding = declaredEncoding(content);
  const bom = content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf;
  if (bom || encoding === 'utf-8' || encoding === 'utf8') {
    const decoder = new TextDecoder('utf-8');
    return (bytes, last) => decoder.decode(bytes, { stream: !last });
  }
  if (['iso-8859-1', 'latin1', 'iso8859-1', 'windows-1252', 'cp1252'].includes(encoding)) {
    // ISO-8859-1 files never use 0x80-0x9F for text, so Windows-1252 decoding serves both.
    return (bytes) => decodeWindows1252(bytes);
  }
  throw new FileRejectedError(file, `unsupported XML encoding "${encoding}"`);
}

interface State {
  depth: number;
  recordDepth: number;
  section: string;
  record: DmdRecord | null;
  field: string;
  group: { tag: string; fields: Record<string, string> } | null;
  subField: string;
  text: string;
}

function openTag(state: State, name: string, line: number, onRoot: RootHandler): void {
  state.depth += 1;
  const { depth, recordDepth } = state;
  if (depth === 1) {
    state.recordDepth = onRoot(name);
    if (state.recordDepth === 2) state.section = name;
  } else if (depth === recordDepth - 1) {
    state.section = name;
  } else if (depth === recordDepth) {
    state.record = { tag: name, section: state.section, line, fields: {}, groups: [] };
  } else if (depth === recordDepth + 1) {
    state.field = name;
    state.group = null;
    state.text = '';
  } else if (depth === recordDepth + 2) {
    state.group ??= { tag: state.field, fields: {} };
    state.subField = name;
    state.text = '';
  }
}

/**
 * A copy of a field's text that does not point into the decoded chunk. V8 keeps substrings of
 * 13+ characters as slices of their parent, so one stored id would otherwise keep its whole
 * 1 MiB chunk alive, and a release's records the whole decoded file.
 */
function detached(text: string): string {
  const trimmed = text.trim();
  return trimmed.length < 13 ? trimmed : Buffer.from(trimmed, 'utf-8').toString('utf-8');
}

function closeTag(state: State, onRecord: (record: DmdRecord) => void): void {
  const { depth, recordDepth, record } = state;
  state.depth -= 1;
  if (!record) return;
  if (depth === recordDepth + 2 && state.group) {
    state.group.fields[state.subField] = detached(state.text);
  } else if (depth === recordDepth + 1) {
    if (state.group) record.groups.push(state.group);
    else record.fields[state.field] = detached(state.text);
    state.group = null;
  } else if (depth === recordDepth) {
    state.record = null;
    onRecord(record);
  }
}

/**
 * Streams `content` through saxes and calls `onRecord` for every record element. A file that
 * is not well-formed XML, or whose root `onRoot` refuses, throws FileRejectedError.
 */
export function readDmdRecords(file: string, content: Buffer, onRoot: RootHandler, onRecord: (record: DmdRecord) => void): void {
  const decode = chunkDecoder(file, content);
  const parser = new SaxesParser({ position: true });
  const state: State = { depth: 0, recordDepth: 3, section: '', record: null, field: '', group: null, subField: '', text: '' };
  let sawRoot = false;
  parser.on('error', (error) => {
    throw new FileRejectedError(file, `not well-formed XML: ${error.message}`);
  });
  parser.on('opentag', (node) => {
    sawRoot = true;
    openTag(state, node.name, parser.line, onRoot);
  });
  // saxes reports a self-closing element (`<APPLIANCE_PACK_INFO/>`) as open then close.
  parser.on('closetag', () => closeTag(state, onRecord));
  const append = (text: string): void => {
    if (state.record && state.depth > state.recordDepth) state.text += text;
  };
  parser.on('text', append);
  parser.on('cdata', append);
  for (let offset = 0; offset < content.length; offset += CHUNK_BYTES) {
    const end = Math.min(offset + CHUNK_BYTES, content.length);
    parser.write(decode(content.subarray(offset, end), end === content.length));
  }
  parser.close();
  if (!sawRoot) throw new FileRejectedError(file, 'no XML root element');
}
