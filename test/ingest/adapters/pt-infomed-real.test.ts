/**
 * The pt-infomed adapter on Infomed's export as a user downloads it (test/fixtures/registers/
 * pt-infomed/real/, see SOURCE.md there): the medicines list (`lista_infomed.csv`, UTF-8 with a
 * byte-order mark, `,`, CRLF, quoted holders with commas), which has no Nº Registo and no
 * presentations. Values checked against the bytes of named lines.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { parsePtInfomed, plusParts } from '../../../workers/ingest/adapters/pt-infomed.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';
import type { AdapterResult, ProductEntry } from '../../../workers/ingest/snapshot.ts';

const FILE = 'lista_infomed.csv';
const bytes = readFileSync(new URL('../../fixtures/registers/pt-infomed/real/lista_infomed.csv', import.meta.url));
/** Line `n` (1-based) of the export as published. */
const line = (n: number) => bytes.toString('utf8').split('\r\n')[n - 1]!;

function product(result: AdapterResult, key: string): ProductEntry {
  const found = (result.snapshot.products as ProductEntry[]).find((p) => p.key === key);
  if (!found) throw new Error(`no product ${key}`);
  return found;
}

describe('pt-infomed on the real Infomed medicines export', async () => {
  const result = await parsePtInfomed({ name: FILE, content: bytes });

  it('reads every row as a product without packs; a medicine listed again is excluded as a duplicate', () => {
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(result.files).toEqual([{ file: FILE, role: 'Infomed (medicamentos)', read: 439, kept: 436, malformed: 0, excluded: { duplicate: 3 } }]);
    expect(result.files!.every(balanced)).toBe(true);
    expect(result.problems).toEqual([]);
    expect(result.snapshot.products).toHaveLength(436);
    expect((result.snapshot.products as ProductEntry[]).every((p) => p.packs.length === 0)).toBe(true);
  });

  it('gives Drovelis (line 21) both substances with their strengths, the holder with its comma, generic flag and status', () => {
    expect(line(21)).toBe('Drospirenona + Estetrol,Drovelis,Comprimido revestido por película,3 mg + 14.2 mg,"Gedeon Richter, Plc.",Não,Autorizado,Comercializado');
    expect(product(result, 'DROVELIS|3 MG + 14.2 MG|COMPRIMIDO REVESTIDO POR PELÍCULA')).toMatchObject({
      country: 'PT', product_name: 'Drovelis 3 mg + 14.2 mg Comprimido revestido por película', brand: 'Drovelis',
      dose_form: 'Comprimido revestido por película', holder: 'Gedeon Richter, Plc.', generic: false,
      authorisation_status: 'Autorizado', marketing_status: 'active',
      ingredients: [
        { unii: 'name:DROSPIRENONA', strength_value: 3, strength_unit: 'mg', strength_text: '3 mg' },
        { unii: 'name:ESTETROL', strength_value: 14.2, strength_unit: 'mg', strength_text: '14.2 mg' },
      ],
    });
  });

  it('keeps an insulin mixture (line 44) one substance, and marks Levemir (lines 417, 418, 438) marketed because line 418 is', () => {
    expect(line(44)).toMatch(/^Insulina humana \(solúvel \+ isofânica\),Insuman Comb 15,Suspensão injetável,100 U\.I\.\/ml \(15% \+ 85%\),/);
    expect(product(result, 'INSUMAN COMB 15|100 U.I./ML (15% + 85%)|SUSPENSÃO INJETÁVEL').ingredients).toEqual([
      { unii: 'name:INSULINA HUMANA (SOLÚVEL + ISOFÂNICA)', strength_value: 100, strength_unit: 'U.I./ml', strength_text: '100 U.I./ml (15% + 85%)' },
    ]);
    expect([417, 418, 438].map((n) => line(n).split(',').pop())).toEqual(['Não Comercializado', 'Comercializado', 'Não Comercializado']);
    expect(product(result, 'LEVEMIR|100 U/ML|SOLUÇÃO INJETÁVEL')).toMatchObject({ marketing_status: 'active', holder: 'Novo Nordisk, A/S' });
    expect(plusParts('250 mg/5 ml + 62.5 mg/5 ml')).toEqual(['250 mg/5 ml', '62.5 mg/5 ml']);
  });

  it('refuses an empty file, a file of another register and an export cut inside its header, and reports a cut row', async () => {
    await expect(parsePtInfomed({ name: FILE, content: Buffer.alloc(0) })).rejects.toThrow(FileRejectedError);
    const aifa = readFileSync(new URL('../../fixtures/registers/it-aifa/real/Lista_farmaci_equivalenti.csv', import.meta.url));
    await expect(parsePtInfomed({ name: 'Lista_farmaci_equivalenti.csv', content: aifa })).rejects.toThrow(/no header row naming Nome do Medicamento/);
    await expect(parsePtInfomed({ name: FILE, content: bytes.subarray(0, 40) })).rejects.toThrow(/no header row naming Nome do Medicamento/);
    const cut = await parsePtInfomed({ name: FILE, content: bytes.subarray(0, bytes.indexOf('Autorizado,Comercializado', bytes.indexOf('Floxedol'))) });
    expect(cut.files).toEqual([{ file: FILE, role: 'Infomed (medicamentos)', read: 5, kept: 4, malformed: 1 }]);
    expect(cut.problems).toEqual([{ file: FILE, line: 6, message: 'row has 7 fields, the header 8' }]);
  });
});
