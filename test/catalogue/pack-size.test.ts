import { describe, expect, it } from 'vitest';
import { normalisePackUnit, packUnits, parsePackSize } from '../../vocabulary/pack-size.ts';
import type { PackSize } from '../../vocabulary/pack-size.ts';

type Expected = Omit<PackSize, 'label' | 'measure_label'>;
const ml = (value: number) => ({ value, unit: 'ml' as const });
const g = (value: number) => ({ value, unit: 'g' as const });

/** Pack texts as each register writes them, with the size a pharmacist reads. */
const TABLE: Record<string, Array<[string, Expected]>> = {
  'CH SL / Refdata / Zur Rose / Swissmedic': [
    ['30 Stk', { count: 30, unit: 'piece' }],
    ['30 Tablette(n)', { count: 30, unit: 'tablet' }],
    ['Durchstf 10 ml', { count: 1, unit: 'vial', per_unit_quantity: ml(10), total: ml(10) }],
    ['4 x 112 Kapsel(n)', { count: 448, unit: 'capsule' }],
    ['3 x 5 ml', { count: 3, unit: 'container', per_unit_quantity: ml(5), total: ml(15) }],
    ['ZOCOR Filmtabl 20 mg 28 Stk', { count: 28, unit: 'tablet' }],
    ['HUMALOG Inj Lös 100 IE/ml Durchstf 10 ml', { count: 1, unit: 'vial', per_unit_quantity: ml(10), total: ml(10) }],
    ['HUMALOG sol inj 100 UI/ml flac 10 ml', { count: 1, unit: 'bottle', per_unit_quantity: ml(10), total: ml(10) }],
    ['Btl 20 Stk', { count: 20, unit: 'sachet' }],
    ['Amp 5 x 2 ml', { count: 5, unit: 'ampoule', per_unit_quantity: ml(2), total: ml(10) }],
    ['Inj Lös 5 Amp 2 ml', { count: 5, unit: 'ampoule', per_unit_quantity: ml(2), total: ml(10) }],
    ['Fertpen 3 ml 5 Stk', { count: 5, unit: 'pen', per_unit_quantity: ml(3), total: ml(15) }],
    ['Tabl 1 g 10 Stk', { count: 10, unit: 'tablet' }],
    ['Insulatard Inj Susp 100 IE/ml 5 Penfill 3 ml', { count: 5, unit: 'cartridge', per_unit_quantity: ml(3), total: ml(15) }],
    ['Liquemine Inj Lös 25000 IE/5ml Durchstf 5 ml', { count: 1, unit: 'vial', per_unit_quantity: ml(5), total: ml(5) }],
    ['Tb 30 g', { count: 1, unit: 'tube', per_unit_quantity: g(30), total: g(30) }],
    ['Fl 1 l', { count: 1, unit: 'bottle', per_unit_quantity: ml(1000), total: ml(1000) }],
    ['200 Dos', { count: 200, unit: 'dose' }],
    ["Tropfen zum Einnehmen 50 ml", { count: 50, unit: 'ml', total: ml(50) }],
  ],
  'FR BDPM': [
    ['plaquette(s) thermoformée(s) PVC-aluminium de 28 comprimé(s)', { count: 28, unit: 'tablet' }],
    ['1 flacon(s) en verre de 100 ml', { count: 1, unit: 'bottle', per_unit_quantity: ml(100), total: ml(100) }],
    ['boîte de 2 plaquettes de 14 comprimés', { count: 28, unit: 'tablet' }],
    ['2 plaquette(s) thermoformée(s) PVC PVDC aluminium de 14 comprimé(s)', { count: 28, unit: 'tablet' }],
    ['10 ampoule(s) en verre de 2 ml', { count: 10, unit: 'ampoule', per_unit_quantity: ml(2), total: ml(20) }],
    ['1 flacon(s) polyéthylène haute densité (PEHD) de 100 ml avec seringue pour administration orale', { count: 1, unit: 'bottle', per_unit_quantity: ml(100), total: ml(100) }],
    ['28 sachet(s) papier aluminium polyéthylène de 5 g', { count: 28, unit: 'sachet', per_unit_quantity: g(5), total: g(140) }],
    ['1 seringue(s) préremplie(s) en verre de 0,5 ml avec aiguille', { count: 1, unit: 'syringe', per_unit_quantity: ml(0.5), total: ml(0.5) }],
    ['1 stylo(s) pré-rempli(s) de 3 ml', { count: 1, unit: 'pen', per_unit_quantity: ml(3), total: ml(3) }],
    ['1 tube(s) aluminium de 30 g', { count: 1, unit: 'tube', per_unit_quantity: g(30), total: g(30) }],
    ['plaquette(s) thermoformée(s) PVC-Aluminium de 30 gélule(s)', { count: 30, unit: 'capsule' }],
  ],
  'US NDC': [
    ['30 CAPSULE in 1 BOTTLE', { count: 30, unit: 'capsule' }],
    ['1 BOTTLE in 1 CARTON > 100 TABLET, FILM COATED in 1 BOTTLE', { count: 100, unit: 'tablet' }],
    ['10 VIAL in 1 CARTON > 2 mL in 1 VIAL', { count: 10, unit: 'vial', per_unit_quantity: ml(2), total: ml(20) }],
    ['100 TABLET, FILM COATED in 1 BOTTLE (0904-5853-61)', { count: 100, unit: 'tablet' }],
    ['5 mL in 1 VIAL, SINGLE-DOSE (1234-5678-90)', { count: 1, unit: 'vial', per_unit_quantity: ml(5), total: ml(5) }],
    ['3 BLISTER PACK in 1 CARTON > 10 TABLET in 1 BLISTER PACK', { count: 30, unit: 'tablet' }],
    ['30 POUCH in 1 CARTON > 1 PATCH in 1 POUCH', { count: 30, unit: 'patch' }],
    ['1 CANISTER in 1 CARTON > 200 AEROSOL, METERED in 1 CANISTER', { count: 200, unit: 'dose' }],
    ['6 CARTON in 1 CASE (0406-8003-12) > 1 BOTTLE, PLASTIC in 1 CARTON > 120 mL in 1 BOTTLE, PLASTIC', { count: 6, unit: 'bottle', per_unit_quantity: ml(120), total: ml(720) }],
    ['100 g in 1 TUBE', { count: 1, unit: 'tube', per_unit_quantity: g(100), total: g(100) }],
  ],
  'GB dm+d': [
    ['28 tablet', { count: 28, unit: 'tablet' }],
    ['1 x 2.5 ml pre-filled syringe', { count: 1, unit: 'syringe', per_unit_quantity: ml(2.5), total: ml(2.5) }],
    ['5 x 3ml pre-filled pen', { count: 5, unit: 'pen', per_unit_quantity: ml(3), total: ml(15) }],
    ['10 x 1ml ampoules', { count: 10, unit: 'ampoule', per_unit_quantity: ml(1), total: ml(10) }],
    ['Simvastatin 40mg tablets (Accord Healthcare Ltd) 28 tablet', { count: 28, unit: 'tablet' }],
    ['Amoxicillin 250mg/5ml oral suspension 100 ml', { count: 100, unit: 'ml', total: ml(100) }],
    ['50 gram', { count: 50, unit: 'g', total: g(50) }],
    ['6 vial', { count: 6, unit: 'vial' }],
    ['Adenocor 6mg/2ml solution for injection vials (Sanofi) 6 vial', { count: 6, unit: 'vial' }],
    ['Humalog 100units/ml solution for injection 3ml cartridges (Eli Lilly) 5 cartridge', { count: 5, unit: 'cartridge', per_unit_quantity: ml(3), total: ml(15) }],
    ['Humulin S 100units/ml solution for injection 3ml cartridges (Eli Lilly and Company Ltd) 5 cartridge', { count: 5, unit: 'cartridge', per_unit_quantity: ml(3), total: ml(15) }],
    ['Humulin S 100units/ml solution for injection 10ml vials (Eli Lilly and Company Ltd) 1 vial', { count: 1, unit: 'vial', per_unit_quantity: ml(10), total: ml(10) }],
  ],
  DE: [
    ['N1 20 St', { count: 20, unit: 'piece' }],
    ['100 St', { count: 100, unit: 'piece' }],
    ['5X3 ml', { count: 5, unit: 'container', per_unit_quantity: ml(3), total: ml(15) }],
    ['3 x 100 St', { count: 300, unit: 'piece' }],
    ['98 Filmtabletten', { count: 98, unit: 'tablet' }],
    ['5X10 St', { count: 50, unit: 'piece' }],
    ['3 x 28', { count: 84, unit: 'piece' }],
    ['N3 3 x 28', { count: 84, unit: 'piece' }],
    ['2 × 5 ml', { count: 2, unit: 'container', per_unit_quantity: ml(5), total: ml(10) }],
    ['N2 30 St', { count: 30, unit: 'piece' }],
    ['98 (2 x 49) Stk', { count: 98, unit: 'piece' }],
  ],
  'IT / ES': [
    ['28 compresse rivestite con film', { count: 28, unit: 'tablet' }],
    ['flacone 100 ml', { count: 1, unit: 'bottle', per_unit_quantity: ml(100), total: ml(100) }],
    ['10 fiale 2 ml', { count: 10, unit: 'ampoule', per_unit_quantity: ml(2), total: ml(20) }],
    ['envase de 28 comprimidos recubiertos con película', { count: 28, unit: 'tablet' }],
    ['10 ampollas de 2 ml', { count: 10, unit: 'ampoule', per_unit_quantity: ml(2), total: ml(20) }],
    ['1 jeringa precargada de 0,5 ml', { count: 1, unit: 'syringe', per_unit_quantity: ml(0.5), total: ml(0.5) }],
  ],
};

