/**
 * fr-bdpm on a real BDPM release (test/fixtures/registers/fr-bdpm/real, SOURCE.md there): the
 * eight files of a 2021 download, cut to 15 medicines, original bytes (Windows-1252, LF).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseFrBdpm } from '../../../workers/ingest/adapters/fr-bdpm.ts';
import { parseFrAnsmSupply } from '../../../workers/ingest/adapters/fr-ansm-supply.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';

const DIR = new URL('../../fixtures/registers/fr-bdpm/real/', import.meta.url);
const real = (name: string, as = name): InputFile => ({ name: as, content: readFileSync(new URL(name, DIR)) });
const RELEASE = () => readdirSync(DIR).filter((n) => n.endsWith('.txt')).sort().map((n) => real(n));

describe('fr-bdpm on a real BDPM release', () => {
  const { snapshot, problems, files } = parseFrBdpm(RELEASE());
  const product = (cis: string) => snapshot.products?.find((p) => p.key === cis);

  it('counts every row of every file: kept, or excluded when its CIS is not in the release', () => {
    expect(files?.map((f) => [f.file, f.role, f.read, f.kept, f.malformed, f.excluded ?? {}])).toEqual([
      ['CIS_CIP_bdpm.txt', 'CIS_CIP_bdpm', 28, 27, 0, { no_product: 1 }],
      ['CIS_COMPO_bdpm.txt', 'CIS_COMPO_bdpm', 21, 21, 0, {}],
      ['CIS_CPD_bdpm.txt', 'CIS_CPD_bdpm', 30, 30, 0, {}],
      ['CIS_GENER_bdpm.txt', 'CIS_GENER_bdpm', 15, 15, 0, {}],
      ['CIS_HAS_ASMR_bdpm.txt', 'CIS_HAS_ASMR_bdpm', 21, 21, 0, {}],
      ['CIS_HAS_SMR_bdpm.txt', 'CIS_HAS_SMR_bdpm', 24, 22, 0, { no_product: 2 }],
      ['CIS_bdpm.txt', 'CIS_bdpm', 15, 15, 0, {}],
      ['HAS_LiensPageCT_bdpm.txt', 'HAS_LiensPageCT_bdpm', 19, 19, 0, {}],
    ]);
    expect(files?.every(balanced)).toBe(true);
    expect(problems).toEqual([]);
    expect(snapshot.products).toHaveLength(15);
    expect(snapshot.products?.flatMap((p) => p.packs)).toHaveLength(27);
  });

  it('reads the real availability list as fr-ansm-supply does: the same current notices, here of medicines the release lacks', async () => {
    // The 2026 list beside the 2021 release: no CIS in common, so every current notice is `no_product`.
    const list = { name: 'CIS_CIP_Dispo_Spec.txt', content: readFileSync(new URL('../../fixtures/registers/fr-ansm-supply/real/CIS_CIP_Dispo_Spec_20260126_excerpt.txt', import.meta.url)) };
    const report = parseFrBdpm([...RELEASE(), list]).files?.find((f) => f.role === 'CIS_CIP_Dispo_Spec');
    expect(report).toMatchObject({ read: 32, kept: 0, malformed: 0, excluded: { duplicate: 1, superseded: 3, no_product: 28 } });
    const supply = await parseFrAnsmSupply([list]);
    expect(supply.files[0]).toMatchObject({ read: 32, kept: 28, malformed: 0, excluded: { duplicate: 1, superseded: 3 } });
  });

  it('reads ARIXTRA as the files say: EU number, holder, AMM date, packs with CIP13, prices and rate', () => {
    // CIS_bdpm.txt: 66048056 ARIXTRA 7,5 mg/0,6 ml ... 12/11/2004 ... EU/1/02/206 ... ASPEN PHARMA TRADING (IRLANDE)
    expect(product('66048056')).toMatchObject({
      product_name: 'ARIXTRA 7,5 mg/0,6 ml, solution injectable en seringue pré-remplie',
      identifiers: [{ system: 'cis', code: '66048056' }, { system: 'eu_number', code: 'EU/1/02/206' }],
      holder: 'ASPEN PHARMA TRADING (IRLANDE)', authorised_on: '2004-11-12', route: 'sous-cutanée',
      dispensing_category: 'Liste I', generic: false,
      generic_groups: [{ code: '1395', role: 'princeps' }],
      ingredients: [{ unii: 'bdpm:71082', strength_value: 7.5, strength_unit: 'mg' }],
    });
    // CIS_CIP_bdpm.txt line 17: 3656505 ... 3400936565050 oui 65% 24,84 25,86 1,02
    expect(product('66048056')?.packs[0]).toMatchObject({
      key: '3400936565050', units: 2, unit: 'seringue(s)', quantity: { value: 1.2, unit: 'ml' }, reimbursement_rate_percent: 65,
      prices: [{ amount: 24.84, currency: 'EUR', kind: 'list' }, { amount: 25.86, currency: 'EUR', kind: 'public' }],
    });
  });

  it('gives each HAS opinion its level, date and dossier page', () => {
    const assessments = product('66048056')?.assessments ?? [];
    // CIS_HAS_ASMR_bdpm.txt line 21: CT-1552, Inscription (CT), 20050921, IV
    expect(assessments).toContainEqual(expect.objectContaining({ kind: 'asmr', value: 'IV', date: '2005-09-21', code: 'CT-1552' }));
    // CIS_HAS_SMR_bdpm.txt lines 15-17: CT-13636 of 20151202, Important, Insuffisant and Modéré
    expect(assessments.filter((a) => a.code === 'CT-13636').map((a) => a.value).sort()).toEqual(['Important', 'Insuffisant', 'Modéré']);
    // HAS_LiensPageCT_bdpm.txt line 9: CT-13636 https://www.has-sante.fr/jcms/c_2583335; CT-1552 has no line there.
    expect(assessments.find((a) => a.code === 'CT-13636')?.url).toBe('https://www.has-sante.fr/jcms/c_2583335');
    expect(assessments.find((a) => a.code === 'CT-1552')).not.toHaveProperty('url');
  });

  it('knows the files by their rows under other names: .csv copies, a dated name, an unknown member unused', () => {
    const renamed = RELEASE().map((f) => ({ ...f, name: f.name.replace(/\.txt$/, f.name.startsWith('CIS_bdpm') ? '_20210513.csv' : '.csv') }));
    const again = parseFrBdpm([...renamed, { name: 'LISEZMOI.txt', content: Buffer.from('Base de données publique des médicaments\n') }]);
    expect(again.snapshot.products).toHaveLength(15);
    expect(again.files?.find((f) => f.file === 'CIS_bdpm_20210513.csv')).toMatchObject({ role: 'CIS_bdpm', read: 15, kept: 15 });
    expect(again.files?.at(-1)).toMatchObject({ file: 'LISEZMOI.txt', role: 'unused', read: 0 });
  });

  it('refuses a truncated CIS_bdpm, an empty file and a file of another register, writing nothing', () => {
    const core = () => [real('CIS_CIP_bdpm.txt')];
    const cut = { name: 'CIS_bdpm.txt', content: real('CIS_bdpm.txt').content.subarray(0, 60) };
    expect(() => parseFrBdpm([cut, ...core()])).toThrow(/no CIS_bdpm file among the files given/);
    expect(() => parseFrBdpm([{ name: 'CIS_bdpm.txt', content: Buffer.alloc(0) }, ...core()])).toThrow(FileRejectedError);
    const other = { name: 'CIS_bdpm.txt', content: readFileSync(new URL('../../fixtures/registers/ch-sl-groups/real/bag_sl_group_prices.csv', import.meta.url)) };
    expect(() => parseFrBdpm([other, ...core()])).toThrow(/no CIS_bdpm file among the files given/);
  });
});
