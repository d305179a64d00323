import { describe, expect, it } from 'vitest';
import { dddRefersToSalt, readSalt } from '../../resolvers/markets/salt-base.ts';

const fraction = (name: string): number | null | undefined => readSalt(name)?.baseFraction;

describe('readSalt', () => {
  it.each<[string, string, number]>([
    // 2 × 267.36 / (2 × 267.36 + 150.09) — the SL writes the ratio.
    ['SL Latin tartrate (2:1)', 'Metoprololi tartras (2:1)', 534.72 / 684.81],
    // The same salt without the ratio: metoprolol tartrate is marketed 2:1.
    ['FDA capitals', 'METOPROLOL TARTRATE', 534.72 / 684.81],
    ['Refdata German', 'Metoprolol succinat', 534.72 / 652.81],
    ['BDPM French', 'chlorhydrate de metformine', 129.16 / 165.62],
    ['dm+d English', 'Amlodipine besilate', 408.88 / 567.06],
    ['SL Latin metal salt', 'Diclofenacum natricum', 296.15 / 318.13],
    // 2 × 558.64 / (2 × (558.64 − 1.008) + 40.08 + 3 × 18.015)
    ['a hydrate of a divalent metal', 'Atorvastatinum calcicum trihydricum', 1117.28 / 1209.385],
    // 383.37 / (383.37 − 1.008 + 22.99 + 1.5 × 18.015)
    ['a sesquihydrate', 'Pantoprazolum natricum sesquihydricum', 383.37 / 432.3745],
    // Esomeprazole is not omeprazole: each stem finds its own molar mass. 2 × 345.42 / (2 × 344.412 + 24.31 + 3 × 18.015)
    ['esomeprazole magnesium trihydrate', 'Esomeprazolum magnesicum trihydricum', 690.84 / 767.179],
    ['omeprazole magnesium', 'oméprazole magnésien', 690.84 / 713.134],
  ])('converts %s', (_label, name, expected) => {
    expect(fraction(name)).toBeCloseTo(expected, 4);
  });

  it('knows a salt it cannot convert, and names its counter-ion', () => {
    expect(readSalt('Heparinum natricum')).toEqual({ counterIon: 'natricum', baseFraction: null });
    expect(readSalt('Levothyroxinum natricum')).toEqual({ counterIon: 'natricum', baseFraction: null });
    // A known moiety in a salt it is not marketed as: no guessed stoichiometry.
    expect(readSalt('Metoprolol fumarate')?.baseFraction).toBeNull();
  });

  it.each(['Amlodipinum ut Amlodipini besilas', 'amlodipine (as besilate)', 'amlodipine sous forme de bésilate', 'Amlodipin (als Besilat)',
    'Paracetamolum', 'Acidum mefenamicum', 'Natrii chloridum', 'Calcii carbonas', 'Kalium citrat', 'insulin human', '', null])(
    'reads %s as no salt (a moiety, a mineral, or a moiety given as its salt)', (name) => {
      expect(readSalt(name)).toBeNull();
    });
});

describe('dddRefersToSalt', () => {
  it('reads WHO notes that give the DDD of the salt', () => {
    const salt = readSalt('Levothyroxinum natricum')!;
    expect(dddRefersToSalt('Refers to levothyroxine sodium', salt)).toBe(true);
    expect(dddRefersToSalt('Refers to fosaprepitant', salt)).toBe(false);
    expect(dddRefersToSalt(null, salt)).toBe(false);
  });
});
