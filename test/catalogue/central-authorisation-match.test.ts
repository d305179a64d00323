import { describe, expect, it } from 'vitest';
import { brandOf, holderWords, matchCentral, sameHolder, sameSubstances } from '../../resolvers/catalogue/central-authorisation-match.ts';
import type { EmaFacts, NationalFacts } from '../../resolvers/catalogue/central-authorisation-match.ts';

const ema = (over: Partial<EmaFacts>): EmaFacts => ({
  id: 'e1', productName: 'Abilify', holder: 'Otsuka Pharmaceutical Netherlands B.V.', euNumbers: [], procedures: ['EMEA/H/C/000471'], substances: ['aripiprazole'], ...over,
});
const national = (over: Partial<NationalFacts>): NationalFacts => ({
  productName: 'ABILIFY 10 mg, comprimé', brand: null, holder: 'OTSUKA PHARMACEUTICAL NETHERLANDS', euNumbers: ['EU/1/04/276'], procedures: [],
  ingredients: [['ARIPIPRAZOLE']], ...over,
});

describe('central authorisation matching', () => {
  it('reads brands, holders and substances the way national registers print them', () => {
    expect(brandOf('ABILIFY MAINTENA 400 mg, poudre et solvant', null)).toBe('ABILIFY MAINTENA');
    expect(brandOf('Whatever', 'Co-Aprovel')).toBe('CO APROVEL');
    expect(holderWords('Laboratoires Servier S.A.S.')).toEqual(['LABORATOIRES', 'SERVIER']);
    expect(holderWords('NOVO NORDISK (DANEMARK)')).toEqual(['NOVO', 'NORDISK']);
    expect(sameHolder('Novo Nordisk A/S', 'NOVO NORDISK (DANEMARK)')).toBe(true);
    expect(sameHolder('Bayer AG', 'BAYER HEALTHCARE')).toBe(true);
    expect(sameHolder('Bayer AG', 'Teva B.V.')).toBe(false);
    expect(sameHolder('', 'Teva B.V.')).toBe(false);
    expect(sameSubstances(['metformin', 'sitagliptin'], [['CHLORHYDRATE DE METFORMINE', 'METFORMINE'], ['SITAGLIPTINE']])).toBe(true);
    expect(sameSubstances(['metformin'], [['METFORMINE'], ['SITAGLIPTINE']])).toBe(false);
  });

  it('prefers the EU number, then the EMA product number, then name + holder + substance', () => {
    const withEu = ema({ id: 'eu', productName: 'Other', euNumbers: ['EU/1/04/276'] });
    expect(matchCentral(national({}), [ema({}), withEu])).toMatchObject({ ema: { id: 'eu' }, basis: 'eu_number' });
    expect(matchCentral(national({ euNumbers: [], procedures: ['EMEA/H/C/000471'] }), [ema({})])).toMatchObject({ basis: 'ema_product_number' });
    expect(matchCentral(national({}), [ema({})])).toMatchObject({ ema: { id: 'e1' }, basis: 'name_holder_substance' });
  });

  it('matches no name when the holder or substance differs, several records fit, or the national record has no EU number', () => {
    expect(matchCentral(national({ holder: 'PHARMA IMPORT' }), [ema({})])).toBeNull();
    expect(matchCentral(national({ ingredients: [['OLANZAPINE']] }), [ema({})])).toBeNull();
    expect(matchCentral(national({}), [ema({}), ema({ id: 'e2', procedures: ['EMEA/H/C/009999'] })])).toBeNull();
    expect(matchCentral(national({ euNumbers: [] }), [ema({})])).toBeNull();
    expect(matchCentral(national({}), [ema({ euNumbers: ['EU/1/99/999'] })])).toBeNull();
  });
});
