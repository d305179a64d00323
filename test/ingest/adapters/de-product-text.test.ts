import { describe, expect, it } from 'vitest';
import { combinationInText, doseFormInText, normSizeInText, splitPackText, strengthInText, strengthParts } from '../../../workers/ingest/adapters/de-product-text.ts';

describe('German product texts', () => {
  it('reads the first strength as written: mass, per volume, per puff, units with a thousands point, percent', () => {
    expect(strengthInText('Ibuprofen 400 mg Filmtabletten 30 St N1')).toBe('400 mg');
    expect(strengthInText('Novalgin Tropfen 500 mg/ml 50 ml N2')).toBe('500 mg/ml');
    expect(strengthInText('Salbutamol 0,1 mg/Hub Dosieraerosol')).toBe('0,1 mg/Hub');
    expect(strengthInText('Heparin-ratiopharm 25.000 I.E./5 ml Injektionslösung')).toBe('25.000 I.E./5ml');
    expect(strengthInText('Otriven 0,1 % Nasenspray')).toBe('0,1 %');
    expect(strengthInText('ACC akut 600 Brausetabletten')).toBeNull();
  });

  it('reads the dose form from a German form word or an IFA abbreviation, and the Normgröße', () => {
    expect(doseFormInText('Ibuprofen 400 mg Filmtabletten')).toBe('Filmtabletten');
    expect(doseFormInText('Salbutamol 0,1 mg/Hub Dosieraerosol')).toBe('Dosieraerosol');
    expect(doseFormInText('IBUPROFEN AL 400 FTA 50 ST N2')).toBe('FTA');
    expect(doseFormInText('Gelomyrtol forte 120 mg')).toBeNull();
    expect(normSizeInText('IBUPROFEN AL 400 FTA 50 ST N2')).toBe('N2');
    expect(normSizeInText('Vitamin N 100 St')).toBeNull();
  });

  it('cuts the pack part off a product text', () => {
    expect(splitPackText('Ibuprofen AbZ 400 mg Filmtabletten 5X10 St N2')).toEqual({ product: 'Ibuprofen AbZ 400 mg Filmtabletten', pack: '5X10 St N2' });
    expect(splitPackText('Bepanthen Wund- und Heilsalbe; 100 g')).toEqual({ product: 'Bepanthen Wund- und Heilsalbe', pack: '100 g' });
    expect(splitPackText('Ibuprofen 400 mg Filmtabletten')).toEqual({ product: 'Ibuprofen 400 mg Filmtabletten', pack: null });
  });

  it('reads the substances of a combination written out, each with its strength; a brand is never one', () => {
    expect(combinationInText('Allopurinol 100 mg + Benzbromaron 20 mg')).toEqual([
      { name: 'Allopurinol', strength: '100 mg', value: 100, unit: 'mg' },
      { name: 'Benzbromaron', strength: '20 mg', value: 20, unit: 'mg' },
    ]);
    expect(combinationInText('Allopurinol 100 mg + Benzbromaron 20 mg Tabletten')?.map((i) => i.name)).toEqual(['Allopurinol', 'Benzbromaron']);
    expect(combinationInText('Aspirin plus C')).toBeNull();
    expect(combinationInText('Aspirin + C Brausetabletten')).toBeNull();
    expect(combinationInText('Ibuprofen 400 mg Filmtabletten')).toBeNull();
    expect(strengthParts('1.000 I.E.')).toEqual({ value: 1000, unit: 'I.E.' });
    expect(strengthParts('0,5 mg/ml')).toEqual({ value: 0.5, unit: 'mg/ml' });
  });
});
