import { describe, expect, it } from 'vitest';
import { amountUnit, parseLocaleNumber, parseStrength, parseStrengthText } from '../../vocabulary/strength.ts';

describe('parseLocaleNumber', () => {
  it.each([
    ['0,5', 0.5], ['2.5', 2.5], ['1 000', 1000], ['100 000', 100000], ['1\u00a0000', 1000], ['1\u202f000,5', 1000.5],
    ["1'000", 1000], ['1.000.000', 1000000], ['1.234,5', 1234.5], ['1,234.5', 1234.5], ['20', 20],
  ])('%s → %s', (raw, value) => {
    expect(parseLocaleNumber(raw)).toBe(value);
  });

  it('refuses what is not a number', () => {
    expect(parseLocaleNumber('abc')).toBeNull();
    expect(parseLocaleNumber('')).toBeNull();
  });
});

describe('amountUnit', () => {
  it.each([
    ['g', 'mg', 1000], ['mg', 'mg', 1], ['µg', 'mg', 0.001], ['μg', 'mg', 0.001], ['mcg', 'mg', 0.001], ['ug', 'mg', 0.001],
    ['microgrammes', 'mg', 0.001], ['Mikrogramm', 'mg', 0.001], ['IE', 'U', 1], ['I.E.', 'U', 1], ['UI', 'U', 1], ['U', 'U', 1],
    ['IU', 'U', 1], ['[iU]', 'U', 1], ["[USP'U]", 'U', 1], ['TU', 'U', 1000], ['MU', 'U', 1e6], ['Mio. IE', 'U', 1e6],
    ['mmol', 'mmol', 1], ['U.I.', 'U', 1], ['E', 'U', 1], ['units', 'U', 1], ['unit', 'U', 1], ['kIE', 'U', 1000],
  ])('%s → %s × %s', (unit, dimension, factor) => {
    expect(amountUnit(unit)).toEqual({ unit: dimension, factor });
  });

  it('knows volumes and counts are no amounts', () => {
    expect(amountUnit('ml')).toBeNull();
    expect(amountUnit('tablet')).toBeNull();
  });
});

describe('parseStrength / parseStrengthText', () => {
  it.each([
    ['20 mg', { amount: { value: 20, unit: 'mg' } }],
    ['0,04 g', { amount: { value: 40, unit: 'mg' } }],
    ['10000 mcg', { amount: { value: 10, unit: 'mg' } }],
    ['40 mg/1', { amount: { value: 40, unit: 'mg' } }],
    ['5 mg/ml', { amount: { value: 5, unit: 'mg' }, per: { value: 1, unit: 'ml' } }],
    ['500 mg/5 ml', { amount: { value: 500, unit: 'mg' }, per: { value: 5, unit: 'ml' } }],
    ['250 mg/5mL', { amount: { value: 250, unit: 'mg' }, per: { value: 5, unit: 'ml' } }],
    ['1 000 UI/ml', { amount: { value: 1000, unit: 'U' }, per: { value: 1, unit: 'ml' } }],
    ['25 000 IE/5 ml', { amount: { value: 25000, unit: 'U' }, per: { value: 5, unit: 'ml' } }],
    ['100 [iU]/mL', { amount: { value: 100, unit: 'U' }, per: { value: 1, unit: 'ml' } }],
    ['0,5 mg/dose', { amount: { value: 0.5, unit: 'mg' }, per: { value: 1, unit: 'dose' } }],
    ['100 microgrammes/dose', { amount: { value: 0.1, unit: 'mg' }, per: { value: 1, unit: 'dose' } }],
    ['200 µg/Hub', { amount: { value: 0.2, unit: 'mg' }, per: { value: 1, unit: 'dose' } }],
    ['1,5 Mio. IE', { amount: { value: 1.5e6, unit: 'U' } }],
    ['50 mg/g', { amount: { value: 50, unit: 'mg' }, per: { value: 1, unit: 'g' } }],
    ['1 %', { amount: { value: 1000, unit: 'mg' }, per: { value: 100, unit: 'percent_base' } }],
    ['20 mg/comprimé', { amount: { value: 20, unit: 'mg' }, per: { value: 1, unit: 'unit' } }],
    ['1 mmol/ml', { amount: { value: 1, unit: 'mmol' }, per: { value: 1, unit: 'ml' } }],
    ['12 µg/h', { amount: { value: 0.012, unit: 'mg' }, per: { value: 1, unit: 'h' } }],
    ['5 mg pour 1 ml', { amount: { value: 5, unit: 'mg' }, per: { value: 1, unit: 'ml' } }],
    ['1 000 mg pour un comprimé', { amount: { value: 1000, unit: 'mg' }, per: { value: 1, unit: 'unit' } }],
    ['2,5 mg pour 100 ml', { amount: { value: 2.5, unit: 'mg' }, per: { value: 100, unit: 'ml' } }],
    ["1 million d'UI", { amount: { value: 1e6, unit: 'U' } }],
    // The SL's insulin and dm+d's `unit/ml`.
    ['100 U.I.', { amount: { value: 100, unit: 'U' } }],
    ['100 unit/ml', { amount: { value: 100, unit: 'U' }, per: { value: 1, unit: 'ml' } }],
    ['40 E/ml', { amount: { value: 40, unit: 'U' }, per: { value: 1, unit: 'ml' } }],
  ])('%s', (text, strength) => {
    const parsed = parseStrengthText(text);
    expect('reason' in parsed ? parsed : { ...parsed, amount: { ...parsed.amount, value: Number(parsed.amount.value.toPrecision(12)) } }).toEqual(strength);
  });

  it('says why a strength cannot take part in arithmetic', () => {
    expect(parseStrength(null, 'mg')).toEqual({ reason: 'no strength value' });
    expect(parseStrength(5, '')).toEqual({ reason: 'no strength unit' });
    expect(parseStrength(5, 'ml')).toEqual({ reason: 'strength unit "ml" is not a mass, units or mmol' });
    expect(parseStrength(5, 'mg/xyz')).toEqual({ reason: 'cannot read the denominator "xyz"' });
    expect(parseStrengthText('Simvastatin')).toEqual({ reason: 'no strength text' });
  });
});
