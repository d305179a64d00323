/**
 * One assistant turn: validate it, let the model call catalogue tools until it answers,
 * and collect citations of the records the tools returned. Metering happens around this
 * (resolvers.ts); nothing here stores the conversation, so no user text is kept.
 */
import { ApiError, ERRORS } from '../../platform/errors.ts';
import type { ErrorCode } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import type { ChatMessage, ModelProvider, ToolCall } from './model.ts';
import { ModelError } from './model.ts';
import type { ChatTools, CitedRecord, ToolOutcome } from './tools.ts';

/** Limits of a turn; beyond them the turn is malformed (400), not merely long. */
export const MAX_MESSAGE_CHARS = 8_000;
export const MAX_HISTORY_ITEMS = 20;
export const MAX_TURN_CHARS = 32_000;
/** Model rounds that may call tools before a final answer is demanded. */
const MAX_TOOL_ROUNDS = 4;

/** A validated turn: the question and the client-held history. */
export interface Turn {
  message: string;
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
}

/** Instructions every model turn starts with: tools first, cite records, no medical advice or PHI. */
export const SYSTEM_PROMPT = [
  'You are drugref\'s catalogue assistant. Answer questions about medicinal products, substances, ATC classes, interactions and prices',
  'only from what the provided tools return; call tools rather than relying on memory, and say plainly when the catalogue has no answer.',
  'Name the records you used (codes or ids). You give reference information, not medical advice; do not ask for or repeat personal health data.',
].join(' ');

function malformed(message: string, field: string | null): ApiError {
  return new ApiError('bad_request', message, { details: [{ location: 'body', field, message }] });
}

/** Reads a turn body; anything malformed, empty or oversized is 400 `bad_request`. */
export function parseTurn(body: unknown): Turn {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw malformed('The body must be a JSON object with a message.', null);
  const { message, history = [], ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length) throw malformed(`Unknown field(s): ${unknown.join(', ')}; a turn has message and optional history.`, unknown[0]!);
  if (typeof message !== 'string' || !message.trim()) throw malformed('message is required and must be a non-empty string.', 'message');
  if (message.length > MAX_MESSAGE_CHARS) throw malformed(`message is longer than ${MAX_MESSAGE_CHARS} characters.`, 'message');
  if (!Array.isArray(history) || history.length > MAX_HISTORY_ITEMS) throw malformed(`history must be an array of at most ${MAX_HISTORY_ITEMS} entries.`, 'history');
  const items = history.map((h, i) => {
    const entry = h as Record<string, unknown> | null;
    const ok = entry && typeof entry === 'object' && (entry.role === 'user' || entry.role === 'assistant')
      && typeof entry.content === 'string' && entry.content.length <= MAX_MESSAGE_CHARS && Object.keys(entry).length === 2;
    if (!ok) throw malformed(`history[${i}] must be { role: "user" | "assistant", content: string } of at most ${MAX_MESSAGE_CHARS} characters.`, `history[${i}]`);
    return { role: entry.role as 'user' | 'assistant', content: entry.content as string };
  });
  const turn = { message, history: items };
  if (turnChars(turn) > MAX_TURN_CHARS) throw malformed(`The turn (message and history) is longer than ${MAX_TURN_CHARS} characters.`, 'history');
  return turn;
}

/** Characters of input a turn carries: what its cost is computed from. */
export function turnChars(turn: Turn): number {
  return turn.message.length + turn.history.reduce((n, h) => n + h.content.length, 0);
}

/** One cited operation: the tool, its REST path and the records it returned. */
export interface Citation {
  tool: string;
  path: string;
  records: CitedRecord[];
}

/** What a turn produced, before usage figures are added. */
export interface TurnResult {
  answer: string;
  citations: Citation[];
  toolCalls: Array<{ name: string; arguments: unknown; ok: boolean }>;
}

const LIST_KEYS = ['results', 'items', 'data', 'rows', 'drugs', 'children', 'matches'];

/** The records a tool answer is about: its own id/code, or those of its listed rows. */
export function citedRecords(body: unknown): CitedRecord[] {
  const pick = (r: unknown): CitedRecord | null => {
    if (!r || typeof r !== 'object') return null;
    const o = r as Record<string, unknown>;
    const rec: CitedRecord = {};
    if (typeof o.id === 'string') rec.id = o.id;
    if (typeof o.code === 'string') rec.code = o.code;
    const name = o.name ?? o.product_name ?? o.substance_name;
    if (typeof name === 'string') rec.name = name;
    return rec.id || rec.code ? rec : null;
  };
  const list = Array.isArray(body) ? body : LIST_KEYS.map((k) => (body as Record<string, unknown> | null)?.[k]).find(Array.isArray);
  const records = list ? list.slice(0, 10).map(pick) : [pick(body)];
  return records.filter((r): r is CitedRecord => r !== null);
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Runs the model/tool loop for one turn; ModelError becomes 502 (the caller refunds). */
export async function runTurn(model: ModelProvider, tools: ChatTools, turn: Turn, ctx: RequestContext): Promise<TurnResult> {
  const specs = tools.list(ctx);
  const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM_PROMPT }, ...turn.history, { role: 'user', content: turn.message }];
  const calls: Array<{ call: ToolCall; outcome: ToolOutcome }> = [];
  for (let round = 0; ; round++) {
    const reply = await model.complete({ messages, tools: specs, toolChoice: round < MAX_TOOL_ROUNDS ? 'auto' : 'none' });
    if (!reply.toolCalls.length || round >= MAX_TOOL_ROUNDS) {
      if (!reply.content?.trim()) throw new ModelError('model gave an empty answer');
      if (endedInUpstreamFailure(calls.map((c) => c.outcome))) {
        throw new ApiError('upstream_error', 'A data source this answer needed failed; this turn was not charged. Try again.');
      }
      return { answer: reply.content.trim(), citations: citationsOf(calls), toolCalls: calls.map(({ call, outcome }) => ({ name: call.name, arguments: parseArgs(call.arguments), ok: outcome.ok })) };
    }
    messages.push({ role: 'assistant', content: reply.content, toolCalls: reply.toolCalls });
    for (const call of reply.toolCalls) {
      const outcome = await tools.call(call.name, call.arguments, ctx);
      calls.push({ call, outcome });
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: outcome.content });
    }
  }
}

/**
 * True when the lookups produced nothing but an upstream failure (502): the answer could
 * only say the source failed, so the turn is refused with 502 and refunded, not charged.
 */
export function endedInUpstreamFailure(outcomes: ToolOutcome[]): boolean {
  const is502 = (o: ToolOutcome) => !o.ok && o.error !== undefined && ERRORS[o.error as ErrorCode]?.status === 502;
  return outcomes.length > 0 && !outcomes.some((o) => o.ok) && outcomes.some(is502);
}

function citationsOf(calls: Array<{ call: ToolCall; outcome: ToolOutcome }>): Citation[] {
  const byPath = new Map<string, Citation>();
  for (const { call, outcome } of calls) {
    if (outcome.ok && !byPath.has(outcome.path)) byPath.set(outcome.path, { tool: call.name, path: outcome.path, records: citedRecords(outcome.body) });
  }
  return [...byPath.values()];
}
