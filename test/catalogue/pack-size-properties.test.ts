/**
 * Arithmetic invariants of the pack-size grammar, over generated pack texts in each
 * register's phrasing: counts multiply down the levels, volumes multiply by the count.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePackSize } from '../../vocabulary/pack-size.ts';
import { packDdds } from '../../resolvers/markets/price-per-ddd.ts';

const count = fc.integer({ min: 1, max: 500 });
const RUNS = { numRuns: 200, seed: 20261126 };
/** A volume as registers print it: whole or with one decimal, a decimal comma in FR/DE. */
const volume = fc.integer({ min: 1, max: 1000 }).map((tenths) => tenths / 10);
const comma = (v: number): string => String(v).replace('.', ',');

describe('pack-size invariants', () => {
  it('n × m pieces is n·m pieces (`5X10 St`, `3 x 28`, `4 x 112 Kapsel(n)`)', () => {
    fc.assert(fc.property(count, count, fc.constantFrom('x', 'X', '×', ' x '), fc.constantFrom(' St', ' Stk', '', ' Kapsel(n)'), (n, m, times, unit) => {
      expect(parsePackSize(`${n}${times}${m}${unit}`)?.count).toBe(n * m);
    }), RUNS);
  });

  it('n containers of v ml hold n·v ml (`2 × 5 ml`, `10 ampoule(s) en verre de 2,5 ml`, dm+d `10 x 1ml ampoules`)', () => {
    fc.assert(fc.property(count, volume, (n, v) => {
      const texts = [`${n} x ${v} ml`, `${n} ampoule(s) en verre de ${comma(v)} ml`, `${n} x ${v}ml ampoules`];
      for (const text of texts) {
        const size = parsePackSize(text)!;
        expect(size.count).toBe(n);
        expect(size.total?.value).toBeCloseTo(n * v, 9);
      }
    }), RUNS);
  });

  it('BDPM n blisters of m tablets and FDA a cartons > b tablets are n·m and a·b tablets', () => {
    fc.assert(fc.property(count, count, (n, m) => {
      expect(parsePackSize(`${n} plaquette(s) thermoformée(s) PVC-aluminium de ${m} comprimé(s)`)).toMatchObject({ count: n * m, unit: 'tablet' });
      expect(parsePackSize(`${n} BLISTER PACK in 1 CARTON > ${m} TABLET in 1 BLISTER PACK`)).toMatchObject({ count: n * m, unit: 'tablet' });
    }), RUNS);
  });

  it('a German size class before the count changes nothing (`N2 30 St`)', () => {
    fc.assert(fc.property(count, fc.constantFrom('N1', 'N2', 'N3'), (n, klass) => {
      expect(parsePackSize(`${klass} ${n} St`)?.count).toBe(parsePackSize(`${n} St`)?.count);
    }), RUNS);
  });
});

describe('DDD invariants', () => {
  it('DDDs in n × m tablets of s mg are n·m·s ÷ DDD, and scale with the moiety factor', () => {
    fc.assert(fc.property(count, count, fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1, max: 3000 }), (n, m, s, ddd) => {
      const base = { units: null, unit: null, description: `${n} x ${m} Stk`, strengthValue: s, strengthUnit: 'mg', priceUsd: 1, ddd: { value: ddd, unit: 'mg' } };
      const whole = packDdds(base);
      const salt = packDdds({ ...base, moietyFactor: 0.5 });
      expect('ddds' in whole && whole.ddds).toBeCloseTo((n * m * s) / ddd, 6);
      expect('ddds' in salt && salt.ddds).toBeCloseTo((n * m * s * 0.5) / ddd, 6);
    }), RUNS);
  });

  it('a concentration times the volume: c U/ml in n vials of v ml is c·n·v ÷ DDD', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 50 }), fc.constantFrom(40, 100, 300), (n, v, c) => {
      const r = packDdds({ units: null, unit: null, description: `${n} VIAL in 1 CARTON > ${v} mL in 1 VIAL`, strengthValue: c, strengthUnit: '[iU]/mL', priceUsd: 1, ddd: { value: 40, unit: 'U' } });
      expect('ddds' in r && r.ddds).toBeCloseTo((c * n * v) / 40, 9);
    }), RUNS);
  });
});
