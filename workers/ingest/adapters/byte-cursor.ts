/**
 * Byte offsets of the records an XML scanner hands over (xml-records.ts `recordScanner`):
 * saxes reports positions as indexes into the decoded text, and `ByteCursor` turns them into
 * offsets in the file as the blocks are decoded. A record's offset is what a streamed adapter
 * keeps between its passes to read that record again (xml-reread.ts `SpanReader`).
 */

/** Single-byte encodings older exports declare (the dm+d lookup file: ISO-8859-1); Windows-1252 decoding serves them all. */
const LATIN = /^(iso-?8859-1|latin-?1|windows-1252|cp1252)$/;

/** How the file's first bytes say it is encoded: a UTF-8 byte-order mark wins over a declared Latin encoding. */
export function xmlEncodingOf(first: Buffer): { latin: boolean; bom: boolean } {
  const bom = first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf;
  const declared = /^[^>]*\bencoding\s*=\s*["']([\w.-]+)["']/.exec(first.subarray(0, 200).toString('latin1'))?.[1]?.toLowerCase();
  return { latin: !bom && !!declared && LATIN.test(declared), bom };
}

/**
 * Byte offsets of positions in the decoded text, block by block: positions asked must not go
 * back, and must lie in the last block pushed (saxes reports its events while it scans that block).
 */
export class ByteCursor {
  private text = '';
  private textAt = 0;
  private textByte: number;
  private index = 0;
  private byte: number;

  /** `latin`: one byte per character; else UTF-8 after `skip` bytes (a byte-order mark the decoder drops). */
  constructor(private readonly latin: boolean, skip: number) {
    this.textByte = skip;
    this.byte = skip;
  }

  private width(text: string): number {
    return this.latin ? text.length : Buffer.byteLength(text, 'utf8');
  }

  /** The next decoded block, before the parser scans it. */
  push(text: string): void {
    this.textByte += this.width(this.text);
    this.textAt += this.text.length;
    this.text = text;
  }

  /** Byte offset of text position `at`. */
  byteAt(at: number): number {
    if (at < this.textAt) throw new Error(`position ${at} lies before the block being scanned`);
    if (this.index < this.textAt || at < this.index) {
      this.index = this.textAt;
      this.byte = this.textByte;
    }
    this.byte += this.width(this.text.slice(this.index - this.textAt, at - this.textAt));
    this.index = at;
    return this.byte;
  }
}
