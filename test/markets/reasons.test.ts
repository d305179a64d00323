import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REASON_CODES, REASONS } from '../../resolvers/markets/reasons.ts';

describe('price-per-DDD reasons', () => {
  it('are listed in docs/markets.md, each with its sentence, in the table order', () => {
    const doc = readFileSync(new URL('../../docs/markets.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| (.+) \|$/gm)].filter(([, code]) => code! in REASONS);
    expect(rows.map(([, code]) => code)).toEqual(REASON_CODES);
    for (const [, code, text] of rows) expect(text).toBe(REASONS[code as keyof typeof REASONS]);
  });

  it('are distinct sentences', () => {
    expect(new Set(Object.values(REASONS)).size).toBe(REASON_CODES.length);
  });
});
