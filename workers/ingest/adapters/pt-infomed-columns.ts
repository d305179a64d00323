/**
 * What the Portuguese Infomed export's cells mean: column names of both header wordings
 * (older `DCI / Nome Genérico` and `Estado de Autorização`, newer `Substância Ativa/DCI` and
 * `Estado da AIM`), the reimbursement bands (escalões A 90 %, B 69 %, C 37 %, D 15 %, fixed by
 * Decreto-Lei 48-A/2010 and later changes), the status words, and the presentation text
 * (`Blister - 60 unidade(s)`, `Caneta pré-cheia - 5 unidade(s) - 3 ml`).
 */
import { parseFrenchNumber } from './common.ts';

/** Header keys (lower case, single spaced) of each field, newest wording first. */
export const PT_COLUMNS = {
  registo: ['nº registo', 'n.º registo', 'nº de registo', 'n.º de registo', 'número de registo', 'numero de registo', 'registo'],
  name: ['nome do medicamento', 'nome comercial', 'medicamento'],
  substance: ['substância ativa/dci', 'substância activa/dci', 'dci / nome genérico', 'dci/nome genérico', 'dci'],
  form: ['forma farmacêutica'],
  route: ['via de administração', 'vias de administração', 'via administração'],
  strength: ['dosagem'],
  pack: ['apresentação', 'tamanho da embalagem', 'embalagem'],
  holder: ['titular de aim', 'titular aim'],
  generic: ['genérico'],
  authorisation: ['estado da aim', 'estado de autorização', 'estado aim'],
  marketing: ['comercialização', 'estado de comercialização'],
  cnpem: ['cnpem'],
  atc: ['atc', 'código atc'],
  pvp: ['pvp', 'pvp (€)', 'preço (pvp)', 'preço de venda ao público'],
  reference: ['preço de referência', 'preço referência', 'pr'],
  band: ['escalão de comparticipação', 'escalão', 'comparticipação'],
  authorised: ['data de aim', 'data aim', 'data de autorização'],
  dispensing: ['dispensa', 'classificação quanto à dispensa'],
} as const;
export type PtField = keyof typeof PT_COLUMNS;

/** State reimbursement rate of each escalão (general regime). */
const BANDS: Record<string, number> = { A: 90, B: 69, C: 37, D: 15 };

/** Rate in percent of an escalão cell (`A`, `Escalão B`, `69%`, `69 %`); null when not reimbursed or unreadable. */
export function reimbursementRate(raw: string): number | null {
  const text = raw.trim();
  const band = /^(?:escal[ãa]o\s+)?([ABCD])$/i.exec(text);
  if (band) return BANDS[band[1]!.toUpperCase()]!;
  const percent = /^(\d{1,3}(?:[.,]\d+)?)\s*%$/.exec(text);
  if (!percent) return null;
  const value = parseFrenchNumber(percent[1]!);
  return value !== null && value > 0 && value <= 100 ? value : null;
}

/** True when a cell says the medicine is not reimbursed (`Não comparticipado`, `-`, empty). */
export function notReimbursed(raw: string): boolean {
  return raw.trim() === '' || raw.trim() === '-' || /^n[ãa]o/i.test(raw.trim());
}

/** Marketing status of a presentation: `Comercializado` is on the market, `Não comercializado` and revoked, lapsed or suspended authorisations are not. */
export function marketingStatus(marketing: string, authorisation: string): 'active' | 'withdrawn' {
  if (marketing !== '') return /^comercializad/i.test(marketing) ? 'active' : 'withdrawn';
  return /^autorizad/i.test(authorisation) || authorisation === '' ? 'active' : 'withdrawn';
}

/** Units, unit and total quantity of a presentation text; null when it names no count or measure. */
export function presentation(text: string): { units: number; unit: string; quantity?: { value: number; unit: string } } | null {
  let count: number | null = null;
  let measure: { value: number; unit: string } | null = null;
  for (const segment of text.split(/\s+-\s+/)) {
    const n = /^(\d+)\s*(?:unidade\(s\)|unidades?|comprimidos?|c[áa]psulas?|saquetas?|ampolas?|frascos?)$/i.exec(segment.trim());
    if (n) count = Number(n[1]);
    const m = /^(\d+(?:[.,]\d+)?)\s*(ml|l|g|mg|kg)$/i.exec(segment.trim());
    if (m) measure = { value: parseFrenchNumber(m[1]!)!, unit: m[2]!.toLowerCase() };
  }
  if (count !== null && measure) return { units: count, unit: 'unidade(s)', quantity: { value: Math.round(count * measure.value * 1000) / 1000, unit: measure.unit } };
  if (count !== null) return { units: count, unit: 'unidade(s)' };
  return measure ? { units: measure.value, unit: measure.unit } : null;
}
