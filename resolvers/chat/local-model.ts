/**
 * The built-in deterministic assistant: what answers when no language model is configured
 * (and in tests). It is not a language model and says so. It picks tools by matching the
 * question's code-like tokens against each tool's parameter patterns (an ATC code, an NDC,
 * a GTIN …) and otherwise sends the question's key word to a free-text search tool, then
 * reads the tool answers back as plain sentences. Same question, same tools, same answer.
 */
import type { ChatMessage, ModelProvider, ModelReply, ModelRequest, ToolCall, ToolSpec } from './model.ts';

export const LOCAL_DISCLAIMER = 'I am drugref\'s built-in catalogue assistant, not a language model: I look records up with the service\'s own operations and quote what they return.';

const MAX_CALLS = 3;
const STOP_WORDS = new Set(('what which who whose is are was the a an of for to in on about me tell show give find list does do can could please '
  + 'and or with any there their its it this that these those drug drugs medicine medicines code codes class atc information info '
  + 'called named name brand brands product products substance how many much price prices cost hello hey thanks thank you your '
  + 'help there here know want need would like').split(' '));
const FREE_TEXT = ['q', 'query', 'name', 'search'];

interface Property { type?: unknown; pattern?: unknown }

function propertiesOf(tool: ToolSpec): Record<string, Property> {
  return (tool.parameters.properties as Record<string, Property> | undefined) ?? {};
}

function requiredOf(tool: ToolSpec): string[] {
  return (tool.parameters.required as string[] | undefined) ?? [];
}

/** Tokens that look like codes: at least three characters and a digit. */
function codeTokens(text: string): string[] {
  return [...new Set(text.split(/[^A-Za-z0-9:._-]+/).map((t) => t.replace(/[.:_-]+$/, '')).filter((t) => t.length >= 3 && /\d/.test(t)))];
}

/** Searches that default to one country are asked for every country, when the tool allows it. */
function allCountries(tool: ToolSpec): Record<string, string> {
  const country = propertiesOf(tool).country as (Property & { enum?: unknown }) | undefined;
  if (!country) return {};
  const allowed = Array.isArray(country.enum) ? country.enum.includes('ALL') : typeof country.pattern === 'string' ? new RegExp(country.pattern).test('ALL') : country.type === 'string';
  return allowed ? { country: 'ALL' } : {};
}

function planCalls(question: string, tools: ToolSpec[]): ToolCall[] {
  const calls: Array<{ name: string; args: Record<string, string> }> = [];
  for (const token of codeTokens(question)) {
    for (const tool of tools) {
      const match = Object.entries(propertiesOf(tool)).find(([, p]) => typeof p.pattern === 'string' && new RegExp(p.pattern).test(token));
      if (match && requiredOf(tool).every((r) => r === match[0])) {
        calls.push({ name: tool.name, args: { [match[0]]: token } });
        break;
      }
    }
  }
  if (!calls.length) {
    const words = question.toLowerCase().split(/[^a-z0-9-]+/).filter((w) => w.length > 2 && !STOP_WORDS.has(w));
    const subject = words.sort((a, b) => b.length - a.length)[0];
    // A tool named as a search beats other free-text tools (class browsers, enrichment look-ups).
    const candidates = tools.filter((t) => FREE_TEXT.some((f) => f in propertiesOf(t)) && requiredOf(t).every((r) => FREE_TEXT.includes(r)));
    const search = candidates.find((t) => t.name.startsWith('search')) ?? candidates[0];
    const field = search && FREE_TEXT.find((f) => f in propertiesOf(search));
    if (subject && search && field) calls.push({ name: search.name, args: { [field]: subject, ...allCountries(search) } });
  }
  return calls.slice(0, MAX_CALLS).map((c, i) => ({ id: `local_${i + 1}`, name: c.name, arguments: JSON.stringify(c.args) }));
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
      if (calls.length) return { content: null, toolCalls: calls };
      const names = req.tools.map((t) => t.name).join(', ') || 'none for this key';
      return { content: `${LOCAL_DISCLAIMER} I could not match your question to a catalogue lookup. Ask with a code (for example an ATC code such as N02BE01) or a drug or substance name. Lookups available: ${names}.`, toolCalls: [] };
    }
    const lines = results.map((r) => describeAnswer(r.name, r.content));
    return { content: [LOCAL_DISCLAIMER, ...lines].join('\n'), toolCalls: [] };
  }
}
