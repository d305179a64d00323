import { describe, expect, it } from 'vitest';
import { describedContent, packDdds, pricePerDdd, storedContent } from '../../resolvers/markets/price-per-ddd.ts';
import type { PackInput } from '../../resolvers/markets/price-per-ddd.ts';
import { dddsForProduct, whoRoutes } from '../../resolvers/markets/who-route.ts';
import type { RouteClues } from '../../resolvers/markets/who-route.ts';
import type { ReasonCode } from '../../resolvers/markets/reasons.ts';

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
    // Festbetrag: Packungsgröße as units, the Darreichungsform code as the unit (`50` `FTA`).
    ['Festbetrag 50 FTA × 400 mg, DDD 1.2 g', { units: 50, unit: 'FTA', description: '50 FTA', strengthValue: 400, strengthUnit: 'mg', ddd: { value: 1.2, unit: 'g' } }, 50 / 3],
    ['a multipack of unit doses: 3 × 28 × 20 mg', { description: '3 x 28', strengthValue: 20, strengthUnit: 'mg', ddd: { value: 30, unit: 'mg' } }, 56],
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

  it('reads the concentration a strength per unit leaves out from the product name (insulin vials)', () => {
    // SL: `Insulinum humanum` 100 IE beside `Actrapid HM Inj Lös 100 IE/ml`, pack `Durchstf 10 ml`:
    // 100 IE/ml × 10 ml = 1 000 IE = 25 DDD of 40 U — not 100 IE for the vial (2.5 DDD).
    const vial = { units: 10, unit: 'ml', description: 'Durchstf 10 ml', strengthValue: 100, strengthUnit: 'IE', ddd: { value: 40, unit: 'U' } };
    expect(ddds({ ...vial, name: 'Actrapid HM Inj Lös 100 IE/ml' })).toBe(25);
    expect(ddds({ ...vial, name: 'Humalog Inj Lös 100 U/ml' })).toBe(25);
    // Cartridges: 5 × 3 ml × 100 IE/ml = 1 500 IE = 37.5 DDD.
    expect(ddds({ ...vial, units: 15, description: 'Insulatard Inj Susp 100 IE/ml 5 Penfill 3 ml', name: 'Insulatard Inj Susp 100 IE/ml' })).toBe(37.5);
    // An ampoule's strength per ampoule stays one (`4 mg/2ml`: 4 mg in each 2 ml ampoule).
    expect(ddds({ description: 'Amp 5 x 2 ml', strengthValue: 4, strengthUnit: 'mg', name: 'Zofran Inj Lös 4 mg/2ml', ddd: { value: 16, unit: 'mg' } })).toBe(1.25);
    // A name whose concentration is of another amount does not change the strength.
    expect(ddds({ ...vial, name: 'Exemplol Inj Lös 40 IE/ml' })).toBe(2.5);
  });

  it('reads that concentration from the pack text when the product name lacks it (Swiss `100 E/ml … 10 ml`)', () => {
    // Refdata/Zur Rose: product `Insulatard HM`, strength 100 U.I., pack `Inj Susp 100 E/ml Durchstf 10 ml`:
    // 1 000 U in the vial = 25 DDD of 40 U (it was counted as 100 U, 2.5 DDD: ten times too dear).
    const pack = { units: null, unit: null, strengthValue: 100, strengthUnit: 'U.I.', name: 'Insulatard HM', ddd: { value: 40, unit: 'U' } };
    expect(ddds({ ...pack, description: 'Inj Susp 100 E/ml Durchstf 10 ml' })).toBe(25);
    expect(ddds({ ...pack, description: 'Durchstf 10 ml' })).toBe(2.5);
  });

  it('counts a salt strength as its moiety', () => {
    // 14 × 200 mg metoprolol tartrate × 0.78082 = 2 186.3 mg metoprolol = 14.575 DDD of 150 mg.
    expect(ddds({ description: '14 Stk', strengthValue: 200, strengthUnit: 'mg', moietyFactor: 534.72 / 684.81, ddd: { value: 0.15, unit: 'g' } }))
      .toBeCloseTo((14 * 200 * 534.72) / 684.81 / 150, 8);
    // Units and mmol need no conversion (heparin sodium in IE).
    expect(ddds({ description: '10 Amp 1 ml', strengthValue: 5000, strengthUnit: 'IE/ml', moietyFactor: { reason: 'salt_not_converted' }, ddd: { value: 10, unit: 'TU' } })).toBe(5);
  });

  it('tries each DDD of the route', () => {
    expect(ddds({ description: '20 Stk', strengthValue: 500, strengthUnit: 'mg', ddd: [{ value: 2, unit: 'tablet' }, { value: 1, unit: 'g' }] })).toBe(10);
  });

  it.each<[string, Partial<PackInput>, ReasonCode]>([
    ['a release rate', { description: '10 Pflaster', strengthValue: 12, strengthUnit: 'µg/h', ddd: { value: 1.2, unit: 'mg' } }, 'strength_release_rate'],
    ['units against a mass DDD', { description: '10 Amp 1 ml', strengthValue: 5000, strengthUnit: 'IE/ml', ddd: { value: 30, unit: 'mg' } }, 'dimension_mismatch'],
    ['a concentration without a volume', { description: '10 Stk', strengthValue: 5, strengthUnit: 'mg/ml', ddd: { value: 30, unit: 'mg' } }, 'pack_volume_unknown'],
    ['a strength per unit in a bottle', { description: '1 flacon(s) en verre', units: 1, unit: 'flacon(s)', strengthValue: 20, strengthUnit: 'mg', ddd: { value: 30, unit: 'mg' } }, 'pack_counts_containers'],
    ['a strength per unit in a volume', { units: 100, unit: 'ml', strengthValue: 20, strengthUnit: 'mg', ddd: { value: 30, unit: 'mg' } }, 'pack_count_unknown'],
    ['a strength per dose in tablets', { description: '30 Stk', strengthText: '0,5 mg/dose', ddd: { value: 1, unit: 'mg' } }, 'pack_doses_unknown'],
    ['a strength per g without a mass', { description: '30 Stk', strengthValue: 1, strengthUnit: 'mg/g', ddd: { value: 1, unit: 'mg' } }, 'pack_mass_unknown'],
    ['a DDD in tablets for a bottle of ml', { description: 'Flasche 100 ml', strengthValue: 1, strengthUnit: 'mg/ml', ddd: { value: 2, unit: 'tablet' } }, 'ddd_unit_mismatch'],
    ['no size at all', { description: 'Flasche', strengthValue: 20, strengthUnit: 'mg', ddd: { value: 30, unit: 'mg' } }, 'pack_size_unknown'],
    ['`N2` alone (a size class, not a count)', { description: 'N2', strengthValue: 20, strengthUnit: 'mg', ddd: { value: 30, unit: 'mg' } }, 'pack_size_unknown'],
    ['no DDD', { description: '30 Stk', strengthValue: 20, strengthUnit: 'mg' }, 'no_ddd'],
    ['the route the caller could not choose', { description: '30 Stk', strengthValue: 20, strengthUnit: 'mg', ddd: [], dddReason: 'route_unknown' }, 'route_unknown'],
    ['no strength', { description: '30 Stk', ddd: { value: 30, unit: 'mg' } }, 'strength_missing'],
    ['an unreadable strength', { description: '30 Stk', strengthValue: 20, strengthUnit: 'Tropfen', ddd: { value: 30, unit: 'mg' } }, 'strength_unreadable'],
    ['a salt without a conversion', { description: '30 Stk', strengthValue: 20, strengthUnit: 'mg', ddd: { value: 30, unit: 'mg' }, moietyFactor: { reason: 'salt_not_converted' } }, 'salt_not_converted'],
  ])('says why for %s', (_label, input, reason) => {
    expect(ddds(input)).toBe(reason);
  });
});

