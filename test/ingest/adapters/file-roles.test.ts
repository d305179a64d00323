import { describe, expect, it } from 'vitest';
import { assignRoles, headText, requireRole, rootElement, undatedName } from '../../../workers/ingest/adapters/file-roles.ts';
import type { RoleRule } from '../../../workers/ingest/adapters/file-roles.ts';

const file = (name: string, text: string | Buffer) => ({ name, content: typeof text === 'string' ? Buffer.from(text) : text });

describe('file roles', () => {
  it('drops the release stamps publishers add to a name', () => {
    expect(undatedName('takst/lms01_2011-03-09.txt')).toBe('lms01.txt');
    expect(undatedName('WHO_ATC_DDD_20260714.csv')).toBe('who_atc_ddd.csv');
    expect(undatedName('AMP-1699.xml')).toBe('amp.xml');
    expect(undatedName('Classe_A_per_principio_attivo_28-02-2026.csv')).toBe('classe_a_per_principio_attivo.csv');
    expect(undatedName('latestHumanlist (1).xml')).toBe('latesthumanlist.xml');
  });

  it('reads the start of a file in its encoding', () => {
    expect(headText(Buffer.from('\ufeffAIC;x', 'utf8'))).toBe('AIC;x');
    expect(headText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Vnr\t', 'utf16le')]))).toBe('Vnr\t');
    expect(headText(Buffer.from([0x50, 0xe6, 0x6b, 0x6e, 0x69, 0x6e, 0x67, 0x20, 0x20, 0x20]))).toBe('Pækning   ');
    expect(rootElement('<?xml version="1.0"?>\n<!-- x --><ns2:FEST xmlns:ns2="urn">')).toBe('FEST');
  });

  const rules: RoleRule<'list' | 'codes'>[] = [
    { role: 'list', recognise: (t) => (t.startsWith('<HumanList') ? 2 : 0) },
    { role: 'codes', recognise: (t) => (/^\d{7}/.test(t) ? 1 : 0), names: ['codes.txt'] },
  ];

  it('gives each file its role by content, whatever its name, and names the members it does not read', async () => {
    const got = await assignRoles([file('latestHumanlist.xml', '<HumanList>'), file('x.txt', '1234567 a'), file('system.txt', 'header')], rules, { 'system.txt': 'release header' });
    expect(got.byRole.get('list')?.[0]?.name).toBe('latestHumanlist.xml');
    expect(got.byRole.get('codes')?.[0]?.name).toBe('x.txt');
    expect(got.unused).toEqual([{ file: 'system.txt', role: 'unused', read: 0, kept: 0, malformed: 0, note: 'release header' }]);
  });

  it('refuses two files for one role and names a missing role with what was given', async () => {
    await expect(assignRoles([file('a.xml', '<HumanList>'), file('b.xml', '<HumanList>')], rules)).rejects.toThrow(/two files hold the list \(a\.xml and b\.xml\)/);
    const got = await assignRoles([file('x.txt', '1234567')], rules);
    expect(() => requireRole(got, 'list', 'ie-hpra')).toThrow(/no list file among the files given: x\.txt \(codes\)/);
  });
});
