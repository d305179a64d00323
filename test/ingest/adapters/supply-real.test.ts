/**
 * The shortage publications on real published excerpts (BASG, CIMA) and on the openFDA layout
 * (no real excerpt could be found: its SOURCE.md): statuses on the common scale, open-ended
 * problems, restrictions without a PZN, shortages spanning several NDCs, and every row counted.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAtBasgSupply } from '../../../workers/ingest/adapters/at-basg-supply.ts';
import { parseEsCimaSupply } from '../../../workers/ingest/adapters/es-cima-supply.ts';
import { parseUsFdaShortages } from '../../../workers/ingest/adapters/us-fda-shortages.ts';
import type { SupplyParse, SupplyRow } from '../../../workers/ingest/adapters/supply-rows.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';

const REGISTERS = new URL('../../fixtures/registers/', import.meta.url);
const file = (path: string, name = path.split('/').at(-1)!) => ({ name, content: readFileSync(new URL(path, REGISTERS)) });
const byCode = (parsed: SupplyParse, code: string): SupplyRow | undefined => parsed.rows.find((r) => r.code === code);

describe('at-basg-supply on the real register (2023-09-23)', () => {
  it('keys packs by PZN, and a restriction without PZN by its Zulassungsnummer', async () => {
    const parsed = await parseAtBasgSupply([file('at-basg-supply/real/VertriebseinschraenkungenASP_20230923_excerpt.xml')]);
    expect(parsed.files).toEqual([{ file: 'VertriebseinschraenkungenASP_20230923_excerpt.xml', role: 'restrictions', read: 6, kept: 6, malformed: 0 }]);
    expect(byCode(parsed, '3920190')).toEqual({
      system: 'at_pzn', code: '3920190', status: 'unavailable', reason: 'Verknappung des Wirkstoffes', since: '2023-09-15', expectedUntil: null,
      record: { name: 'Sildenafil 1A Pharma 50 mg - Tabletten', status: 'Nicht verfügbar', zulassungsnummer: '1-28951', reported_on: '2023-09-15', changed_on: '2023-09-15' },
    });
    // The sister pack of the same authorisation is listed as available.
    expect(byCode(parsed, '3920209')).toMatchObject({ status: 'available', since: '2023-09-15', expectedUntil: null });
    // An EU-range authorisation with a PZN: the pack, with the expected date back.
    expect(byCode(parsed, '4966739')).toMatchObject({
      system: 'at_pzn', status: 'unavailable', reason: 'Erhöhter Mehrbedarf', since: '2023-03-01', expectedUntil: '2023-11-01',
      record: { zulassungsnummer: 'EU/1/17/1219/001-004' },
    });
    // An empty PZN: the national authorisation carries the restriction.
    expect(byCode(parsed, '4-00002')).toMatchObject({ system: 'at_zulassungsnummer', status: 'unavailable', since: '2020-02-19', expectedUntil: '2020-04-30' });
    // A restriction that ended: available since its last change, no expected date kept.
    expect(byCode(parsed, '1303754')).toMatchObject({ status: 'available', since: '2023-09-20', expectedUntil: null });
    expect(parsed.partial).toBe(false);
  });

  it('spreads an EU range without PZN over its pack numbers and reports bad rows with their line', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<VEASP>\n<Packungen>
<Packung PZN="" Zulassungsnummer="EU/1/17/1219/001-003" Beginn_Vertriebseinschraenkung="2023-03-01"><Status>eingeschränkt verfügbar</Status><Grund>Erhöhter Mehrbedarf</Grund></Packung>
<Packung PZN="1234567" Zulassungsnummer="1-1"><Status>verfügbar</Status></Packung>
<Packung PZN="3920190" Zulassungsnummer="1-28951"><Status>vielleicht</Status></Packung>
<Packung PZN="3920209" Zulassungsnummer="1-28951" Datum_Meldung="15.09.2023"><Status>verfügbar</Status></Packung>
</Packungen>\n</VEASP>\n`;
    const parsed = await parseAtBasgSupply([{ name: 'VertriebseinschraenkungenASP.xml', content: Buffer.from(xml) }]);
    expect(parsed.rows.map((r) => [r.system, r.code, r.status])).toEqual([
      ['eu_number', 'EU/1/17/1219/001', 'limited'], ['eu_number', 'EU/1/17/1219/002', 'limited'], ['eu_number', 'EU/1/17/1219/003', 'limited'],
    ]);
    expect(parsed.problems).toEqual([
      { file: 'VertriebseinschraenkungenASP.xml', line: 5, message: 'PZN "1234567" is not a valid Austrian PZN' },
      { file: 'VertriebseinschraenkungenASP.xml', line: 6, message: 'Status "vielleicht" is none of verfügbar, eingeschränkt verfügbar, nicht verfügbar' },
      { file: 'VertriebseinschraenkungenASP.xml', line: 7, message: 'a date is not YYYY-MM-DD (reported)' },
    ]);
    expect(parsed.files[0]).toMatchObject({ read: 4, kept: 1, malformed: 3 });
  });
});

describe('es-cima-supply on a real CIMA answer (January 2022)', () => {
  it('reads Madrid dates, keeps an open-ended problem open and marks one page of many as partial', async () => {
    const parsed = await parseEsCimaSupply([file('es-cima-supply/real/psuministro_page1.json', 'psuministro.json')]);
    expect(parsed.files).toEqual([{ file: 'psuministro.json', role: 'supply problems', read: 25, kept: 25, malformed: 0 }]);
    expect(parsed.partial).toBe(true);
    // MASTICAL D: no ffin, the problem has no announced end.
    expect(byCode(parsed, '671656')).toEqual({
      system: 'cima_codigo', code: '671656', status: 'unavailable', since: '2022-01-04', expectedUntil: null,
      reason: 'Existe/n otro/s medicamento/s con los mismos principios activos y para la misma vía de administración.',
      record: { name: 'MASTICAL D 500 MG/800 UI COMPRIMIDOS MASTICABLES, 30 comprimidos', problem_type: 6, active: true },
    });
    expect(byCode(parsed, '725036')).toMatchObject({ status: 'unavailable', since: '2022-01-07', expectedUntil: '2022-01-21' });
    // Controlled distribution of limited units (9) and exceptional marketing (10) still supply: limited.
    expect(byCode(parsed, '814707')).toMatchObject({ status: 'limited', record: { problem_type: 9 } });
    expect(byCode(parsed, '659704')).toMatchObject({ status: 'limited', record: { problem_type: 10 } });
    expect(parsed.files.every(balanced)).toBe(true);
  });

  it('reports a row without a readable national code by its line', async () => {
    const json = '{"totalFilas":2,"resultados":[\n{"cn":"671656","tipoProblemaSuministro":6,"fini":1641250800000,"activo":false},\n{"cn":"12","tipoProblemaSuministro":6,"fini":1641250800000,"activo":true}\n]}';
    const parsed = await parseEsCimaSupply([{ name: 'psuministro.json', content: Buffer.from(json) }]);
    expect(parsed.rows).toMatchObject([{ code: '671656', status: 'available', expectedUntil: null }]);
    expect(parsed.problems).toEqual([{ file: 'psuministro.json', line: 3, message: 'cn "12" is not a 6-digit national code' }]);
    expect(parsed.partial).toBe(false);
  });
});

describe('us-fda-shortages on the openFDA layout', () => {
  it('gives every NDC of a shortage its own row and maps status and availability', async () => {
    const parsed = await parseUsFdaShortages([file('us-fda-shortages/drug-shortages.json')]);
    expect(parsed.files).toEqual([{ file: 'drug-shortages.json', role: 'shortages', read: 6, kept: 5, malformed: 1 }]);
    const furosemide = parsed.rows.filter((r) => r.record.generic_name === 'Furosemide Injection');
    expect(furosemide.map((r) => [r.code, r.status])).toEqual([
      ['63323028002', 'unavailable'], ['63323028004', 'limited'], ['63323028010', 'unavailable'], ['63323028011', 'unavailable'],
    ]);
    expect(furosemide[0]).toMatchObject({ system: 'ndc11', since: '2020-04-07', expectedUntil: null, reason: 'Demand increase for the drug' });
    expect(byCode(parsed, '00409130431')).toMatchObject({ status: 'available', since: '2026-08-07' });
    expect(byCode(parsed, '00071053023')).toMatchObject({ status: 'discontinued', since: '2026-03-31' });
    expect(parsed.problems).toEqual([{ file: 'drug-shortages.json', line: 72, message: 'package_ndc "61314-531" is not a 4-4-2, 5-3-2 or 5-4-1 NDC' }]);
  });

  it('states each NDC by the record updated last, counting every record once: kept, duplicate or superseded', async () => {
    // Records in openFDA's shape; the NDCs and dates are made up for the cases the real download has.
    const record = (ndc: string, status: string, availability: string | null, updated: string | null) => ({
      package_ndc: ndc, generic_name: 'Example Injection', company_name: 'Example', status, initial_posting_date: '01/05/2024',
      ...(availability ? { availability } : {}), ...(updated ? { update_date: updated } : {}),
    });
    const results = [
      record('0409-1001-01, 0409-1002-01', 'Current', 'Limited Availability', '01/10/2026'), // A: keeps 1001; 1002 is stated again by B
      record('0409-1002-01', 'Resolved', null, '03/01/2026'), // B: 1002, later
      record('0409-1002-01', 'Resolved', null, '03/01/2026'), // C: B again, word for word
      record('0409-1001-01', 'To Be Discontinued', null, '12/01/2025'), // D: 1001, older than A
      record('0409-1003-01', 'Current', 'Limited Availability', '02/02/2026'), // E: 1003, same day as F
      record('0409-1003-01', 'Current', 'Unavailable', '02/02/2026'), // F: 1003, same day, worse
      record('0409-1004-01', 'Current', 'Unavailable', null), // G: 1004, no update date
      record('0409-1004-01', 'Resolved', null, '02/02/2026'), // H: 1004, dated
    ];
    const content = Buffer.from(JSON.stringify({ meta: { last_updated: '2026-03-02' }, results }, null, 2));
    const parsed = await parseUsFdaShortages([{ name: 'drug-shortages-0001-of-0001.json', content }]);
    expect(parsed.files).toEqual([{
      file: 'drug-shortages-0001-of-0001.json', role: 'shortages', read: 8, kept: 4, malformed: 0, excluded: { duplicate: 1, superseded: 3 },
    }]);
    expect(parsed.rows.map((r) => [r.code, r.status, r.record.update_date ?? null])).toEqual([
      ['00409100101', 'limited', '2026-01-10'],
      ['00409100201', 'available', '2026-03-01'],
      ['00409100301', 'unavailable', '2026-02-02'],
      ['00409100401', 'available', '2026-02-02'],
    ]);
  });

  it('leaves the record read first when two agree on update, start and status but not on the rest', async () => {
    // Records in openFDA's shape; made up: one NDC, same dates and status, two reasons.
    const record = (reason: string) => ({
      package_ndc: '0409-1005-01', generic_name: 'Example Injection', company_name: 'Example', status: 'Current', availability: 'Unavailable',
      initial_posting_date: '01/05/2024', update_date: '02/02/2026', shortage_reason: reason,
    });
    const content = Buffer.from(JSON.stringify({ meta: {}, results: [record('Demand increase for the drug'), record('Shortage of an active ingredient')] }));
    const parsed = await parseUsFdaShortages([{ name: 'drug-shortages-0001-of-0001.json', content }]);
    expect(parsed.rows.map((r) => [r.code, r.reason])).toEqual([['00409100501', 'Demand increase for the drug']]);
    expect(parsed.files[0]).toMatchObject({ read: 2, kept: 1, excluded: { superseded: 1 } });
  });
});
