/**
 * The streamed FDA NDC adapter (what `drugref ingest fda-ndc` runs) must give exactly what the
 * in-memory parser gives, read from disk in blocks, and a file that changes or vanishes while
 * the engine reads it must refuse the ingest with nothing written.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../platform/db.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseFdaNdc } from '../../../workers/ingest/adapters/fda-ndc.ts';
import { openFdaNdc } from '../../../workers/ingest/adapters/fda-ndc-stream.ts';
import { fileInput } from '../../../workers/ingest/adapters/line-stream.ts';
import { parseAndIngest } from '../../../workers/ingest/apply.ts';
import type { StreamedAdapterResult } from '../../../workers/ingest/input.ts';
import type { AdapterResult, ProductEntry } from '../../../workers/ingest/snapshot.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { tableCounts } from '../snapshots.ts';
import { outcomeOf } from '../../../workers/ingest/row-outcome.ts';

const FIXTURES = new URL('../../fixtures/registers/fda-ndc/', import.meta.url);
const asOf = new Date('2025-06-01T00:00:00Z');
const fixture = (name: string): InputFile => ({ name, content: readFileSync(new URL(name, FIXTURES)) });

/** The streamed snapshot read to the end, its loose packs put back on their products. */
async function collect(result: StreamedAdapterResult): Promise<AdapterResult> {
  const products: ProductEntry[] = [];
  for await (const p of result.snapshot.products as AsyncIterable<ProductEntry>) products.push(p);
  const byKey = new Map(products.map((p) => [p.key, p]));
  for await (const { product_key, pack } of result.snapshot.packs as AsyncIterable<{ product_key: string; pack: ProductEntry['packs'][number] }>) {
    byKey.get(product_key)!.packs.push(pack);
  }
  const { packs: _packs, ...rest } = result.snapshot;
  return { snapshot: { ...rest, products }, problems: result.problems, files: result.files! };
}

const PRODUCT_HEADER = ['PRODUCTID', 'PRODUCTNDC', 'PRODUCTTYPENAME', 'PROPRIETARYNAME', 'PROPRIETARYNAMESUFFIX', 'NONPROPRIETARYNAME',
  'DOSAGEFORMNAME', 'ROUTENAME', 'STARTMARKETINGDATE', 'ENDMARKETINGDATE', 'MARKETINGCATEGORYNAME', 'APPLICATIONNUMBER', 'LABELERNAME',
  'SUBSTANCENAME', 'ACTIVE_NUMERATOR_STRENGTH', 'ACTIVE_INGRED_UNIT', 'PHARM_CLASSES', 'DEASCHEDULE', 'NDC_EXCLUDE_FLAG', 'LISTING_RECORD_CERTIFIED_THROUGH'];
const PACKAGE_HEADER = ['PRODUCTID', 'PRODUCTNDC', 'NDCPACKAGECODE', 'PACKAGEDESCRIPTION', 'STARTMARKETINGDATE', 'ENDMARKETINGDATE', 'NDC_EXCLUDE_FLAG', 'SAMPLE_PACKAGE'];

/** A directory of `n` products (over a megabyte: lines cross read blocks), with accents, CRLF and malformed rows. */
function directory(n: number): { product: string; pack: string } {
  const products = [PRODUCT_HEADER.join('\t')];
  const packs = [PACKAGE_HEADER.join('\t')];
  for (let i = 0; i < n; i += 1) {
    const ndc = `${10000 + Math.floor(i / 9000)}-${1000 + (i % 9000)}`;
    const name = i % 3 ? `Crème ${i} à l’acétaminophène` : `Tablet ${i}`;
    const substance = i % 4 ? 'ACETAMINOPHEN' : 'IBUPROFEN';
    // Every 500th row has a strength that is not a number; every 700th repeats the PRODUCTID before it.
    const id = i % 700 === 1 ? `${ndc}_${i - 1}` : `${ndc}_${i}`;
    products.push([id, ndc, 'HUMAN OTC DRUG', name, '', substance, 'TABLET', 'ORAL', '20150101', '', 'ANDA', `ANDA${i}`, 'Labeler é',
      substance, i % 500 === 7 ? 'ten' : String(100 + i), 'mg/1', 'Analgesic [EPC]', '', 'N', '20271231'].join('\t'));
    for (const pkg of ['10', '20']) {
      packs.push([`${ndc}_${i}`, ndc, `${ndc}-${pkg}`, `${pkg} TABLET in 1 BOTTLE (${ndc}-${pkg})`, '20150101', i % 9 ? '' : '20200101', 'N', 'N'].join('\t'));
    }
  }
  return { product: `${products.join('\r\n')}\r\n`, pack: `\ufeff${packs.join('\n')}` };
}

