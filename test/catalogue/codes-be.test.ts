import { describe, expect, it } from 'vitest';
import { detectCodes, normaliseIdentifier } from '../../vocabulary/codes.ts';

describe('Belgian SAM code systems', () => {
  it('normalises SAM AMP codes to upper case and refuses other shapes', () => {
    expect(normaliseIdentifier('be_amp_code', ' sam012345-00 ')).toBe('SAM012345-00');
    expect(normaliseIdentifier('be_amp_code', 'SAM12345-00')).toBeNull();
    expect(normaliseIdentifier('be_amp_code', '012345-00')).toBeNull();
  });

  it('normalises CTI-extended AMPP codes and refuses other shapes', () => {
    expect(normaliseIdentifier('be_ampp_code', '012345-01')).toBe('012345-01');
    expect(normaliseIdentifier('be_ampp_code', '12345-01')).toBeNull();
    expect(normaliseIdentifier('be_ampp_code', 'SAM012345-01')).toBeNull();
  });

  it('reads a typed SAM AMP code as a search code, but not the undistinctive CTI-extended shape', () => {
    expect(detectCodes('sam054321-01')).toEqual([{ kind: 'national', system: 'be_amp_code', code: 'SAM054321-01' }]);
    expect(detectCodes('054321-03').some((c) => c.system === 'be_ampp_code')).toBe(false);
  });
});
