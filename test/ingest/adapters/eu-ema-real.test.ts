/**
 * eu-ema on the EMA's EPAR report workbook as downloaded (23 December 2018, cut to 20
 * medicines; see test/fixtures/registers/eu-ema/real/SOURCE.md): title rows above the header,
 * the earlier column wording, human and veterinary medicines, refused, withdrawn and suspended ones.
 */
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { parseEuEma } from '../../../workers/ingest/adapters/eu-ema.ts';
import { parseAndIngest } from '../../../workers/ingest/apply.ts';
import { openTestDatabase } from '../../helpers/db.ts';

const FILE = 'Medicines_output_european_public_assessment_reports.xlsx';
const bytes = readFileSync(new URL(`../../fixtures/registers/eu-ema/real/${FILE}`, import.meta.url));
const DEFAULT_LIMITS = { maxDeletePercent: 20, maxSkippedPercent: 10 };

/** Row `n` of the workbook as ExcelJS (an independent reader) gives it, cell by column letter. */
async function sheetRow(n: number): Promise<Record<string, string>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const out: Record<string, string> = {};
  workbook.worksheets[0]!.getRow(n).eachCell((cell) => { out[cell.address.replace(/\d+$/, '')] = String(cell.value); });
  return out;
}

describe('eu-ema on the real EPAR report (xlsx, 2018-12-23)', async () => {
  const { snapshot, problems, files } = await parseEuEma(FILE, bytes);
  const product = (procedure: string) => snapshot.products?.find((p) => p.key === procedure);

  it('finds the header below the title rows and keeps every medicine row', () => {
    expect(files).toEqual([{ file: FILE, role: 'European public assessment reports', read: 20, kept: 20, malformed: 0 }]);
    expect(problems).toEqual([]);
    expect(snapshot.products?.filter((p) => p.veterinary).map((p) => p.key)).toEqual(['EMEA/V/C/002763', 'EMEA/V/C/003939', 'EMEA/V/C/000133', 'EMEA/V/C/003739']);
  });

  it('reads a medicine as the report states it: procedure, status, ATC, holder, authorisation date, substances', async () => {
    expect(await sheetRow(18)).toMatchObject({
      A: 'Human', B: 'Humira', D: 'adalimumab', F: 'EMEA/H/C/000481', H: 'Authorised', I: 'L04AB04', Q: '07/09/2003', S: 'AbbVie Deutschland GmbH  Co. KG',
    });
    expect(product('EMEA/H/C/000481')).toMatchObject({
      country: 'EU', product_name: 'Humira', authorisation_status: 'authorised', marketing_status: 'active', atc_code: 'L04AB04',
      authorised_on: '2003-09-07', holder: 'AbbVie Deutschland GmbH  Co. KG', identifiers: [{ system: 'ema_procedure', code: 'EMEA/H/C/000481' }],
      ingredients: [{ unii: 'name:ADALIMUMAB' }],
    });
    expect(product('EMEA/H/C/002751')?.ingredients).toEqual([{ unii: 'name:UMECLIDINIUM BROMIDE' }, { unii: 'name:VILANTEROL' }]);
  });

  it('keeps refused, withdrawn and suspended medicines findable, not marketed', () => {
    expect(product('EMEA/H/C/004355')).toMatchObject({ product_name: 'Exondys', authorisation_status: 'refused', marketing_status: 'withdrawn' });
    expect(product('EMEA/H/C/004355')?.authorised_on).toBeUndefined();
    expect(product('EMEA/H/C/001245')).toMatchObject({ product_name: 'Trobalt', authorisation_status: 'withdrawn', authorised_on: '2011-03-27' });
    expect(product('EMEA/V/C/003739')).toMatchObject({ authorisation_status: 'suspended', veterinary: true });
  });

  it('is ingested with the default limits; an empty file and another register\'s file are refused, writing nothing', async () => {
    const db = await openTestDatabase();
    try {
      const ok = await parseAndIngest(db, 'eu-ema', [{ name: FILE, content: bytes }], { strict: true, shrink: DEFAULT_LIMITS });
      expect(ok).toMatchObject({ outcome: 'ok', rows: { read: 20, kept: 20, malformed: 0, excluded: 0 } });
      const count = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM products')).rows[0]!.n;
      const before = await count();
      const empty = await parseAndIngest(db, 'eu-ema', [{ name: FILE, content: Buffer.alloc(0) }], { strict: false, shrink: DEFAULT_LIMITS });
      expect(empty.outcome).toBe('refused');
      const who = readFileSync(new URL('../../fixtures/registers/who-atc/real/WHO_ATC_DDD_2026-07-14.csv', import.meta.url));
      const other = await parseAndIngest(db, 'eu-ema', [{ name: 'WHO_ATC_DDD_2026-07-14.csv', content: who }], { strict: false, shrink: DEFAULT_LIMITS });
      expect(other.outcome).toBe('refused');
      expect(await count()).toBe(before);
    } finally {
      await db.close();
    }
  });
});
