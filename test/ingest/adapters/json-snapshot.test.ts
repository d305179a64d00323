import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { parseJsonSnapshot } from '../../../workers/ingest/adapters/json-snapshot.ts';

const fixture = (name: string): Buffer => readFileSync(new URL(`../../fixtures/registers/snapshot/${name}`, import.meta.url));
const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const envelope = { format: 'drugref-snapshot/1', source: { id: 'x', name: 'X', country: null, refresh_interval_hours: 24 } };

describe('json snapshot adapter', () => {
  const { snapshot, problems } = parseJsonSnapshot('snapshot.json', fixture('snapshot.json'));

  it('keeps the source and every valid entry', () => {
    expect(snapshot.source).toEqual({
      id: 'example-ch', name: 'Example Swiss register', country: 'CH', refresh_interval_hours: 168,
      licence: 'CC0-1.0', url: 'https://example.org/register', demo: true,
    });
    expect(snapshot.atc?.map((a) => a.code)).toEqual(['N02BE', 'N02BE01']);
    expect(snapshot.classes).toHaveLength(1);
    expect(snapshot.substances?.map((s) => s.unii)).toEqual(['362O9ITL9D']);
    expect(snapshot.products?.map((p) => p.key)).toEqual(['65317']);
    expect(snapshot.recalls?.[0]).toMatchObject({ key: 'R-2025-001', published_on: '2025-04-02' });
  });

  it('stores identifier codes in their normalised form', () => {
    const ids = snapshot.products?.[0]?.packs[0]?.identifiers;
    expect(ids).toContainEqual({ system: 'pharmacode', code: '12345' });
    expect(snapshot.products?.[0]?.packs[0]?.sl).toMatchObject({ limitation: null, coinsurance_percent: 10 });
  });

  it('reports bad entries by JSON path on line 0 and skips them', () => {
    expect(problems).toEqual([
      { file: 'snapshot.json', line: 0, message: '$.substances[1].unii: "NOT-A-UNII" is not a valid UNII (set provisional: true for a provisional key)' },
      { file: 'snapshot.json', line: 0, message: '$.products[1].packs[0].identifiers[0].code: "7680653180018" is not a valid gtin code' },
      // One problem per malformed entry, naming each of its errors.
      { file: 'snapshot.json', line: 0, message: '$.products[2].country: must be one of CH, GB, FR, DE, IT, AT, ES, DK, SE, FI, NO, NL, BE, IE, PT, US, EU; $.products[2].atc_cod: is not a field of this format' },
    ]);
  });

  it('accepts provisional substance keys when flagged', () => {
    const result = parseJsonSnapshot('s.json', json({ ...envelope, substances: [{ unii: 'name:IBUPROFEN', name: 'ibuprofen', provisional: true }] }));
    expect(result.problems).toEqual([]);
    expect(result.snapshot.substances).toHaveLength(1);
  });

  it('reports wrong types, missing fields, bad dates and duplicate keys', () => {
    const result = parseJsonSnapshot('s.json', json({
      ...envelope,
      atc: [{ code: 'N02', name: 'ANALGESICS', level: 3 }, { code: 'N02', name: 'again' }, { code: 'N02', name: 'ANALGESICS' }],
      recalls: [{ key: 'r', product_key: 'p', country: 'FR', published_on: '2025-02-30', reason: 'x' }],
      classes: [{ system: 'atc', code: 'N', label: 'x' }, { system: 'moa', code: 7 }],
    }));
    expect(result.problems.map((p) => p.message)).toEqual([
      '$.atc[0].level: does not match the code length',
      '$.atc[2]: duplicate key N02',
      '$.classes[0].system: must be one of epc, moa, pe, cs, mesh_pa',
      '$.classes[1].code: must be a non-empty string; $.classes[1].label: is required',
      '$.recalls[0].published_on: "2025-02-30" is not an ISO date (YYYY-MM-DD)',
    ]);
    expect(result.snapshot.atc).toEqual([{ code: 'N02', name: 'again' }]);
    expect(result.files).toEqual([{ file: 's.json', role: 'snapshot', read: 6, kept: 1, malformed: 5 }]);
  });

  it('accepts the complete example of docs/snapshot-format.md without problems', () => {
    const doc = readFileSync(new URL('../../../docs/snapshot-format.md', import.meta.url), 'utf-8');
    const example = /## A complete example\s+```json\n([\s\S]*?)\n```/.exec(doc)?.[1];
    const result = parseJsonSnapshot('example.json', Buffer.from(example ?? ''));
    expect(result.problems).toEqual([]);
    expect(result.snapshot.products?.[0]?.packs[0]?.key).toBe('7680653170010');
  });

  it('rejects a file with another format tag', () => {
    expect(() => parseJsonSnapshot('wrong-format.json', fixture('wrong-format.json'))).toThrow(FileRejectedError);
    expect(() => parseJsonSnapshot('wrong-format.json', fixture('wrong-format.json'))).toThrow(/\$\.format: must be "drugref-snapshot\/1"/);
  });

  it('rejects invalid JSON, naming the line', () => {
    expect(() => parseJsonSnapshot('invalid-json.json', fixture('invalid-json.json'))).toThrow(/invalid JSON at line 4/);
  });

  it('rejects an invalid source and non-array sections', () => {
    expect(() => parseJsonSnapshot('s.json', json({ ...envelope, source: { ...envelope.source, country: 'XX' } }))).toThrow(/\$\.source\.country/);
    expect(() => parseJsonSnapshot('s.json', json({ ...envelope, products: {} }))).toThrow(/\$\.products: must be an array/);
    expect(() => parseJsonSnapshot('s.json', json([envelope]))).toThrow(/must be a JSON object/);
  });
});