describe('parsePackSize', () => {
  for (const [register, rows] of Object.entries(TABLE)) {
    it.each(rows)(`${register}: %s`, (text, expected) => {
      const { label: _label, measure_label: _m, ...size } = parsePackSize(text)!;
      expect(size).toEqual(expected);
    });
  }

  it('reads no size where the text names none', () => {
    // `N1`/`N2`/`N3` are German size classes, not counts; `2 x 500 mg` is a dose.
    for (const text of ['Flasche', 'plaquette(s) thermoformée(s)', '', 'Zocor 20 mg', 'Inj Lös', 'Simvastatin 40mg tablets', 'N1', 'N2', 'N3', '2 x 500 mg']) {
      expect(parsePackSize(text)).toBeNull();
    }
  });

  it('keeps the register word for the counted unit', () => {
    expect(parsePackSize('4 x 112 Kapsel(n)')?.label).toBe('Kapsel(n)');
    expect(parsePackSize('1 BOTTLE in 1 CARTON > 100 TABLET, FILM COATED in 1 BOTTLE')?.label).toBe('TABLET, FILM COATED');
  });
});

describe('packUnits (what adapters store as units/unit)', () => {
  it('gives counts in the register word, volumes and masses as the whole quantity', () => {
    expect(packUnits('4 x 112 Kapsel(n)')).toEqual({ units: 448, unit: 'Kapsel(n)' });
    expect(packUnits('Durchstf 10 ml')).toEqual({ units: 10, unit: 'ml' });
    expect(packUnits('10 VIAL in 1 CARTON > 2 mL in 1 VIAL')).toEqual({ units: 20, unit: 'mL' });
    expect(packUnits('Fl 1 l')).toEqual({ units: 1000, unit: 'ml' });
    expect(packUnits('boîte de 2 plaquettes de 14 comprimés')).toEqual({ units: 28, unit: 'comprimés' });
    expect(packUnits('Flasche')).toBeNull();
  });
});

