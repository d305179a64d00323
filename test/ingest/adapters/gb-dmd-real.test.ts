/**
 * gb-dmd on a real dm+d release excerpt (NHSBSA release of 1 April 2019, cut to seven VMPs; see
 * test/fixtures/registers/gb-dmd/real/SOURCE.md): every record read is kept, malformed or out
 * of scope; values checked against the files' text.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseGbDmd } from '../../../workers/ingest/adapters/gb-dmd.ts';
import { parseAndIngest } from '../../../workers/ingest/apply.ts';
import { openTestDatabase } from '../../helpers/db.ts';

const REAL = new URL('../../fixtures/registers/gb-dmd/real/', import.meta.url);
const NAMES = readdirSync(fileURLToPath(REAL)).filter((n) => n.endsWith('.xml')).sort();
const input = (name: string): InputFile => ({ name, content: readFileSync(new URL(name, REAL)) });
const text = (name: string): string => readFileSync(new URL(name, REAL), 'utf8');
const DEFAULT_LIMITS = { maxDeletePercent: 20, maxSkippedPercent: 10 };

describe('gb-dmd on the real release excerpt (NHSBSA 4.0.1, 2019-04-01)', () => {
  const { snapshot, problems, files } = parseGbDmd(NAMES.map(input));
  const product = (apid: string) => snapshot.products?.find((p) => p.key === apid);
  const pack = (appid: string) => snapshot.products?.flatMap((p) => p.packs).find((k) => k.key === appid);

  it('recognises each file by its root element and states every record\'s outcome', () => {
    expect(files).toEqual([
      { file: 'f_amp2_3010419.xml', role: 'AMP', read: 24, kept: 13, malformed: 0, excluded: { out_of_scope: 11 } },
      { file: 'f_ampp2_3010419.xml', role: 'AMPP', read: 91, kept: 34, malformed: 0, excluded: { out_of_scope: 57 } },
      { file: 'f_gtin2_0010419.xml', role: 'GTIN', read: 11, kept: 11, malformed: 0 },
      { file: 'f_ingredient2_3010419.xml', role: 'ingredient', read: 8, kept: 6, malformed: 0, excluded: { out_of_scope: 2 } },
      { file: 'f_lookup2_3010419.xml', role: 'lookup', read: 151, kept: 151, malformed: 0 },
      { file: 'f_vmp2_3010419.xml', role: 'VMP', read: 41, kept: 41, malformed: 0 },
      { file: 'f_vmpp2_3010419.xml', role: 'VMPP', read: 17, kept: 17, malformed: 0 },
      { file: 'f_vtm2_3010419.xml', role: 'VTM', read: 4, kept: 4, malformed: 0 },
    ]);
    expect(problems).toEqual([]);
    expect(snapshot.products).toHaveLength(13);
  });

  it('marks the VMP\'s previous id (VPIDPREV) as previous, dated by VPIDDT', () => {
    expect(text('f_vmp2_3010419.xml')).toMatch(/<VPID>35894711000001106<\/VPID>\s*<VPIDDT>2018-10-17<\/VPIDDT>\s*<VPIDPREV>318338001<\/VPIDPREV>/);
    expect(product('4744411000001104')?.identifiers).toEqual([
      { system: 'dmd_apid', code: '4744411000001104' },
      { system: 'dmd_vmpid', code: '35894711000001106', valid_from: '2018-10-17' },
      { system: 'dmd_vmpid', code: '318338001', previous: true, valid_to: '2018-10-17' },
      { system: 'dmd_vtmid', code: '108502004' },
    ]);
  });

  it('reads an AMPP\'s price in pence as GBP with the price it replaced', () => {
    expect(text('f_ampp2_3010419.xml')).toMatch(/<APPID>4744711000001105<\/APPID>\s*<PRICE>645<\/PRICE>\s*<PRICEDT>2017-06-01<\/PRICEDT>\s*<PRICE_PREV>2994<\/PRICE_PREV>/);
    expect(pack('4744711000001105')).toMatchObject({
      description: 'Adenocor 6mg/2ml solution for injection vials (Sanofi) 6 vial', units: 6, unit: 'vial',
      prices: [{ amount: 6.45, currency: 'GBP', kind: 'list', valid_from: '2017-06-01' }, { amount: 29.94, currency: 'GBP', kind: 'list_previous' }],
    });
    expect(product('442611000001109')?.previous_names).toEqual([{ name: 'Nutrison Standard liquid', until: '2009-03-01' }]);
  });

  it('is ingested with the default limits; a release missing a core file, an empty file and another register\'s file are refused, writing nothing', async () => {
    const db = await openTestDatabase();
    try {
      const ok = await parseAndIngest(db, 'gb-dmd', NAMES.map(input), { strict: true, shrink: DEFAULT_LIMITS });
      expect(ok).toMatchObject({ outcome: 'ok', rows: { read: 347, kept: 277, malformed: 0, excluded: 70 } });
      const packs = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM packs')).rows[0]!.n;
      const before = await packs();
      const partial = await parseAndIngest(db, 'gb-dmd', NAMES.filter((n) => !n.startsWith('f_ampp2')).map(input), { strict: false, shrink: DEFAULT_LIMITS });
      expect(partial).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/needs the AMPP file/) });
      const empty = await parseAndIngest(db, 'gb-dmd', [...NAMES.filter((n) => !n.startsWith('f_amp2')).map(input), { name: 'f_amp2_3010419.xml', content: Buffer.alloc(0) }], { strict: false, shrink: DEFAULT_LIMITS });
      expect(empty.outcome).toBe('refused');
      const who = readFileSync(new URL('../../fixtures/registers/who-atc/real/WHO_ATC_DDD_2026-07-14.csv', import.meta.url));
      const other = await parseAndIngest(db, 'gb-dmd', [...NAMES.map(input), { name: 'WHO_ATC_DDD_2026-07-14.csv', content: who }], { strict: false, shrink: DEFAULT_LIMITS });
      expect(other.outcome).toBe('refused');
      expect(await packs()).toBe(before);
    } finally {
      await db.close();
    }
  });
});
