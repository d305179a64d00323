/**
 * The dose-form vocabulary on the registers' own fixture rows, read through their adapters:
 * the BDPM form field, the SL product name (its only form), the Festbetrag form codes, the
 * NDC dosage form and dm+d's form. Each product's route is the one a pharmacist reads.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findAdapter } from '../../workers/ingest/adapters/index.ts';
import type { InputFile } from '../../workers/ingest/adapters/common.ts';
import { routeOfDoseForm } from '../../vocabulary/dose-form-route.ts';
import type { WhoRoute } from '../../vocabulary/dose-form-route.ts';

const REGISTERS = new URL('../fixtures/registers/', import.meta.url);
const file = (path: string): InputFile => ({ name: path.split('/').pop()!, content: readFileSync(new URL(path, REGISTERS)) });
const dir = (name: string, keep: (n: string) => boolean): InputFile[] => readdirSync(new URL(`${name}/`, REGISTERS)).filter(keep).map((n) => file(`${name}/${n}`));

const RELEASES: Array<[string, () => InputFile[]]> = [
  ['fr-bdpm', () => dir('fr-bdpm', (n) => n.endsWith('.txt') && !n.includes('with-header'))],
  ['ch-sl', () => [file('ch-sl/Preparations.xml')]],
  ['ch-sl', () => [file('ch-sl/markets/Preparations.xml')]],
  ['de-pzn', () => [file('de-pzn/festbetraege.csv')]],
  ['fda-ndc', () => [file('fda-ndc/product.txt'), file('fda-ndc/package.txt')]],
  ['gb-dmd', () => dir('gb-dmd', (n) => n.endsWith('.xml'))],
  ['gb-dmd', () => dir('gb-dmd/markets', (n) => n.endsWith('.xml'))],
];

/** Product name → route, for every product of the fixtures. */
const EXPECTED: Record<string, WhoRoute | null> = {
  // BDPM: the form field.
  'DOLIPRANE 1000 mg, comprimé': 'O',
  'METFORMINE EXEMPLE 1000 mg, comprimé pelliculé sécable': 'O',
  'VACCIN EXEMPLE, suspension injectable en seringue préremplie': 'P',
  'GLUCOPHAGE 1000 mg, comprimé pelliculé sécable': 'O',
  'SKENAN L.P. 10 mg, microgranules à libération prolongée en gélule': 'O',
  // SL: no form field; the name's `Filmtabl`, `Kaps`, `Sirup`; a powder goes several ways.
  'Exemplol Filmtabl 500 mg': 'O',
  'Ponstanil Kaps 250 mg': 'O',
  'Glucodiet Sirup': 'O',
  'Lactonova Plv': null,
  'Metoprolol Exempla Retard Divitabs 200 mg': 'O',
  'Metoprolol Exempla i.v. Inj Lös 5 mg/5ml': 'P',
  'Insulin Exempla HM Inj Lös 100 IE/ml': 'P',
  // Festbetrag: Darreichungsform codes BTA and FTA.
  'ACC akut 600 Brausetabletten': 'O',
  'IBU-ratiopharm 400 mg Filmtabletten': 'O',
  // NDC: DOSAGEFORMNAME.
  Ibuprofen: 'O',
  'Migraine Relief Extra Strength': 'O',
  Brandol: 'O',
  // dm+d: the VMP's form.
  'Adenocor 6mg/2ml solution for injection vials': 'P',
  'Adenosine 6mg/2ml solution for injection vials': 'P',
  'Voltarol 12 Hour Emulgel P 2.32% gel': 'local',
  'Pilocarpine hydrochloride 6% eye drops preservative free (Special Order)': 'local',
  'Metoprolol 50mg tablets': 'O',
  'Humulin S 100units/ml solution for injection 10ml vials': 'P',
  'Humulin S 100units/ml solution for injection 3ml cartridges': 'P',
};

describe('dose-form routes of the registers\' fixture products', () => {
  it.each(RELEASES)('%s fixture', async (adapter, files) => {
    const { snapshot } = await findAdapter(adapter)!.parse(files());
    const products = snapshot.products ?? [];
    expect(products.length).toBeGreaterThan(0);
    for (const p of products) {
      expect(p.product_name in EXPECTED, p.product_name).toBe(true);
      expect(routeOfDoseForm(p.dose_form) ?? routeOfDoseForm(p.product_name), p.product_name).toBe(EXPECTED[p.product_name]);
    }
  });

  it('reads every German form code group', () => {
    expect(['VTA', 'NAS', 'DOS', 'SUT', 'TSY', 'AUG'].map(routeOfDoseForm)).toEqual(['V', 'N', 'Inhal', 'SL', 'TD', 'local']);
  });
});
