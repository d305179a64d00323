import { describe, expect, it } from 'vitest';
import { connectivity, enrichmentScore, rankGenes } from '../../resolvers/enrichment/connectivity.ts';
import { actionDirection, rowDirection } from '../../resolvers/enrichment/genetics.ts';

// Six genes ranked G1 (3) … G6 (−3).
const PROFILE = { G1: 3, G2: 2, G3: 1, G4: -1, G5: -2, G6: -3 };

describe('connectivity score (weighted Kolmogorov–Smirnov, CMap)', () => {
  it('matches a hand-computed example', () => {
    // Up {G1, G3}: weights 3 and 1 of 4; misses 1/4 each. Running sum 0.75, 0.5, 0.75,
    // 0.5, 0.25, 0 → ES_up = 0.75. Down {G5}: misses 1/5 each, −0.2 … −0.8, then +1 →
    // 0.2, then 0 → ES_down = −0.8. Opposite signs → (0.75 + 0.8) / 2 = 0.775.
    const ranked = rankGenes(PROFILE);
    expect(enrichmentScore(ranked, new Set(['G1', 'G3']))).toBeCloseTo(0.75, 12);
    expect(enrichmentScore(ranked, new Set(['G5']))).toBeCloseTo(-0.8, 12);
    expect(connectivity(PROFILE, new Set(['G1', 'G3']), new Set(['G5']))).toEqual({ score: 0.775, esUp: 0.75, esDown: -0.8 });
  });

  it('scores a signature +1 against itself and −1 against its mirror', () => {
    const up = new Set(['G1', 'G2']);
    const down = new Set(['G5', 'G6']);
    expect(connectivity(PROFILE, up, down)).toEqual({ score: 1, esUp: 1, esDown: -1 });
    const mirror = Object.fromEntries(Object.entries(PROFILE).map(([g, s]) => [g, -s]));
    expect(connectivity(mirror, up, down)).toEqual({ score: -1, esUp: -1, esDown: 1 });
  });

  it('is 0 when both sets move the same way, and uses one set alone when only one matches', () => {
    expect(connectivity(PROFILE, new Set(['G1']), new Set(['G2'])).score).toBe(0);
    expect(connectivity(PROFILE, new Set(['G1', 'G2']), new Set(['NOT-THERE'])).score).toBe(1);
    expect(connectivity(PROFILE, new Set(), new Set(['G1', 'G2'])).score).toBe(-1);
  });
});

describe('direction of effect', () => {
  it('reads LoF-protect and GoF-risk as "inhibit", LoF-risk and GoF-protect as "activate"', () => {
    expect(rowDirection({ variantEffect: 'LoF', directionOnTrait: 'protect' })).toBe('inhibit');
    expect(rowDirection({ variantEffect: 'GoF', directionOnTrait: 'risk' })).toBe('inhibit');
    expect(rowDirection({ variantEffect: 'LoF', directionOnTrait: 'risk' })).toBe('activate');
    expect(rowDirection({ variantEffect: 'GoF', directionOnTrait: 'protect' })).toBe('activate');
    expect(rowDirection({ variantEffect: null, directionOnTrait: 'risk' })).toBeNull();
  });

  it('maps drug action types to the direction they move target activity', () => {
    expect(actionDirection('INHIBITOR')).toBe('inhibit');
    expect(actionDirection('antagonist')).toBe('inhibit');
    expect(actionDirection('AGONIST')).toBe('activate');
    expect(actionDirection('MODULATOR')).toBeNull();
  });
});
