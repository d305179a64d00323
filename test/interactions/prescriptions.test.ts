import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { startInteractionApp } from './helpers.ts';

let t: TestApp;
let key: string;
beforeAll(async () => { t = await startInteractionApp(); key = await t.key({ tier: 'growth' }); });
afterAll(async () => { await t?.close(); });

interface Reason { kind: string; level: string; proposed_index: number; atc_code: string | null; message: string; related: string | null }
interface Assessment { decision: string; reasons: Reason[]; interactions: Array<{ commercial: boolean; mechanism: string | null }>; _meta: { notice: string | null } }

const validate = (body: unknown, k = key) => t.app.inject({ method: 'POST', url: '/v1/prescriptions/validate', headers: bearer(k), payload: body as object });

describe('POST /v1/prescriptions/validate', () => {
  it('is ok for a drug with nothing against it', async () => {
    const res = await validate({ proposed: ['paracetamol'], current: ['amlodipine'], context: { age_band: '18-64', sex: 'male', egfr_band: 'g1' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-tier']).toBe('growth');
    expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    const body = res.json<Assessment>();
    expect(body).toMatchObject({ decision: 'ok', reasons: [] });
    expect(body._meta.notice).toContain('not for clinical use');
  });

  it('is contraindicated for clarithromycin on top of simvastatin, with the licensed texts', async () => {
    const body = (await validate({ proposed: ['clarithromycin'], current: ['simvastatin', 'metformin'] })).json<Assessment>();
    expect(body.decision).toBe('contraindicated');
    expect(body.reasons).toEqual([expect.objectContaining({ kind: 'interaction', level: 'contraindicated', proposed_index: 0, atc_code: 'J01FA09', related: 'current[0]' })]);
    expect(body.interactions.some((r) => r.commercial && r.mechanism?.includes('CYP3A4'))).toBe(true);
  });

  it('reports allergy, class allergy and penicillin–cephalosporin cross-reactivity', async () => {
    const same = (await validate({ proposed: ['amoxicillin'], context: { allergies: ['amoxicillin'] } })).json<Assessment>();
    expect(same.reasons.map((r) => [r.kind, r.level])).toEqual([['allergy', 'contraindicated']]);
    const byAtc = (await validate({ proposed: ['amoxicillin'], context: { allergies: ['J01CA04'] } })).json<Assessment>();
    expect(byAtc.reasons.map((r) => [r.kind, r.level])).toEqual([['allergy', 'contraindicated']]);
    const cls = (await validate({ proposed: ['phenoxymethylpenicillin'], context: { allergies: ['J01C'] } })).json<Assessment>();
    expect(cls.decision).toBe('contraindicated');
    expect(cls.reasons[0]).toMatchObject({ kind: 'class_allergy', related: 'allergies[0]' });
    const unknown = (await validate({ proposed: ['paracetamol'], context: { allergies: ['no such allergen'] } })).json<Assessment>();
    expect(unknown).toMatchObject({ decision: 'caution', reasons: [{ kind: 'unresolved', proposed_index: -1, related: 'allergies[0]' }] });
    const cross = (await validate({ proposed: ['cefalexin'], context: { allergies: ['amoxicillin'] } })).json<Assessment>();
    expect(cross).toMatchObject({ decision: 'caution', reasons: [{ kind: 'class_allergy', level: 'caution' }] });
  });

  it('raises pregnancy and renal cautions by band', async () => {
    const preg = (await validate({ proposed: ['warfarin'], context: { pregnancy: 'pregnant' } })).json<Assessment>();
    expect(preg.reasons).toEqual([expect.objectContaining({ kind: 'pregnancy', level: 'contraindicated', related: 'B01AA' })]);
    const g3b = (await validate({ proposed: ['metformin'], context: { egfr_band: 'g3b' } })).json<Assessment>();
    expect(g3b).toMatchObject({ decision: 'caution', reasons: [{ kind: 'renal', level: 'caution' }] });
    const g4 = (await validate({ proposed: ['metformin'], context: { egfr_band: 'g4' } })).json<Assessment>();
    expect(g4).toMatchObject({ decision: 'contraindicated', reasons: [{ kind: 'renal', level: 'contraindicated' }] });
    const g2 = (await validate({ proposed: ['metformin'], context: { egfr_band: 'g2' } })).json<Assessment>();
    expect(g2.decision).toBe('ok');
  });

  it('flags duplicate therapy within one ATC level 4', async () => {
    const body = (await validate({ proposed: ['atorvastatin'], current: ['rosuvastatin'] })).json<Assessment>();
    expect(body).toMatchObject({ decision: 'caution', reasons: [{ kind: 'duplicate_therapy', atc_code: 'C10AA05', related: 'current[0]' }] });
  });

  it('refuses 403 without interactions:write', async () => {
    const res = await validate({ proposed: ['paracetamol'] }, await t.key({ tier: 'starter' }));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', missing_scope: 'interactions:write', tier: 'starter' });
  });

  it('answers 422 validation for unknown context values', async () => {
    const res = await validate({ proposed: ['paracetamol'], context: { egfr_band: 'g9' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation' });
  });

  it('answers 401 without a key', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/prescriptions/validate', payload: { proposed: ['x'] } });
    expect(res.statusCode).toBe(401);
  });
});

describe('PHI refusal', () => {
  const secret = 'Zyxwvut-Quokka-19570304';

  it.each([
    [{ proposed: ['paracetamol'], name: secret }, ['name']],
    [{ proposed: ['paracetamol'], context: { patient: { DOB: secret } } }, ['context.patient.DOB']],
    [{ proposed: ['paracetamol'], current: [{ system: 'gtin', code: '1', Email_Address: secret }] }, ['current[0].Email_Address']],
    [{ proposed: ['paracetamol'], context: { allergies: [], AHV: secret, 'Home-Address': { Street: secret } } }, ['context.AHV', 'context.Home-Address', 'context.Home-Address.Street']],
    [{ MRN: secret, proposed: 'not even valid' }, ['MRN']],
  ])('refuses %j with phi_field_rejected naming the path, never the value, and never logs it', async (body, fields) => {
    const before = t.logs.length;
    const res = await validate(body);
    expect(res.statusCode).toBe(422);
    const answer = res.json<{ error: string; message: string; fields: string[] }>();
    expect(answer.error).toBe('phi_field_rejected');
    expect(answer.fields).toEqual(fields);
    expect(res.body).not.toContain(secret);
    const logged = t.logs.slice(before).join('\n');
    expect(logged).toContain('/v1/prescriptions/validate');
    expect(logged).not.toContain(secret);
    const stored = await t.db.query("SELECT 1 FROM changes WHERE after::text LIKE '%' || $1 || '%'", [secret]);
    expect(stored.rowCount).toBe(0);
  });
});
