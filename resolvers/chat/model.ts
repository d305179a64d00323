/**
 * The model-provider interface of the assistant, and its default implementation: a
 * client of the OpenAI-compatible chat-completions protocol (POST {base}/chat/completions
 * with `tools` of type function; the answer's `choices[0].message` carries `content` or
 * `tool_calls` whose `function.arguments` is a JSON string).
 */
import { request } from 'undici';

/** A tool as the model sees it: name, description, JSON Schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A tool call the model asked for. */
export interface ToolCall {
  id: string;
  name: string;
  /** JSON text, as the protocol carries it. */
  arguments: string;
}

/** One message of the conversation sent to the model. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** One completion request: messages, offered tools and whether tools may be called. */
export interface ModelRequest {
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** 'none' asks for a final answer without further tool calls. */
  toolChoice: 'auto' | 'none';
}

/** The model's reply: final text, or tool calls to run first. */
export interface ModelReply {
  content: string | null;
  toolCalls: ToolCall[];
}

/** Any chat model the assistant can use. */
export interface ModelProvider {
  /** `openai-compatible` or `local`. */
  readonly provider: string;
  readonly model: string;
  complete(req: ModelRequest): Promise<ModelReply>;
}

/** The model could not produce an answer; the turn becomes a 502 and is not charged. */
export class ModelError extends Error {
  override readonly name = 'ModelError';
}

function toWire(message: ChatMessage): Record<string, unknown> {
  if (message.role === 'tool') return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  if (message.role === 'assistant' && message.toolCalls?.length) {
    return {
      role: 'assistant',
      content: message.content,
      tool_calls: message.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
    };
  }
  return { role: message.role, content: message.content };
}

interface WireReply {
  choices?: Array<{ message?: { content?: string | null; tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: unknown } }> } }>;
}

function fromWire(body: WireReply): ModelReply {
  const message = body.choices?.[0]?.message;
  if (!message) throw new ModelError('model answer has no choices');
  const toolCalls = (message.tool_calls ?? []).map((c, i) => ({
    id: c.id ?? `call_${i}`,
    name: c.function?.name ?? '',
    // Some compatible servers send arguments as an object; the protocol says a JSON string.
    arguments: typeof c.function?.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function?.arguments ?? {}),
  }));
  return { content: message.content ?? null, toolCalls };
}

/** OpenAI-compatible chat-completions client (OpenAI, Azure-style gateways, vLLM, Ollama …). */
export class OpenAiCompatibleModel implements ModelProvider {
  readonly provider = 'openai-compatible';
  readonly model: string;

  constructor(private readonly options: { baseUrl: string; model: string; apiKey: string | null; timeoutMs: number }) {
    this.model = options.model;
  }

  async complete(req: ModelRequest): Promise<ModelReply> {
    const base = this.options.baseUrl.endsWith('/') ? this.options.baseUrl : `${this.options.baseUrl}/`;
    const payload = {
      model: this.model,
      messages: req.messages.map(toWire),
      temperature: 0,
      ...(req.tools.length ? { tools: req.tools.map((t) => ({ type: 'function', function: t })), tool_choice: req.toolChoice } : {}),
    };
    let res;
    try {
      res = await request(new URL('chat/completions', base), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
        body: JSON.stringify(payload),
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
    } catch (err) {
      throw new ModelError(`model unreachable (${(err as { code?: string }).code ?? 'network'})`);
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump();
      throw new ModelError(`model answered ${res.statusCode}`);
    }
    try {
      return fromWire((await res.body.json()) as WireReply);
    } catch (err) {
      throw err instanceof ModelError ? err : new ModelError('model answer is not JSON');
    }
  }
}
