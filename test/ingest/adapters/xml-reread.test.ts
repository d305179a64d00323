import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileInput } from '../../../workers/ingest/adapters/line-stream.ts';
import { xmlFileRecords } from '../../../workers/ingest/adapters/xml-file-records.ts';
import { RecordRereader } from '../../../workers/ingest/adapters/xml-reread.ts';
import { streamXmlRecords } from '../../../workers/ingest/adapters/xml-records.ts';
import type { XmlElement } from '../../../workers/ingest/adapters/xml-records.ts';

const dir = mkdtempSync(join(tmpdir(), 'drugref-xml-reread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a record says, without where it was read. */
const content = (e: XmlElement): unknown => ({ name: e.name, attributes: e.attributes, text: e.text, children: e.children.map(content) });

/** 3,200 records of about 700 bytes: the 1 MiB read blocks end inside records and inside two-byte characters. */
function document(bom: boolean): Buffer {
  const items = Array.from({ length: 3200 }, (_, i) => `  <ITEM n="${i}"><!-- é -->\r\n    <NM>Crème ${'é'.repeat(i % 7)} ${'x'.repeat(600 + (i % 13))}</NM><SUB><CD>${i}</CD></SUB>\n  </ITEM>`);
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n<ROOT>\n <ITEMS>\n${items.join('\n')}\n </ITEMS>\n <OTHER><ITEM n="last"><NM>ä</NM></ITEM></OTHER>\n</ROOT>\n`;
  return Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(text)]);
}

async function recordsOnDisk(path: string): Promise<XmlElement[]> {
  const out: XmlElement[] = [];
  const spec = { offsets: true, onRoot: () => undefined, isRecord: (name: string) => name === 'ITEM' };
  for await (const e of xmlFileRecords(fileInput(path), spec)) out.push(e);
  return out;
}

describe('xml-reread', () => {
  it.each([false, true])('reads every record again from the offset noted on disk and in memory (byte-order mark: %s)', async (bom) => {
    const bytes = document(bom);
    expect(bytes.length).toBeGreaterThan(2 * (1 << 20));
    const path = join(dir, `doc-${bom}.xml`);
    writeFileSync(path, bytes);
    const onDisk = await recordsOnDisk(path);
    const inMemory: XmlElement[] = [];
    streamXmlRecords('doc.xml', bytes, { offsets: true, isRecord: (name) => name === 'ITEM', onRecord: (e) => inMemory.push(e) });
    expect(onDisk).toHaveLength(3201);
    expect(inMemory.map((e) => e.offset)).toEqual(onDisk.map((e) => e.offset));
    const fromDisk = new RecordRereader(fileInput(path));
    const fromMemory = new RecordRereader({ name: 'doc.xml', content: bytes });
    try {
      for (const record of onDisk) {
        expect(content(fromDisk.read(record.offset!))).toEqual(content(record));
        expect(content(fromMemory.read(record.offset!))).toEqual(content(record));
      }
    } finally {
      fromDisk.close();
    }
  });

  it('reads a Windows-1252 file again in its encoding', async () => {
    const path = join(dir, 'latin.xml');
    writeFileSync(path, Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>\n<ROOT><ITEM><NM>O', 'latin1'), Buffer.from([0x92]),
      Buffer.from('Neill</NM></ITEM><ITEM><NM>Cr', 'latin1'), Buffer.from([0xe8]), Buffer.from('me</NM></ITEM></ROOT>', 'latin1'),
    ]));
    const records = await recordsOnDisk(path);
    const reader = new RecordRereader(fileInput(path));
    expect(records.map((r) => reader.read(r.offset!).children[0]?.text)).toEqual(['O\u2019Neill', 'Crème']);
    reader.close();
  });

  it('refuses an offset where no record starts any more', () => {
    const reader = new RecordRereader({ name: 'cut.xml', content: Buffer.from('<ROOT><ITEM><NM>a</NM></ITEM></ROOT>') });
    expect(() => reader.read(36)).toThrow(/cut\.xml: no record at byte 36: the file changed while it was ingested/);
  });
});
