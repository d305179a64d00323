import { describe, expect, it } from 'vitest';
import { detectCodes, normaliseIdentifier } from '../../vocabulary/codes.ts';

describe('Swedish NPL ids and the Finnish Vnr', () => {
  it('normalises NPL ids: 14 digits led by 1 or 2 (date of issue, or 1001 for licence products), spaces dropped', () => {
    expect(normaliseIdentifier('se_npl_id', '20050120000091')).toBe('20050120000091');
    expect(normaliseIdentifier('se_npl_id', '10010101000011')).toBe('10010101000011');
    expect(normaliseIdentifier('se_npl_pack_id', '20050216 100245')).toBe('20050216100245');
    expect(normaliseIdentifier('se_npl_id', '2005012000009')).toBeNull();
    expect(normaliseIdentifier('se_npl_pack_id', '30050216100245')).toBeNull();
  });

  it('reads a 14-digit NPL id in a query as both NPL systems, unless the digits are a valid GTIN-14', () => {
    expect(detectCodes('20050216100245').map((c) => `${c.system}:${c.code}`)).toEqual([
      'se_npl_id:20050216100245', 'se_npl_pack_id:20050216100245',
    ]);
    // 20050216100258 also carries a valid GTIN-14 check digit: it reads as a GTIN only.
    expect(detectCodes('20050216100258').map((c) => c.system)).toEqual(['gtin']);
  });

  it('normalises a Finnish Vnr as six digits, keeping its leading zero', () => {
    expect(normaliseIdentifier('fi_vnr', '046718')).toBe('046718');
    expect(normaliseIdentifier('fi_vnr', '46718')).toBeNull();
    expect(normaliseIdentifier('fi_vnr', '04A718')).toBeNull();
  });
});
