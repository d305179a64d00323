/**
 * The streamed openFDA drug/ndc adapter (what `drugref ingest us-openfda-ndc` runs) must give
 * exactly what the in-memory parser gives, from memory and from disk, with the document cut into
 * read blocks anywhere (inside strings, numbers, member names, multi-byte characters); a file
 * that changes while the engine reads it must refuse the ingest with nothing written.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFdaDownload, writeOpenFdaDownload } from '../../../bench/openfda-release.ts';
import { uniiCheckCharacter } from '../../../vocabulary/check-digits.ts';
import type { Database } from '../../../platform/db.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { forEachArrayElement, jsonBlockArrayElements } from '../../../workers/ingest/adapters/json-stream.ts';
import type { ArrayElement } from '../../../workers/ingest/adapters/json-stream.ts';
import { fileInput } from '../../../workers/ingest/adapters/line-stream.ts';
import { parseOpenFdaNdc } from '../../../workers/ingest/adapters/us-openfda-ndc.ts';
import { openOpenFdaNdc } from '../../../workers/ingest/adapters/us-openfda-open.ts';
import { parseAndIngest } from '../../../workers/ingest/apply.ts';
import type { StreamedAdapterResult } from '../../../workers/ingest/input.ts';
import type { AdapterResult, ProductEntry } from '../../../workers/ingest/snapshot.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { tableCounts } from '../snapshots.ts';

const FIXTURES = new URL('../../fixtures/registers/us-openfda-ndc/', import.meta.url);
const NAME = 'drug-ndc-0001-of-0001.json';
const asOf = new Date('2025-06-01T00:00:00Z');
const fixture = (name: string): InputFile => ({ name, content: readFileSync(new URL(name, FIXTURES)) });

async function collect(result: StreamedAdapterResult): Promise<AdapterResult> {
  const products: ProductEntry[] = [];
  for await (const p of result.snapshot.products as AsyncIterable<ProductEntry>) products.push(p);
  return { snapshot: { ...result.snapshot, products }, problems: result.problems, files: result.files! };
}

/** What `forEachArrayElement` hands over for `bytes`, or the message it rejects with. */
function whole(bytes: Buffer): { elements: ArrayElement[]; keys: string[] } | string {
  const elements: ArrayElement[] = [];
  try {
    const keys = forEachArrayElement('f.json', bytes, 'results', {
      onElement: (value, line) => { elements.push({ line, value }); },
      onMalformed: (line, malformed) => { elements.push({ line, malformed }); },
    });
    return { elements, keys };
  } catch (error) {
    return (error as Error).message;
  }
}

/** The same read from blocks of `size` bytes. */
async function inBlocks(bytes: Buffer, size: number): Promise<{ elements: ArrayElement[]; keys: string[] } | string> {
  const blocks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
  const elements: ArrayElement[] = [];
  try {
    const reader = jsonBlockArrayElements('f.json', blocks, 'results');
    for (;;) {
      const next = await reader.next();
      if (next.done) return { elements, keys: next.value };
      elements.push(next.value);
    }
  } catch (error) {
    return (error as Error).message;
  }
}

