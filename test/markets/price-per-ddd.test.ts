import { describe, expect, it } from 'vitest';
import { describedContent, packDdds, pricePerDdd, storedContent } from '../../resolvers/markets/price-per-ddd.ts';
import type { PackInput } from '../../resolvers/markets/price-per-ddd.ts';
import { whoRoutes } from '../../resolvers/markets/who-route.ts';

const base: PackInput = { units: null, unit: null, strengthValue: null, strengthUnit: null, priceUsd: 10, ddd: null };
const pack = (p: Partial<PackInput>): PackInput => ({ ...base, ...p });
const ddds = (p: Partial<PackInput>): number | string => {
  const r = packDdds(pack(p));
  return 'ddds' in r ? Number(r.ddds.toPrecision(10)) : r.reason;
};

describe('DDDs in real packs (text only, no stored units)', () => {
  it.each<[string, Partial<PackInput>, number]>([
    ['SL 28 Stk × 20 mg, DDD 30 mg', { description: '28 Stk', strengthValue: 20, strengthUnit: 'mg', ddd: { value: 30, unit: 'mg' } }, 560 / 30],
    ['BDPM 2 × 14 comprimés × 1 g, DDD 3 g', { description: '2 plaquette(s) thermoformée(s) PVC-aluminium de 14 comprimé(s)', strengthText: '1 g', ddd: { value: 3, unit: 'g' } }, 28 / 3],
    ['NDC 90 tablets × 10 mg/1', { description: '1 BOTTLE in 1 CARTON > 90 TABLET in 1 BOTTLE', strengthValue: 10, strengthUnit: 'mg/1', ddd: { value: 30, unit: 'mg' } }, 30],
    ['NDC 10 vials × 2 mL × 40 mg/mL, DDD 2 g P', { description: '10 VIAL in 1 CARTON > 2 mL in 1 VIAL', strengthValue: 40, strengthUnit: 'mg/mL', ddd: { value: 2, unit: 'g' } }, 0.4],
    ['dm+d 28 tablet × 40 mg (strength in the name)', { description: 'Simvastatin 40mg tablets 28 tablet', strengthValue: 40, strengthUnit: 'mg', ddd: { value: 30, unit: 'mg' } }, 1120 / 30],
    ['Refdata insulin 100 IE/ml × 10 ml vial, DDD 40 U', { description: 'HUMALOG Inj Lös 100 IE/ml Durchstf 10 ml', strengthValue: 100, strengthUnit: 'IE/ml', ddd: { value: 40, unit: 'U' } }, 25],
    ['BDPM 1 000 UI/ml × 10 ampoules of 2 ml, DDD 10 TU', { description: '10 ampoule(s) en verre de 2 ml', strengthText: '1 000 UI/ml', ddd: { value: 10, unit: 'TU' } }, 2],
    ['MU strengths against a DDD in MU', { description: '10 Durchstf', strengthValue: 1, strengthUnit: 'Mio. IE', ddd: { value: 3, unit: 'MU' } }, 10 / 3],
    ['250 mg/5 ml × 100 ml bottle, DDD 1.5 g', { description: '1 flacon(s) en verre de 100 ml', strengthValue: 250, strengthUnit: 'mg/5 ml', ddd: { value: 1.5, unit: 'g' } }, 5000 / 1500],
    ['0,5 mg/dose × 200 doses, DDD 0.8 mg', { description: '1 CANISTER in 1 CARTON > 200 AEROSOL, METERED in 1 CANISTER', strengthText: '0,5 mg/dose', ddd: { value: 0.8, unit: 'mg' } }, 125],
    ['1 % × 30 g tube, DDD 0.1 g', { description: 'Tb 30 g', strengthValue: 1, strengthUnit: '%', ddd: { value: 0.1, unit: 'g' } }, 3],
    ['4 x 112 Kapsel(n) × 250 mg', { description: '4 x 112 Kapsel(n)', strengthValue: 250, strengthUnit: 'mg', ddd: { value: 1, unit: 'g' } }, 112],
    ['a DDD in tablets counts tablets', { description: '30 Tablette(n)', strengthValue: 20, strengthUnit: 'mg', ddd: { value: 2, unit: 'tablet' } }, 15],
    ['the moiety-free mmol dimension', { description: '20 Btl', strengthValue: 8, strengthUnit: 'mmol', ddd: { value: 20, unit: 'mmol' } }, 8],
  ])('%s', (_label, input, expected) => {
    expect(ddds(input)).toBeCloseTo(expected, 8);
  });

  it('prefers the stored units, and falls back on the text when they cannot carry the arithmetic', () => {
    // Stored 10 ml (leadingQuantity of `Durchstf 10 ml`) with a strength per vial: the text gives 1 vial.
    expect(ddds({ units: 10, unit: 'ml', description: 'Durchstf 10 ml', strengthValue: 500, strengthUnit: 'mg', ddd: { value: 1, unit: 'g' } })).toBe(0.5);
    expect(ddds({ units: 30, unit: 'tablets', description: 'whatever', strengthValue: 20, strengthUnit: 'mg', ddd: { value: 30, unit: 'mg' } })).toBe(20);
    expect(ddds({ units: 1, unit: 'seringue(s)', quantity: { value: 0.5, unit: 'ml' }, strengthValue: 100, strengthUnit: 'mg/ml', ddd: { value: 40, unit: 'mg' } })).toBe(1.25);
  });

  it('reads a nested FDA text before the innermost level the adapter stored', () => {
    expect(ddds({ units: 2, unit: 'mL', description: '10 VIAL in 1 CARTON > 2 mL in 1 VIAL', strengthValue: 40, strengthUnit: 'mg/mL', ddd: { value: 2, unit: 'g' } })).toBe(0.4);
  });

  it('tries each DDD of the route', () => {
    expect(ddds({ description: '20 Stk', strengthValue: 500, strengthUnit: 'mg', ddd: [{ value: 2, unit: 'tablet' }, { value: 1, unit: 'g' }] })).toBe(10);
  });

  it.each<[string, Partial<PackInput>, string]>([
    ['a release rate', { description: '10 Pflaster', strengthValue: 12, strengthUnit: 'µg/h', ddd: { value: 1.2, unit: 'mg' } }, 'the strength is a release rate per hour'],
    ['units against a mass DDD', { description: '10 Amp 1 ml', strengthValue: 5000, strengthUnit: 'IE/ml', ddd: { value: 30, unit: 'mg' } }, 'the strength is in U but the DDD in mg'],
    ['a concentration without a volume', { description: '10 Stk', strengthValue: 5, strengthUnit: 'mg/ml', ddd: { value: 30, unit: 'mg' } }, 'the strength is a concentration but the pack volume is unknown'],
    ['a strength per unit in a bottle', { description: '1 flacon(s) en verre', units: 1, unit: 'flacon(s)', strengthValue: 20, strengthUnit: 'mg', ddd: { value: 30, unit: 'mg' } }, 'the strength is per unit but the pack counts bottles'],
    ['no size at all', { description: 'Flasche', strengthValue: 20, strengthUnit: 'mg', ddd: { value: 30, unit: 'mg' } }, 'the pack size is unknown'],
    ['no DDD', { description: '30 Stk', strengthValue: 20, strengthUnit: 'mg' }, 'no DDD for this ATC code and route'],
    ['no strength', { description: '30 Stk', ddd: { value: 30, unit: 'mg' } }, 'no strength value'],
  ])('says why for %s', (_label, input, reason) => {
    expect(ddds(input)).toBe(reason);
  });
});

