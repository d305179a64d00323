import { describe, expect, it } from 'vitest';
import { plainName, readAtcName } from '../../vocabulary/atc-names.ts';
import { innKey } from '../../vocabulary/substance-names.ts';

// WHO ATC index level-5 names as WHOCC publishes them.
describe('readAtcName', () => {
  it('reads a single substance on the key register names reach in any language', () => {
    expect(readAtcName('B01AF02', 'apixaban')).toEqual({
      code: 'B01AF02', kind: 'single', slots: [{ slot: 0, keys: ['apixaban'] }], plain: 'apixaban', qualified: false,
    });
    const asa = readAtcName('N02BA01', 'acetylsalicylic acid')!;
    expect(asa.slots[0]!.keys).toEqual([innKey('Acidum acetylsalicylicum')]);
    expect(readAtcName('C07AB02', 'metoprolol')!.slots[0]!.keys).toEqual([innKey('Metoprololi tartras (2:1)')]);
  });

  it('keeps a qualifier in the key, so a bare name does not meet it', () => {
    const human = readAtcName('A10AB01', 'insulin (human)')!;
    expect(human).toMatchObject({ kind: 'single', qualified: true, slots: [{ slot: 0, keys: ['insulin human'] }] });
    expect(human.slots[0]!.keys).not.toContain(innKey('insulin'));
    expect(readAtcName('A10AB03', 'insulin (pork)')!.slots[0]!.keys).toEqual(['insulin pork']);
  });

  it('reads a combination part by part, a class part as its members', () => {
    expect(readAtcName('C09DB01', 'valsartan and amlodipine')).toMatchObject({
      kind: 'combination', slots: [{ slot: 0, keys: ['valsartan'] }, { slot: 1, keys: [innKey('AMLODIPINE')] }],
    });
    expect(readAtcName('C09DX01', 'valsartan, amlodipine and hydrochlorothiazide')!.slots).toHaveLength(3);
    const coAmoxi = readAtcName('J01CR02', 'amoxicillin and beta-lactamase inhibitor')!;
    expect(coAmoxi.slots[1]!.keys).toEqual(expect.arrayContaining([innKey('ACIDE CLAVULANIQUE'), 'sulbactam', 'tazobactam']));
    expect(readAtcName('N04BA02', 'levodopa and decarboxylase inhibitor')!.slots[1]!.keys).toEqual([innKey('carbidopa'), innKey('benserazide')]);
  });

  it('reads no substance in group names, vaccines or other levels', () => {
    expect(readAtcName('N02BE51', 'paracetamol, combinations excl. psycholeptics')).toBeNull();
    expect(readAtcName('N02BA51', 'acetylsalicylic acid, combinations excl. psycholeptics')).toBeNull();
    expect(readAtcName('A02AD01', 'ordinary salt combinations')).toBeNull();
    expect(readAtcName('R05X', 'OTHER COLD PREPARATIONS')).toBeNull();
    expect(readAtcName('J07BB02', 'influenza, inactivated, split virus or surface antigen')).toBeNull();
    expect(readAtcName('V03AX03', 'various')).toBeNull();
  });

  it('compares exact names as lower-case letters and digits', () => {
    expect(plainName('Metoprolol Tartrate (2:1)')).toBe('metoprolol tartrate 2 1');
  });
});