describe('us-openfda-ndc streamed', () => {
  let dir: string;
  let db: Database;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'drugref-openfda-stream-'));
    db = await openTestDatabase();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db.close();
  });

  it('scans a document cut into blocks of any size as it scans it whole, rejections included', async () => {
    const documents = [
      Buffer.from(`\ufeff${[...openFdaDownload(12)].join('')}`), Buffer.from([...openFdaDownload(12, true)].join('')),
      readFileSync(new URL('truncated.json', FIXTURES)), readFileSync(new URL('not-openfda.json', FIXTURES)),
      Buffer.from('{"results": [1, 2.5e3, true, null, "é\\"]"]}'), Buffer.from('{"results": 5}'), Buffer.from('[1]'), Buffer.from('{}'), Buffer.from(''),
    ];
    for (const bytes of documents) {
      const expected = whole(bytes);
      for (const size of [1, 2, 3, 7, 64, 1000]) expect(await inBlocks(bytes, size), `blocks of ${size}`).toEqual(expected);
    }
    expect(whole(documents[0]!)).toMatchObject({ keys: ['meta', 'results'] });
  });

  it('reads the fixture exactly as the in-memory parser does, from memory and from disk', async () => {
    const expected = parseOpenFdaNdc([fixture(NAME)], { asOf });
    expect(expected.snapshot.products!.length).toBeGreaterThan(0);
    expect(await collect(await openOpenFdaNdc([fixture(NAME)], { asOf }))).toEqual(expected);
    expect(await collect(await openOpenFdaNdc([fileInput(new URL(NAME, FIXTURES).pathname, NAME)], { asOf }))).toEqual(expected);
  });

  it('reads a generated download spanning several read blocks, pretty-printed or minified, with the same problems', async () => {
    for (const minified of [false, true]) {
      const path = join(dir, minified ? 'min.json' : NAME);
      await writeOpenFdaDownload(path, 4000, minified);
      expect(readFileSync(path).length).toBeGreaterThan(1 << 21);
      const expected = parseOpenFdaNdc([{ name: NAME, content: readFileSync(path) }], { asOf });
      expect(expected.problems.map((p) => p.message)).toEqual(expect.arrayContaining([
        expect.stringMatching(/not valid JSON/), expect.stringMatching(/"not-an-ndc" is not a labeler-product NDC/),
      ]));
      // A repeated product is excluded as a duplicate, not reported as a problem.
      expect(expected.files![0]!.excluded?.duplicate).toBeGreaterThan(0);
      expect(expected.snapshot.substances!.some((s) => !s.unii.startsWith('name:'))).toBe(true);
      expect(await collect(await openOpenFdaNdc([fileInput(path, NAME)], { asOf }))).toEqual(expected);
    }
  });

  it('names and classes substances as the parser does when records that wait on the file precede those that settle alone', async () => {
    const u = (body: string): string => `${body}${uniiCheckCharacter(body)}`;
    const [u1, u2] = [u('UNIIAAAA0'), u('UNIIBBBB0')];
    const record = (i: number, names: string[], uniis: string[], classes: string[]) => ({
      product_ndc: `0904-${1000 + i}`, product_id: `p${i}`, brand_name: `Brand ${i}`, packaging: [],
      active_ingredients: names.map((name) => ({ name, strength: '1 mg/1' })), openfda: { unii: uniis, pharm_class_epc: classes },
    });
    const results = [
      // Waits (two ingredients): X pairs with u1 only through the record at the end.
      record(0, ['X', 'Y'], [u1, u2], []),
      // Waits (one ingredient, two UNIIs); its class is met before the ones that settle alone.
      record(1, ['X'], [u1, u2], ['Analgesic [EPC]']),
      // Settle alone: Z also names u1, but after X did.
      record(2, ['Z'], [u1], ['Stimulant [EPC]', 'Analgesic [EPC]']),
      record(3, ['X'], [u1], []),
      record(4, ['Y'], [u2], []),
    ];
    const bytes = Buffer.from(JSON.stringify({ results }, null, 2));
    const expected = parseOpenFdaNdc([{ name: NAME, content: bytes }], { asOf });
    expect(expected.snapshot.substances).toEqual([
      { unii: u1, name: 'X', classes: [{ system: 'epc', code: 'name:ANALGESIC' }, { system: 'epc', code: 'name:STIMULANT' }] },
      { unii: u2, name: 'Y' },
    ]);
    expect(await collect(await openOpenFdaNdc([{ name: NAME, content: bytes }], { asOf }))).toEqual(expected);
  });

  it('rejects on opening what the parser rejects, with the same message', async () => {
    for (const name of ['truncated.json', 'not-openfda.json']) {
      const message = (() => { try { parseOpenFdaNdc([fixture(name)], { asOf }); return ''; } catch (err) { return (err as Error).message; } })();
      expect(message).not.toBe('');
      await expect(openOpenFdaNdc([fileInput(new URL(name, FIXTURES).pathname, name)], { asOf })).rejects.toThrow(message);
    }
  });

  it('refuses the ingest and writes nothing when the file changes or vanishes while it is read', async () => {
    const counts = await tableCounts(db);
    const original = join(dir, 'original.json');
    copyFileSync(new URL(NAME, FIXTURES), original);
    const changed = join(dir, 'changed.json');
    writeFileSync(changed, readFileSync(original, 'utf8').replace('"product_ndc": "0904-5853"', '"product_ndc": "09x4-5853"'));
    for (const [swap, reason] of [[changed, /file rejected: .*reads differently/], [join(dir, 'gone.json'), /file unreadable: .*ENOENT/]] as const) {
      let swapped = false;
      const input: InputFile = Object.defineProperty(fileInput(original, NAME), 'path', { get: () => (swapped ? swap : original) });
      const result = await parseAndIngest(db, 'us-openfda-ndc', [input], {
        strict: false, chunkSize: 1, onProgress: (p) => { if (p.step === 'plan') swapped = true; },
      });
      expect(result).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(reason) });
      expect(await tableCounts(db)).toEqual(counts);
    }
  });
});
