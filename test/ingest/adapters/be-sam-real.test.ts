/**
 * The be-sam adapter on real DICS web-service answers (test/fixtures/registers/be-sam/real,
 * see SOURCE.md there): a FindAmp answer cut to eight of its 66 AMPs, a second FindAmp answer
 * repeating one of them, a FindCompany and a FindVmp answer, and the service's fault "no
 * reimbursements found". Counts and values are checked against the bytes of those files.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBeSam } from '../../../workers/ingest/adapters/be-sam.ts';
import type { ProductEntry } from '../../../workers/ingest/snapshot.ts';

const REAL = new URL('../../fixtures/registers/be-sam/real/', import.meta.url);
const file = (name: string) => ({ name, content: readFileSync(new URL(name, REAL)) });
const asOf = new Date('2026-01-09T00:00:00Z');
const ANSWERS = ['findamp-anyNamePart-response.xml', 'findamp-cnk-response.xml', 'findcompany-actorNr-response.xml', 'findvmp-vmpCode-response.xml'];

describe('be-sam adapter on real DICS answers', async () => {
  const { snapshot, problems, files } = await parseBeSam(ANSWERS.map(file), { asOf });
  const products = snapshot.products as ProductEntry[];
  const product = (key: string) => products.find((p) => p.key === key)!;
  const pack = (amp: string, cti: string) => product(amp).packs.find((p) => p.key === cti)!;

  it('recognises each answer by its content and counts every record', () => {
    expect(files).toEqual([
      { file: 'findamp-anyNamePart-response.xml', role: 'DICS AMP', read: 8, kept: 8, malformed: 0 },
      // The same AMP as the first answer's SAM464417-00: kept once.
      { file: 'findamp-cnk-response.xml', role: 'DICS AMP', read: 1, kept: 0, malformed: 0, excluded: { duplicate: 1 } },
      { file: 'findcompany-actorNr-response.xml', role: 'DICS company', read: 1, kept: 1, malformed: 0 },
      { file: 'findvmp-vmpCode-response.xml', role: 'DICS VMP', read: 1, kept: 1, malformed: 0 },
    ]);
    expect(problems).toEqual([]);
    expect(products.map((p) => p.key)).toEqual([
      'SAM461191-00', 'SAM464417-00', 'SAM590204-00', 'SAM545431-00', 'SAM340374-00', 'SAM537697-00', 'SAM368952-00', 'SAM432415-00',
    ]);
  });

  it('is a partial snapshot: the answers update what they hold and delete nothing else', () => {
    expect(snapshot.partial).toBe(true);
  });

  it('reads an AMPP price and CNK as the answer gives them (Paracetamol Teva 40 mg/ml, CNK 3500188)', () => {
    expect(product('SAM432415-00')).toMatchObject({
      product_name: 'Paracetamol Teva 40 mg/ml', atc_code: 'N02BE01', marketing_status: 'active', dose_form: 'Suspensie voor oraal gebruik',
      route: 'Oraal gebruik', ingredients: [{ unii: 'name:PARACETAMOL', strength_value: 40, strength_unit: 'mg/mL' }],
      attributes: expect.objectContaining({ company_actor_nr: '01276', vmp_code: '40261', medicine_type: 'ALLOPATHIC' }),
    });
    expect(pack('SAM432415-00', '432415-01')).toEqual({
      key: '432415-01', description: '85 ml', units: 85, unit: 'ml', marketing_status: 'active', dispensing_category: 'TF',
      identifiers: [{ system: 'be_ampp_code', code: '432415-01' }, { system: 'national', code: 'BE432415' }, { system: 'be_apb', code: '3500188' }],
      prices: [
        { amount: 2.4, currency: 'EUR', kind: 'ex_factory', valid_from: '2023-01-01' },
        { amount: 4.24, currency: 'EUR', kind: 'public', valid_from: '2021-10-01' },
      ],
    });
  });

  it('takes the public-pharmacy price of a pack with hospital and ambulatory CNKs, every CNK an identifier', () => {
    expect(pack('SAM340374-00', '340374-03')).toMatchObject({
      description: '100', dispensing_category: 'TD',
      identifiers: [
        { system: 'be_ampp_code', code: '340374-03' }, { system: 'gtin', code: '5407003824162' }, { system: 'national', code: 'BE340374' },
        { system: 'be_apb', code: '7721012' }, { system: 'be_apb', code: '3551157' },
      ],
      prices: [
        { amount: 1.91, currency: 'EUR', kind: 'ex_factory', valid_from: '2026-01-01' },
        { amount: 8.25, currency: 'EUR', kind: 'public', valid_from: '2026-01-01' },
      ],
    });
    // SAM writes 0.0000 for a pack no public pharmacy sells: no price rather than a free pack.
    expect(pack('SAM368952-00', '368952-02').prices).toBeUndefined();
  });

  it('names the holder from the FindCompany answer and the VMP from the FindVmp answer', () => {
    expect(product('SAM461191-00').holder).toBe('Aurobindo');
    expect(product('SAM368952-00').holder).toBe('Aurobindo');
    expect(product('SAM432415-00').holder).toBeUndefined();
    expect(product('SAM537697-00').attributes).toMatchObject({ vmp_code: '26666', vmp_name: 'paracetamol 500 mg + codeïne fosfaat 30 mg tablet (or.)' });
  });

  it('marks an AMP whose packs are all revoked as withdrawn, and keeps an AMP the answer lists without packs', () => {
    expect(product('SAM590204-00')).toMatchObject({ marketing_status: 'withdrawn', packs: [expect.objectContaining({ key: '590204-01', marketing_status: 'withdrawn' })] });
    expect(product('SAM545431-00')).toMatchObject({ product_name: 'Paracetamol Mylan 500 mg', packs: [] });
    expect(product('SAM545431-00').marketing_status).toBeUndefined();
  });

  it('refuses, writing nothing: a SOAP fault alone, a truncated answer, an empty file, another register, the export beside answers', async () => {
    await expect(parseBeSam([file('findreimbursement-cnk-response.xml')])).rejects.toThrow(
      'findreimbursement-cnk-response.xml: the DICS service answered with a fault, not SAM content (business error 1008: No reimbursements found for given criteria.)');
    const whole = file('findamp-anyNamePart-response.xml').content;
    await expect(parseBeSam([{ name: 'cut.xml', content: whole.subarray(0, 40_000) }])).rejects.toThrow(/cut\.xml/);
    await expect(parseBeSam([{ name: 'empty.xml', content: Buffer.alloc(0) }])).rejects.toThrow(/no SAM actual medicines among the files given/);
    const hpra = { name: 'latestHumanlist.xml', content: readFileSync(new URL('../../fixtures/registers/ie-hpra/real/latestHumanlist.xml', import.meta.url)) };
    await expect(parseBeSam([hpra])).rejects.toThrow(/no SAM actual medicines among the files given/);
    const amp = { name: 'AMP.xml', content: readFileSync(new URL('../../fixtures/registers/be-sam/AMP.xml', import.meta.url)) };
    await expect(parseBeSam([amp, file('findamp-cnk-response.xml')])).rejects.toThrow(/give the SAM export \(AMP\.xml\) or DICS answers, not both/);
  });

  it('names a file it does not read, and a fault beside other answers, as unused instead of refusing the set', async () => {
    const readme = { name: 'notes.txt', content: Buffer.from('answers saved on 2026-01-09\n') };
    const withNotes = await parseBeSam([file('findamp-cnk-response.xml'), readme, file('findreimbursement-cnk-response.xml')], { asOf });
    expect(withNotes.files).toEqual([
      { file: 'findamp-cnk-response.xml', role: 'DICS AMP', read: 1, kept: 1, malformed: 0 },
      { file: 'notes.txt', role: 'unused', read: 0, kept: 0, malformed: 0, note: 'not a file this adapter reads (its content matches none of its roles)' },
      {
        file: 'findreimbursement-cnk-response.xml', role: 'unused', read: 0, kept: 0, malformed: 0,
        note: 'the DICS service answered with a fault, not SAM content (business error 1008: No reimbursements found for given criteria.)',
      },
    ]);
    expect((withNotes.snapshot.products as ProductEntry[]).map((p) => p.key)).toEqual(['SAM464417-00']);
  });
});