describe('pricePerDdd', () => {
  it('prices per DDD from the text, else per unit with the reason, else per pack', () => {
    expect(pricePerDdd(pack({ description: '28 Stk', strengthValue: 20, strengthUnit: 'mg', ddd: { value: 30, unit: 'mg' }, priceUsd: 28 })))
      .toMatchObject({ basis: 'per_ddd', pricePerDddUsd: 1.5, reason: null });
    expect(pricePerDdd(pack({ description: '20 Pflaster', strengthValue: 12, strengthUnit: 'µg/h', ddd: { value: 1.2, unit: 'mg' }, priceUsd: 40 })))
      .toMatchObject({ basis: 'per_unit', unitPriceUsd: 2, reason: 'the strength is a release rate per hour' });
    expect(pricePerDdd(pack({ description: 'Flasche', priceUsd: 9 }))).toMatchObject({ basis: 'per_pack', packPriceUsd: 9 });
    expect(pricePerDdd(pack({ description: '28 Stk', priceUsd: null }))).toMatchObject({ basis: 'none' });
  });
});

describe('pack content', () => {
  it('reads stored units, total quantities and pack texts', () => {
    expect(storedContent(30, 'Stk')).toEqual({ count: 30, unit: 'piece', volumeMl: null, massG: null });
    expect(storedContent(1, 'l')).toEqual({ count: null, unit: null, volumeMl: 1000, massG: null });
    expect(storedContent(null, null)).toBeNull();
    expect(describedContent('10 ampoule(s) en verre de 2 ml')).toEqual({ count: 10, unit: 'ampoule', volumeMl: 20, massG: null });
    expect(describedContent('Amoxicillin 250mg/5ml oral suspension 100 ml')).toEqual({ count: null, unit: null, volumeMl: 100, massG: null });
  });
});

describe('whoRoutes', () => {
  const all = ['O', 'P', 'R'];
  it.each<[string | null, string | null, Parameters<typeof whoRoutes>[2], string[], string[]]>([
    ['ORAL', null, null, all, ['O']],
    ['orale', null, null, all, ['O']],
    ['intraveineuse;sous-cutanée', null, null, all, ['P']],
    ['Oral', null, null, ['P'], []],
    [null, 'comprimé pelliculé sécable', null, all, ['O']],
    [null, 'Filmtabletten', null, all, ['O']],
    [null, 'Suppositorien', null, all, ['R']],
    [null, null, 'vial', all, ['P']],
    [null, null, 'piece', ['O'], ['O']],
    [null, null, 'piece', all, []],
    ['cutaneous', null, null, ['O'], []],
    [null, 'Creme', 'tube', ['O'], []],
    [null, 'comprimé', null, ['P'], []],
  ])('route %s, form %s, unit %s', (route, form, unit, available, expected) => {
    expect(whoRoutes(route, form, unit, available)).toEqual(expected);
  });
});