describe('pricePerDdd', () => {
  it('prices per DDD from the text, else per unit with the reason, else per pack', () => {
    expect(pricePerDdd(pack({ description: '28 Stk', strengthValue: 20, strengthUnit: 'mg', ddd: { value: 30, unit: 'mg' }, priceUsd: 28 })))
      .toMatchObject({ basis: 'per_ddd', pricePerDddUsd: 1.5, reason: null });
    expect(pricePerDdd(pack({ description: '20 Pflaster', strengthValue: 12, strengthUnit: 'µg/h', ddd: { value: 1.2, unit: 'mg' }, priceUsd: 40 })))
      .toMatchObject({ basis: 'per_unit', unitPriceUsd: 2, reason: 'strength_release_rate' });
    expect(pricePerDdd(pack({ description: 'Flasche', priceUsd: 9 }))).toMatchObject({ basis: 'per_pack', packPriceUsd: 9 });
    expect(pricePerDdd(pack({ description: '28 Stk', priceUsd: null }))).toMatchObject({ basis: 'none', reason: 'no_price' });
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
  const clues = (route: string | null, doseForm: string | null, unit: RouteClues['unit'], name: string | null = null): RouteClues => ({ route, doseForm, unit, name });
  it.each<[RouteClues, string[], string[] | null]>([
    [clues('ORAL', null, null), all, ['O']],
    [clues('orale', null, null), all, ['O']],
    [clues('intraveineuse;sous-cutanée', null, null), all, ['P']],
    [clues('Oral', null, null), ['P'], []],
    // Route fields as NDC (ROUTENAME), dm+d (ROUTE lookup) and BDPM write them.
    [clues('SUBLINGUAL', null, null), ['O', 'SL'], ['SL']],
    [clues('TRANSDERMAL', null, null), ['TD', 'O'], ['TD']],
    [clues('RESPIRATORY (INHALATION)', null, null), ['Inhal', 'O'], ['Inhal']],
    [clues('NASAL', null, null), ['N', 'P'], ['N']],
    [clues('rectale', null, null), all, ['R']],
    [clues('vaginale', null, null), ['V', 'O'], ['V']],
    [clues('Subcutaneous, Intravenous', null, null), all, ['P']],
    [clues('OPHTHALMIC', null, null), all, []],
    [clues(null, 'comprimé pelliculé sécable', null), all, ['O']],
    [clues(null, 'Filmtabletten', null), all, ['O']],
    [clues(null, 'Suppositorien', null), all, ['R']],
    [clues(null, 'FTA', null), all, ['O']],
    [clues(null, null, 'vial'), all, ['P']],
    [clues(null, null, 'piece'), ['O'], ['O']],
    [clues(null, null, 'piece'), all, null],
    // SL: neither route nor form, the form in the name.
    [clues(null, null, 'piece', 'Lopresor Retard Divitabs 200 mg'), all, ['O']],
    [clues(null, null, 'vial', 'Dafalgan Supp 600 mg'), all, ['R']],
    [clues('cutaneous', null, null), ['O'], []],
    [clues(null, 'Creme', 'tube'), ['O'], []],
    [clues(null, 'comprimé', null), ['P'], []],
  ])('%o', (given, available, expected) => {
    expect(whoRoutes(given, available)).toEqual(expected);
  });
});

describe('dddsForProduct', () => {
  const metoprolol = [{ value: 0.15, unit: 'g', route: 'O' }, { value: 0.15, unit: 'g', route: 'P' }];
  const morphine = [{ value: 0.1, unit: 'g', route: 'O' }, { value: 30, unit: 'mg', route: 'P' }];
  const none = { route: null, doseForm: null, name: 'Exemplol 200 mg', unit: 'piece' as const };
  it('needs no route where every route has the same DDD', () => {
    expect(dddsForProduct(none, metoprolol)).toEqual({ ddds: [metoprolol[0]] });
  });
  it('says the route is unknown where the routes differ, and names a route without a DDD', () => {
    expect(dddsForProduct(none, morphine)).toEqual({ reason: 'route_unknown' });
    expect(dddsForProduct({ ...none, name: 'Exemplol Supp 10 mg' }, morphine)).toEqual({ reason: 'no_ddd_for_route' });
    expect(dddsForProduct({ ...none, name: 'Exemplol Creme' }, metoprolol)).toEqual({ reason: 'no_ddd_for_route' });
    expect(dddsForProduct(none, [])).toEqual({ reason: 'no_ddd' });
  });
  it('takes the route the name gives', () => {
    expect(dddsForProduct({ ...none, name: 'Exemplol Inj Lös 10 mg/ml' }, morphine)).toEqual({ ddds: [morphine[1]] });
  });
});
