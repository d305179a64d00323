/**
 * Record elements of an XML register read from disk block by block (or from memory, the same
 * way): saxes scans the UTF-8 text as it arrives and each record element is yielded as a small
 * tree (xml-records.ts `XmlElement`) once its block has been scanned. Neither the file nor
 * its decoded text is ever held whole, so an export of hundreds of megabytes (Belgian SAM)
 * reads in flat memory. Elements are named by local name; namespace prefixes are dropped.
 */
import type { SaxesParser } from 'saxes';
import { FileRejectedError, decodeWindows1252 } from './common.ts';
import type { InputFile } from './common.ts';
import { ByteCursor, xmlEncodingOf } from './byte-cursor.ts';
import { openInput } from './line-stream.ts';
import { recordScanner } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

/** Where the records sit: the caller checks the root and says which elements are records. */
export interface FileRecordSpec {
  /** Called once with the root's local name and attributes (namespace declarations included); may throw FileRejectedError. */
  onRoot(name: string, attributes: Record<string, string>): void;
  /** True when the element opening under `ancestors` (local names, root first) is a record. */
  isRecord(name: string, ancestors: readonly string[]): boolean;
  /** Note each record's byte offset (`XmlElement.offset`), to read it again later (xml-reread.ts). */
  offsets?: boolean;
}

/** A parser that pushes each completed record onto `out`. */
function recordParser(file: InputFile, spec: FileRecordSpec, out: XmlElement[], bytes?: ByteCursor): SaxesParser {
  return recordScanner(file.name, {
    bytes,
    onOpen(name, ancestors, attributes) {
      if (ancestors.length === 0) spec.onRoot(name, attributes);
    },
    startsRecord: (name, ancestors) => ancestors.length > 0 && spec.isRecord(name, ancestors),
    onRecord: (element) => out.push(element),
  });
}

/**
 * A block decoder chosen from the first block: Windows-1252 when the XML declaration names a
 * Latin encoding and no UTF-8 byte-order mark says otherwise, else UTF-8. A single-byte
 * encoding decodes block by block; UTF-8 keeps a character split between blocks for the next.
 * With `offsets`, each decoded block also goes to a ByteCursor for the parser.
 */
function blockDecoder(file: string, first: Buffer, offsets: boolean): { decode: (bytes: Buffer | null) => string; bytes?: ByteCursor } {
  const { latin, bom } = xmlEncodingOf(first);
  const bytes = offsets ? new ByteCursor(latin, bom ? 3 : 0) : undefined;
  const decoder = new TextDecoder('utf-8', { ignoreBOM: false });
  const decode = (block: Buffer | null): string => {
    const text = latin ? (block ? decodeWindows1252(block) : '') : block ? decoder.decode(block, { stream: true }) : decoder.decode();
    bytes?.push(text);
    return text;
  };
  return { decode, bytes };
}

/** The records of `file` in document order; a file that is not well-formed XML (UTF-8 or a declared Latin encoding) is rejected. */
export async function* xmlFileRecords(file: InputFile, spec: FileRecordSpec): AsyncGenerator<XmlElement> {
  const ready: XmlElement[] = [];
  let parser: SaxesParser | undefined;
  let decode: ((bytes: Buffer | null) => string) | undefined;
  let empty = true;
  for await (const block of openInput(file)) {
    empty &&= (block as Buffer).length === 0;
    if (!decode) {
      const chosen = blockDecoder(file.name, block as Buffer, spec.offsets ?? false);
      decode = chosen.decode;
      parser = recordParser(file, spec, ready, chosen.bytes);
    }
    parser!.write(decode(block as Buffer));
    yield* ready.splice(0);
  }
  if (decode) parser!.write(decode(null));
  (parser ?? recordParser(file, spec, ready)).close();
  yield* ready.splice(0);
  if (empty) throw new FileRejectedError(file.name, 'empty file: no XML root element');
}
