import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError, ERRORS } from '../../platform/errors.ts';

function documentedErrors(): Map<string, number> {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const rows = [...doc.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)];
  return new Map(rows.map((m) => [m[2]!, Number(m[1])]));
}

describe('the error table', () => {
  it('lists in docs/errors.md exactly the codes and statuses of platform/errors.ts', () => {
    const table = new Map(Object.entries(ERRORS).map(([code, e]) => [code, e.status]));
    expect(documentedErrors()).toEqual(table);
  });

  it('builds bodies whose first field is error, then message, then context fields', () => {
    const body = new ApiError('forbidden', 'No.', { tier: 'pro', missing_scope: 'byol:write' }).toBody();
    expect(Object.keys(body)).toEqual(['error', 'message', 'tier', 'missing_scope']);
    expect(new ApiError('not_found').toBody()).toEqual({ error: 'not_found', message: ERRORS.not_found.message });
  });
});