describe('fda-ndc streamed', () => {
  let dir: string;
  let db: Database;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'drugref-ndc-stream-'));
    db = await openTestDatabase();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db.close();
  });

  it('reads the fixtures exactly as the in-memory parser does, from memory and from disk', async () => {
    for (const names of [['product.txt', 'package.txt'], ['unfinished_product.txt', 'unfinished_package.txt']]) {
      const expected = parseFdaNdc(names.map(fixture), { asOf });
      expect(await collect(await openFdaNdc(names.map(fixture), { asOf }))).toEqual(expected);
      const onDisk = names.map((n) => fileInput(new URL(n, FIXTURES).pathname, n));
      expect(await collect(await openFdaNdc(onDisk, { asOf }))).toEqual(expected);
    }
  });

  it('reads a large file across read blocks, UTF-8 or Windows-1252, with the same problems', async () => {
    const { product, pack } = directory(6000);
    for (const encoding of ['utf8', 'latin1'] as const) {
      const files = [['product.txt', product], ['package.txt', pack]].map(([name, text]) => {
        const path = join(dir, `${encoding}-${name}`);
        // Windows-1252 has no ’: the latin1 variant uses a plain apostrophe.
        writeFileSync(path, encoding === 'latin1' ? text!.replace(/[’\ufeff]/g, '') : text!, encoding);
        return fileInput(path, name!);
      });
      expect(files[0]!.path).toBeDefined();
      const expected = parseFdaNdc(files.map((f) => ({ name: f.name, content: readFileSync(f.path!) })), { asOf });
      expect(expected.problems.length).toBeGreaterThan(10);
      expect(expected.snapshot.products!.length).toBeGreaterThan(5900);
      expect(await collect(await openFdaNdc(files, { asOf }))).toEqual(expected);
    }
  });

  it('rejects a wrong header on opening, as the parser does', async () => {
    const files = [fixture('product-bad-header.txt'), fixture('package.txt')];
    const message = (() => { try { parseFdaNdc(files, { asOf }); return ''; } catch (err) { return (err as Error).message; } })();
    expect(message).toMatch(/missing/);
    await expect(openFdaNdc(files, { asOf })).rejects.toThrow(message);
  });

  it('refuses the ingest and writes nothing when a file changes or vanishes while it is read', async () => {
    const counts = await tableCounts(db);
    for (const [swap, reason] of [['changed', /file rejected: .*line 2 reads differently/], ['missing', /file unreadable: .*ENOENT/]] as const) {
      const product = join(dir, 'product.txt');
      copyFileSync(new URL('product.txt', FIXTURES), product);
      const changed = join(dir, 'product-changed.txt');
      const lines = readFileSync(product, 'utf8').split('\n');
      lines[1] = lines[1]!.replace(/\t200\t/, '\tabc\t');
      writeFileSync(changed, lines.join('\n'));
      let swapped = false;
      const input: InputFile = Object.defineProperty(fileInput(product, 'product.txt'), 'path', {
        get: () => (swapped ? (swap === 'changed' ? changed : join(dir, 'gone.txt')) : product),
      });
      const result = await parseAndIngest(db, 'fda-ndc', [input, fixture('package.txt')], {
        strict: false,
        // Once the engine has planned, the products are read again: from a file that is no longer the one checked.
        onProgress: (p) => { if (p.step === 'plan') swapped = true; },
        chunkSize: 1,
      });
      expect(result).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(reason) });
      expect(await tableCounts(db)).toEqual(counts);
    }
  });

  it('ingests from disk through parseAndIngest with the parser\'s counts', async () => {
    const files = ['product.txt', 'package.txt'].map((n) => fileInput(new URL(n, FIXTURES).pathname, n));
    const parsed = parseFdaNdc(['product.txt', 'package.txt'].map(fixture));
    const result = await parseAndIngest(db, 'fda-ndc', files, { strict: false, chunkSize: 1 });
    expect(result.outcome).toBe('ok');
    if (result.outcome !== 'ok') return;
    expect(result.files).toEqual(parsed.files!.map((f) => outcomeOf(f)));
    expect(result.problems).toEqual(parsed.problems);
    const packs = parsed.snapshot.products!.reduce((n, p) => n + p.packs.length, 0);
    expect(result.report.tables.products.insert).toBe(parsed.snapshot.products!.length);
    expect(result.report.tables.packs.insert).toBe(packs);
    const strict = await parseAndIngest(db, 'fda-ndc', files, { strict: true });
    expect(strict).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/malformed row\(s\) under strict mode/) });
  });
});
