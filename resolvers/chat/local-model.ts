/**
 * The built-in deterministic assistant: what answers when no language model is configured
 * (and in tests). It is not a language model and says so. It picks tools from the question's
 * intent and codes (local-plan.ts: interactions, prices, pack codes, ATC codes …), then reads
 * the tool answers back as plain sentences. Same question, same tools, same answer.
 */
import { followUp, planCalls } from './local-plan.ts';
import type { PlannedCall } from './local-plan.ts';
import type { ChatMessage, ModelProvider, ModelReply, ModelRequest, ToolCall } from './model.ts';

export const LOCAL_DISCLAIMER = 'I am drugref\'s built-in catalogue assistant, not a language model: I look records up with the service\'s own operations and quote what they return.';

const MAX_CALLS = 3;

function toToolCalls(calls: PlannedCall[], round: number): ToolCall[] {
  return calls.slice(0, MAX_CALLS).map((c, i) => ({ id: `local_${round}_${i + 1}`, name: c.name, arguments: JSON.stringify(c.args) }));
}

const LABELS: Array<[string, string]> = [
  ['code', 'code'], ['name', 'name'], ['product_name', 'product'], ['substance_name', 'substance'], ['atc_code', 'ATC'],
  ['level', 'ATC level'], ['country', 'country'], ['strength', 'strength'], ['form', 'form'], ['holder', 'holder'],
];
const LIST_KEYS = ['results', 'items', 'data', 'rows', 'drugs', 'children', 'interactions', 'matches'];

function describeRecord(record: Record<string, unknown>): string {
  const parts = LABELS.filter(([k]) => record[k] !== undefined && record[k] !== null && typeof record[k] !== 'object').map(([k, label]) => `${label} ${String(record[k])}`);
  const chain = Array.isArray(record.ancestors) ? (record.ancestors as Array<Record<string, unknown>>).map((a) => `${String(a.code)} ${String(a.name ?? '')}`.trim()) : [];
  if (chain.length) parts.push(`parent chain ${chain.join(' > ')}`);
  const ddd = Array.isArray(record.ddd) ? (record.ddd as Array<Record<string, unknown>>).map((d) => `${String(d.value)} ${String(d.unit)} (${String(d.route)})`) : [];
  if (ddd.length) parts.push(`WHO defined daily dose ${ddd.join(', ')}`);
  return parts.join('; ') || JSON.stringify(record).slice(0, 300);
}

type Row = Record<string, unknown>;
const rowsOf = (value: unknown): Row[] => (Array.isArray(value) ? value.filter((r): r is Row => !!r && typeof r === 'object') : []);

/** An interaction check: which pairs interact, how severely, or that none was found. */
function describeInteractions(name: string, body: Row): string | null {
  if (!Array.isArray(body.interactions) || body.pairs_checked === undefined) return null;
  const labels = rowsOf(body.inputs).map((i) => String(i.label ?? i.reference ?? '?'));
  const unresolved = Array.isArray(body.unresolved) && body.unresolved.length ? ` Not recognised: ${body.unresolved.join(', ')}.` : '';
  const rows = rowsOf(body.interactions);
  if (!rows.length) return `${name} checked ${String(body.pairs_checked)} pair(s) of ${labels.join(', ') || 'the drugs given'} and found no interaction in its data set.${unresolved}`;
  const shown = rows.slice(0, 5).map((r) => {
    const rule = (r.rule ?? {}) as Row;
    return `${String(rule.a ?? '?')} + ${String(rule.b ?? '?')}: ${String(r.severity ?? 'unknown severity')}${r.description ? ` (${String(r.description)})` : ''}`;
  });
  return `${name} found ${rows.length} interacting pair(s): ${shown.join('; ')}.${unresolved}`;
}