describe('normalisePackUnit', () => {
  it.each([
    ['TABLET, FILM COATED', 'tablet'], ['Kapsel(n)', 'capsule'], ['comprimé(s)', 'tablet'], ['gélule(s)', 'capsule'],
    ['seringue(s) préremplie(s)', 'syringe'], ['tablets', 'tablet'], ['doses', 'dose'], ['Stk', 'piece'], ['mL', 'ml'],
    ['Suppositorien', 'suppository'], ['Zäpfchen', 'suppository'], ['Ampulle(n)', 'ampoule'], ['Durchstechflasche(n)', 'vial'],
    ['Fertigspritze', 'syringe'], ['AEROSOL, METERED', 'dose'], ['Hub', 'dose'], ['Pflaster', 'patch'], ['bustine', 'sachet'],
    ['cápsulas', 'capsule'], ['VIAL, SINGLE-DOSE', 'vial'], ['gram', 'g'], ['patches', 'patch'], ['pens', 'pen'],
    // Festbetrag and price lists give the Darreichungsform code as the pack unit.
    ['FTA', 'tablet'], ['BTA', 'tablet'], ['TAB', 'tablet'], ['HKP', 'capsule'], ['WKA', 'capsule'], ['SUP', 'suppository'],
    ['PFT', 'patch'], ['AMP', 'ampoule'], ['FER', 'syringe'], ['DFL', 'vial'],
    // Nordic and Iberian counted units.
    ['kpl', 'piece'], ['unidade(s)', 'piece'], ['unidades', 'piece'],
  ])('%s → %s', (word, unit) => {
    expect(normalisePackUnit(word)?.unit).toBe(unit);
  });

  it('knows no unit in materials and adjectives', () => {
    expect(normalisePackUnit('thermoformée(s) PVC-aluminium')).toBeNull();
    expect(normalisePackUnit(null)).toBeNull();
  });
});
