/**
 * at-eko on a real EKO data carrier (ehmv10_22_teil1, October 2022, cut to 115 packs;
 * test/fixtures/registers/at-eko/real/SOURCE.md). Expected values are cut from the source lines at
 * the documented columns (1-based start, length).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAtEko } from '../../../workers/ingest/adapters/at-eko.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';

const DIR = new URL('../../fixtures/registers/at-eko/real/', import.meta.url);
const bytes = (name: string): Buffer => readFileSync(new URL(name, DIR));
const carrier = () => readdirSync(DIR).filter((n) => n.endsWith('.txt')).sort().map((name) => ({ name, content: bytes(name) }));
const line = (name: string, n: number): string => new TextDecoder('windows-1252').decode(bytes(name)).split(/\r?\n/)[n - 1]!;
const cut = (text: string, start: number, length: number): string => text.slice(start - 1, start - 1 + length);

describe('at-eko on the real data carrier of October 2022', async () => {
  const { snapshot, problems, files } = await parseAtEko(carrier());
  const pack = (pzn: string) => snapshot.products!.flatMap((p) => p.packs).find((p) => p.key === pzn)!;
  const productOf = (pzn: string) => snapshot.products!.find((p) => p.packs.some((k) => k.key === pzn))!;

  it('reads every file by its layout, every row kept or excluded for a named reason', () => {
    expect(files).toEqual([
      { file: 'medikament.txt', role: 'EKO Medikamente', read: 115, kept: 115, malformed: 0 },
      { file: 'atccode.txt', role: 'atccode.txt', read: 127, kept: 127, malformed: 0 },
      { file: 'hinweis.txt', role: 'hinweis.txt', read: 17, kept: 17, malformed: 0 },
      { file: 'medikament_zusatz.txt', role: 'medikament_zusatz.txt', read: 115, kept: 14, malformed: 0, excluded: { no_value: 101 } },
      { file: 'regeltext.txt', role: 'regeltext.txt', read: 21, kept: 21, malformed: 0 },
      { file: 'rezeptpflicht.txt', role: 'rezeptpflicht.txt', read: 115, kept: 115, malformed: 0 },
      { file: 'wirkstoff.txt', role: 'wirkstoff.txt', read: 132, kept: 121, malformed: 0, excluded: { no_substance_code: 11 } },
    ]);
    expect(files!.every(balanced)).toBe(true);
    expect(problems).toEqual([]);
    expect(snapshot.products).toHaveLength(106);
  });

  it('gives the Kassenverkaufspreis in EUR from cents, the quantity and the register number at the documented columns', () => {
    const src = line('medikament.txt', 1); // Agaffin Abführgel 100 ml
    expect(pack(cut(src, 1, 7))).toMatchObject({
      key: '0001063', description: '100 ml', units: 100, unit: 'ml', dispensing_category: 'rezeptfrei',
      prices: [{ amount: Number(cut(src, 132, 9)) / 100, currency: 'EUR', kind: 'reimbursed' }],
    });
    expect(pack('0001063').prices![0]!.amount).toBe(3.85);
    expect(productOf('0001063')).toMatchObject({
      key: cut(src, 10, 6), product_name: cut(src, 19, 100).trim(), atc_code: 'A06AB08', attributes: { at_eko_box: 'grün' },
      ingredients: [{ unii: 'name:NATRIUMPICOSULFAT', strength_value: 0.36, strength_unit: 'mg/ml', strength_text: '0,00036 G/ML' }],
    });
  });

  it('reads the substance strength of wirkstoff.txt (0,002 G/ST: 2 mg per tablet)', () => {
    const src = line('wirkstoff.txt', 2);
    expect([cut(src, 1, 7), cut(src, 17, 7), cut(src, 24, 10).trim(), cut(src, 34, 9).trim()]).toEqual(['0001318', 'N04AA02', '0,002', 'G/ST']);
    expect(productOf('0001318')).toMatchObject({ product_name: 'Akineton 2 mg Tabl.', ingredients: [{ unii: 'name:BIPERIDEN', strength_value: 2, strength_unit: 'mg' }] });
  });

  it('keeps the yellow box rule text, the pack note of hinweis.txt and the narcotic vignette', () => {
    expect(productOf('0087076').attributes).toMatchObject({ at_eko_box: 'gelb', at_eko_kassenzeichen: 'RE2', at_eko_regeltext: expect.stringMatching(/^Eine Kostenübernahme ist nur möglich zur Selbstkatheterisierung/) });
    expect(pack('0003599')).toMatchObject({ availability: 'nicht lieferbar' });
    expect(productOf('0003599').attributes).toMatchObject({ at_eko_hinweis: 'nicht lieferbar' });
    // 17 notes: 10 say the pack cannot be supplied, the others name a salt's equivalent or a warning.
    expect(snapshot.products!.flatMap((p) => p.packs).filter((p) => p.availability === 'nicht lieferbar')).toHaveLength(10);
    expect(pack('0094886')).toMatchObject({ narcotic_list: 'SG' });
  });

  it('names the members of the carrier it does not read; refuses a truncated pack list, another register\'s file and an empty one', async () => {
    const html = Buffer.from('|0087076|;|Eine Kosten&uuml;bernahme ist nur m&ouml;glich.|\r\n', 'latin1');
    const r = await parseAtEko([...carrier(), { name: 'regeltext_v2.txt', content: html }, { name: 'SB_medikament.doc', content: Buffer.from([0xd0, 0xcf, 0x11, 0xe0]) }]);
    expect(r.files!.slice(-2)).toEqual([
      { file: 'regeltext_v2.txt', role: 'unused', read: 0, kept: 0, malformed: 0, note: 'the rule texts of regeltext.txt in HTML (not read)' },
      expect.objectContaining({ file: 'SB_medikament.doc', role: 'unused' }),
    ]);
    const without = (content: Buffer) => carrier().map((f) => (f.name === 'medikament.txt' ? { ...f, content } : f));
    await expect(parseAtEko(without(bytes('medikament.txt').subarray(0, 100)))).rejects.toThrow(/no medikament file/);
    await expect(parseAtEko(without(readFileSync(new URL('../../fixtures/registers/ch-zurrose/real/transfer.dat', import.meta.url))))).rejects.toThrow(FileRejectedError);
    await expect(parseAtEko(without(Buffer.alloc(0)))).rejects.toThrow(/no medikament file/);
  });
});
