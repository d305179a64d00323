/**
 * The typeahead's "starts with" is a range of the name key in byte order
 * (resolvers/catalogue/search.ts `prefixEnd`): the range must hold exactly the strings that
 * start with the prefix. UTF-8 byte order is code point order, so compare code points.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { prefixEnd } from '../../resolvers/catalogue/search.ts';

function compare(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

describe('prefixEnd', () => {
  it('bounds exactly the strings that start with the prefix', () => {
    // Small alphabets around the edges: ASCII, the surrogate gap, the highest code point.
    const char = fc.constantFrom('a', 'b', 'z', '~', '\u007f', '\u00e9', '\ud7ff', '\ue000', '\uffff', '\u{10000}', '\u{10fffe}', '\u{10ffff}');
    const text = fc.array(char, { maxLength: 5 }).map((cs) => cs.join(''));
    fc.assert(fc.property(text.filter((p) => p.length > 0 && [...p].some((c) => c !== '\u{10ffff}')), text, (prefix, s) => {
      const inRange = compare(s, prefix) >= 0 && compare(s, prefixEnd(prefix)) < 0;
      expect(inRange).toBe(s.startsWith(prefix));
    }), { numRuns: 2000 });
  });

  it('increments the last code point', () => {
    expect(prefixEnd('ibu')).toBe('ibv');
    expect(prefixEnd('a\ud7ff')).toBe('a\ue000');
    expect(prefixEnd('ab\u{10ffff}')).toBe('ac');
  });
});
