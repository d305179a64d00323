/**
 * The French availability list (BDPM CIS_CIP_Dispo_Spec.txt) on a real excerpt of a January
 * 2026 release (Latin-1, CRLF, as published: SOURCE.md) and on a hand-written file for what
 * the excerpt lacks: UTF-8 without CRLF, empty dates, and rows refused with their line.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFrAnsmSupply } from '../../../workers/ingest/adapters/fr-ansm-supply.ts';
import type { SupplyParse, SupplyRow } from '../../../workers/ingest/adapters/supply-rows.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';

const REAL = readFileSync(new URL('../../fixtures/registers/fr-ansm-supply/real/CIS_CIP_Dispo_Spec_20260126_excerpt.txt', import.meta.url));
const byCode = (parsed: SupplyParse, code: string): SupplyRow | undefined => parsed.rows.find((r) => r.code === code);
const ANSM = 'https://ansm.sante.fr/disponibilites-des-produits-de-sante/medicaments/';

describe('fr-ansm-supply on the real BDPM availability list (January 2026)', () => {
  it('reads the Latin-1 CRLF file, keys notices by CIP13 or else CIS, and maps the four statuses', async () => {
    // A name the release never uses: the file is recognised by its content.
    const parsed = await parseFrAnsmSupply([{ name: 'disponibilite.txt', content: REAL }]);
    expect(parsed.source).toMatchObject({ id: 'fr-ansm-supply', country: 'FR' });
    expect(parsed.problems).toEqual([]);
    // 32 rows: one exact repeat, three older notices of a medicine with a newer one.
    expect(parsed.files).toEqual([{ file: 'disponibilite.txt', role: 'availability', read: 32, kept: 28, malformed: 0, excluded: { duplicate: 1, superseded: 3 } }]);
    expect(parsed.files.every(balanced)).toBe(true);
    expect(byCode(parsed, '3400955028284')).toEqual({
      system: 'cip13', code: '3400955028284', status: 'unavailable', reason: null, since: '2025-11-12', expectedUntil: null,
      record: { cis: '62308535', status: 'Rupture de stock', status_code: 1, updated_on: '2026-01-07', ansm_url: `${ANSM}gemcitabine-sun-10-mg-ml-solution-pour-perfusion-en-poche-de-120-ml-gemcitabine-chlorhydrate-de` },
    });
    expect(byCode(parsed, '62533756')).toMatchObject({ system: 'cis', status: 'discontinued', since: '2025-12-29', record: { status: 'Arrêt de commercialisation' } });
    expect(byCode(parsed, '60284142')).toMatchObject({ system: 'cis', status: 'limited', since: '2025-08-13' });
    // Lower-case labels of older notices read the same; back in supply since the date it came back.
    expect(byCode(parsed, '65195181')).toMatchObject({ status: 'available', since: '2025-10-29', record: { status: 'remise à disposition', back_on: '2025-10-29' } });
    expect(parsed.rows.filter((r) => r.record.cis === '65502207').map((r) => [r.system, r.code, r.status])).toEqual([
      ['cip13', '3400957517977', 'available'], ['cip13', '3400957518288', 'available'], ['cip13', '3400957518110', 'available'],
    ]);
    expect(parsed.partial).toBe(false);
  });

  it('keeps the notice updated last for a medicine the file lists more than once', async () => {
    const parsed = await parseFrAnsmSupply([{ name: 'CIS_CIP_Dispo_Spec.txt', content: REAL }]);
    // Tension since January 2026 (updated 19/01) over the May 2025 return (updated 09/05/2025).
    expect(byCode(parsed, '62110699')).toMatchObject({ status: 'limited', since: '2026-01-07' });
    expect(byCode(parsed, '61951090')).toMatchObject({ status: 'limited', since: '2026-01-09', record: { updated_on: '2026-01-23' } });
    // Both updated 07/01/2026: the return of 29/12/2025 follows the shortage begun 12/05/2025.
    expect(byCode(parsed, '68878549')).toMatchObject({ status: 'available', since: '2025-12-29' });
  });
});

describe('fr-ansm-supply on awkward rows', () => {
  const text = [
    '60000001\t\t2\tTension d’approvisionnement\t03/07/2025\t\t\thttps://ansm.sante.fr/a',
    '60000002\t3400900000015\t4\tRemise à disposition\t01/02/2026\t02/02/2026\t\t',
    '60000003\t\t1\tRupture de stock\t31/02/2026\t01/03/2026\t\thttps://ansm.sante.fr/c',
    '60000004\t\t7\tStatut inconnu\t01/03/2026\t01/03/2026\t\thttps://ansm.sante.fr/d',
    '60000005\t\t1\tRemise à disposition\t01/03/2026\t01/03/2026\t\thttps://ansm.sante.fr/e',
    '60000006\t340090000001\t1\tRupture de stock\t01/03/2026\t01/03/2026\t\thttps://ansm.sante.fr/f',
    '60000007\t\t1\tRupture de stock',
    '',
    '60000008\t\t3\tArrêt de commercialisation\t\t\t\t',
  ].join('\n');

  it('reads UTF-8 with LF and empty dates, and refuses bad rows with file:line', async () => {
    const parsed = await parseFrAnsmSupply([{ name: 'CIS_CIP_Dispo_Spec.txt', content: Buffer.from(text, 'utf8') }]);
    expect(parsed.rows.map((r) => [r.system, r.code, r.status, r.since, r.record.updated_on ?? null])).toEqual([
      // A label with a typographic apostrophe still carries its code.
      ['cis', '60000001', 'limited', '2025-07-03', null],
      // Back without a return date: since the notice began.
      ['cip13', '3400900000015', 'available', '2026-02-01', '2026-02-02'],
      ['cis', '60000008', 'discontinued', null, null],
    ]);
    expect(parsed.problems.map((p) => `${p.file}:${p.line}: ${p.message}`)).toEqual([
      'CIS_CIP_Dispo_Spec.txt:3: start date "31/02/2026" is not DD/MM/YYYY',
      'CIS_CIP_Dispo_Spec.txt:4: status "7" "Statut inconnu" is not 1 to 4 with a label',
      'CIS_CIP_Dispo_Spec.txt:5: status code 1 contradicts its label "Remise à disposition"',
      'CIS_CIP_Dispo_Spec.txt:6: CIP13 "340090000001" is not 13 digits',
      'CIS_CIP_Dispo_Spec.txt:7: expected 8 tab-separated fields, got 4',
    ]);
    expect(parsed.files[0]).toMatchObject({ read: 8, kept: 3, malformed: 5 });
  });

  it('refuses a file that is not the availability list', async () => {
    const other = Buffer.from('60002283\tANASTROZOLE ACCORD 1 mg, comprimé pelliculé\tcomprimé pelliculé\torale\n');
    await expect(parseFrAnsmSupply([{ name: 'CIS_CIP_Dispo_Spec.txt', content: other }])).rejects.toThrow(FileRejectedError);
  });
});