/** A market overview: price per defined daily dose (or per unit/pack) in USD per country. */
function describeMarkets(name: string, body: Row): string | null {
  if (!Array.isArray(body.markets)) return null;
  const priced = rowsOf(body.markets).map((m) => {
    const [value, basis] = m.price_per_ddd_usd != null ? [m.price_per_ddd_usd, 'per DDD'] : m.unit_price_usd != null ? [m.unit_price_usd, 'per unit'] : [m.pack_price_usd, 'per pack'];
    return value == null ? null : `${String(m.country)} ${Number(value).toFixed(2)} USD ${basis}`;
  }).filter((x): x is string => x !== null);
  return priced.length ? `${name}: median price by market: ${priced.join(', ')}.` : `${name} found no market price it could convert to USD.`;
}

/** A drug profile's packs and their prices. */
function describePackPrices(name: string, body: Row): string | null {
  if (!('pack_prices' in body) || !body.drug || typeof body.drug !== 'object') return null;
  const drug = body.drug as Row;
  const packs = rowsOf(body.pack_prices).slice(0, 5).map((p) => {
    const prices = rowsOf(p.prices).map((x) => `${String(x.kind)} ${String(x.amount)} ${String(x.currency)}`);
    return `${String(p.description ?? 'pack')}${prices.length ? `: ${prices.join(', ')}` : ': no price'}`;
  });
  return `${name}: ${String(drug.product_name ?? drug.id)} (${String(drug.country ?? '')}) ${packs.length ? `packs and prices: ${packs.join('; ')}` : 'has no pack prices'}.`;
}

function describeAnswer(name: string, content: string): string {
  let body: unknown;
  try {
    body = JSON.parse(content);
  } catch {
    return `${name} returned text I cannot read.`;
  }
  if (!body || typeof body !== 'object') return `${name} found nothing.`;
  const record = body as Record<string, unknown>;
  if (typeof record.error === 'string') return `${name} could not answer (${record.error}): ${String(record.message ?? '')}`;
  const special = describeInteractions(name, record) ?? describeMarkets(name, record) ?? describePackPrices(name, record);
  if (special) return special;
  const listKey = LIST_KEYS.find((k) => Array.isArray(record[k]));
  const list = Array.isArray(body) ? body : listKey ? (record[listKey] as unknown[]) : null;
  if (list) {
    if (!list.length) return `${name} found no matching records.`;
    const shown = list.slice(0, 5).map((r) => (r && typeof r === 'object' ? describeRecord(r as Record<string, unknown>) : String(r)));
    return `${name} found ${list.length} record(s)${list.length > 5 ? ', the first five' : ''}: ${shown.map((s, i) => `(${i + 1}) ${s}`).join(' ')}`;
  }
  return `${name}: ${describeRecord(record)}.`;
}

function lastUserIndex(messages: ChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return i;
  return -1;
}

/** The deterministic provider; `complete` never calls the network. */
export class LocalModel implements ModelProvider {
  readonly provider = 'local';
  readonly model = 'drugref-local-1';

  async complete(req: ModelRequest): Promise<ModelReply> {
    const at = lastUserIndex(req.messages);
    const question = at >= 0 ? (req.messages[at] as { content: string }).content : '';
    const results = req.messages.slice(at + 1).filter((m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool');
    if (!results.length && req.toolChoice === 'auto') {
      const calls = planCalls(question, req.tools);
      if (calls.length) return { content: null, toolCalls: toToolCalls(calls, 1) };
      const names = req.tools.map((t) => t.name).join(', ') || 'none for this key';
      return { content: `${LOCAL_DISCLAIMER} I could not match your question to a catalogue lookup. Ask with a code (for example an ATC code such as N02BE01) or a drug or substance name. Lookups available: ${names}.`, toolCalls: [] };
    }
    const next = req.toolChoice === 'auto' ? followUp(question, req.tools, results) : null;
    if (next) return { content: null, toolCalls: toToolCalls([next], 2) };
    const lines = results.map((r) => describeAnswer(r.name, r.content));
    return { content: [LOCAL_DISCLAIMER, ...lines].join('\n'), toolCalls: [] };
  }
}
