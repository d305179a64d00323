/**
 * us-openfda-ndc on the real files openFDA builds drug/ndc from: the NDC Directory's trimmed
 * `product.txt` / `package.txt` and unfinished pair that FDA/openfda's NDC pipeline tests on
 * (fixtures/registers/fda-ndc/real, SOURCE.md there; us-openfda-ndc/real/SOURCE.md says why no
 * JSON download excerpt exists). The files are told from the JSON download by content, every
 * row has one outcome, and one pair alone deletes nothing. Ingested through the engine on both
 * backends.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../platform/db.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { parseOpenFdaDirectory } from '../../../workers/ingest/adapters/us-openfda-directory.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';
import { openTestDatabase } from '../../helpers/db.ts';

const REAL = new URL('../../fixtures/registers/fda-ndc/real/', import.meta.url);
const real = (name: string, as = name): InputFile => ({ name: as, content: readFileSync(new URL(name, REAL)) });
const json = (): InputFile => ({ name: 'drug-ndc-0001-of-0001.json', content: readFileSync(new URL('../../us-openfda-ndc/drug-ndc-0001-of-0001.json', REAL)) });
const asOf = new Date('2019-01-01T00:00:00Z');
const adapter = findAdapter('us-openfda-ndc')!;

// Names as a download or a rename might give them: the role comes from the header.
const finished = (): InputFile[] => [real('product_trimmed.txt', 'ndctext/product.txt'), real('package_trimmed.txt', 'ndctext/package (1).txt')];
const unfinished = (): InputFile[] => [real('unfinished_product_trimmed.txt'), real('unfinished_package_trimmed.txt')];

describe('us-openfda-ndc on the real NDC Directory files', () => {
  it('reads both pairs into its own source, each row kept or malformed with its line', async () => {
    const { snapshot, problems, files } = await parseOpenFdaDirectory([...finished(), ...unfinished()], { asOf });
    expect(snapshot.source.id).toBe('us-openfda-ndc');
    expect(snapshot.partial).toBeUndefined();
    expect(files).toEqual([
      { file: 'ndctext/product.txt', role: 'product', read: 3, kept: 2, malformed: 1 },
      { file: 'ndctext/package (1).txt', role: 'package', read: 3, kept: 1, malformed: 2 },
      { file: 'unfinished_product_trimmed.txt', role: 'unfinished product', read: 3, kept: 3, malformed: 0 },
      { file: 'unfinished_package_trimmed.txt', role: 'unfinished package', read: 3, kept: 3, malformed: 0 },
    ]);
    expect(files!.every(balanced)).toBe(true);
    expect(problems.map((p) => `${p.file}:${p.line}`)).toEqual(['ndctext/product.txt:3', 'ndctext/package (1).txt:3', 'ndctext/package (1).txt:4']);
    expect(snapshot.products!.map((p) => [p.key.slice(0, 9), p.attributes?.unfinished ?? false, p.packs.length])).toEqual([
      ['0002-0800', false, 1], ['0002-1407', false, 0],
      ['0002-0485', true, 2], ['0002-0535', true, 1], ['0002-1401', true, 0],
    ]);
    // Keyed as the JSON download's records: PRODUCTID, packs by 11-digit NDC.
    expect(snapshot.products![0]).toMatchObject({
      key: '0002-0800_ab2a5006-1880-4b6c-9640-dc2ec1066449', product_name: 'Sterile Diluent',
      packs: [{ key: '00002080001', units: 10, unit: 'mL' }],
    });
  });

  it('tells the files from the JSON download by content through the adapter, and streams what it parses', async () => {
    const files = [...unfinished(), ...finished()];
    const parsed = await adapter.parse(files);
    const streamed = await adapter.open!(files);
    expect(streamed.snapshot.source.id).toBe('us-openfda-ndc');
    expect(streamed.files).toEqual(parsed.files);
    expect(streamed.problems).toEqual(parsed.problems);
    const keys: string[] = [];
    for await (const p of streamed.snapshot.products as AsyncIterable<{ key: string }>) keys.push(p.key);
    expect(keys.sort()).toEqual(parsed.snapshot.products!.map((p) => p.key).sort());
    let packs = 0;
    for await (const _ of streamed.snapshot.packs as AsyncIterable<unknown>) packs += 1;
    expect(packs).toBe(parsed.snapshot.products!.reduce((n, p) => n + p.packs.length, 0));
    // The JSON download still goes to the JSON reader.
    expect((await adapter.parse([json()])).files![0]!.role).toBe('drug/ndc results');
  });

  it('refuses a directory file beside the JSON download, a lone file and a repeated pair', async () => {
    await expect(adapter.parse([json(), real('product_trimmed.txt')])).rejects.toThrow(/cannot go with the openFDA JSON download/);
    await expect(adapter.parse([real('product_trimmed.txt')])).rejects.toThrow(/file missing or repeated/);
    await expect(adapter.parse([...finished(), real('product_trimmed.txt', 'p2.txt'), real('package_trimmed.txt', 'k2.txt')])).rejects.toThrow(/each once/);
  });
});

describe('us-openfda-ndc directory files through the engine', () => {
  let db: Database;
  beforeAll(async () => { db = await openTestDatabase(); });
  afterAll(() => db.close());

  it('states the source with both pairs; one pair alone updates its products and deletes nothing', async () => {
    const both = await adapter.open!([...finished(), ...unfinished()]);
    const first = await ingestSnapshot(db, both.snapshot);
    expect(first.tables).toMatchObject({ products: { insert: 5, delete: 0 }, packs: { insert: 4 } });
    const alone = await adapter.open!(finished());
    expect(alone.snapshot.partial).toBe(true);
    const second = await ingestSnapshot(db, alone.snapshot);
    expect(second.tables).toMatchObject({ products: { insert: 0, delete: 0 }, packs: { insert: 0, delete: 0 } });
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM products WHERE source = 'us-openfda-ndc'`);
    expect(rows[0]!.n).toBe(5);
  });
});
