/**
 * Reads the example requests out of the README and docs/*.md, so a test can send each one to
 * the demo catalogue and hold it to what the page says. The pages need no markup of their
 * own beyond what a reader sees:
 *
 * - a `curl` line in a fenced shell block is a request (backslash continuations and
 *   multi-line quoted bodies join into one command);
 * - a fenced block whose first line is `GET /path…` or `POST /path…` is a request too (the
 *   FHIR pages' style);
 * - `→ 404` in the request's trailing comment, or on the comment line right after it, is its
 *   expected status; without one the answer must be a 2xx;
 * - a fenced `json` block right after a request block (nothing but blank lines between) is
 *   the answer of the block's last request, compared as a subset (`…` matches anything);
 * - `NAME=$(curl … | jq -r <path>)` reads a value out of an answer for the next steps.
 *
 * Other commands (`npm`, `npx drugref …`) are listed as such: the CLI has tests of its own.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface Fence {
  lang: string;
  /** 1-based line of the first content line. */
  line: number;
  lines: string[];
}

/** The fenced code blocks of a markdown text, with the line each starts on. */
export function fencedBlocks(markdown: string): (Fence & { followsFence: boolean })[] {
  const lines = markdown.split('\n');
  const blocks: (Fence & { followsFence: boolean })[] = [];
  let lastFenceEnd = -2;
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.trim().startsWith(fence)) body.push(lines[j++]!);
    const between = lines.slice(lastFenceEnd + 1, i);
    blocks.push({ lang: open[2] ?? '', line: i + 2, lines: body, followsFence: lastFenceEnd >= 0 && between.every((l) => !l.trim()) });
    lastFenceEnd = j;
    i = j;
  }
  return blocks;
}

/** True while `text` ends inside a single- or double-quoted string. */
function openQuote(text: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") { if (c === "'") quote = null; continue; }
    if (c === '\\') { i++; continue; }
    if (quote === '"') { if (c === '"') quote = null; continue; }
    if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) return false; // the rest is a comment
  }
  return quote !== null;
}

export interface ShellCommand {
  text: string;
  line: number;
  /** `→ NNN` from the command's own comment or the comment line after it. */
  status: number | null;
}

const ARROW_STATUS = /→\s*(\d{3})\b/;

/** The commands of a shell block: continuations joined, comment lines attached to the command before them. */
export function shellCommands(block: Fence): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let buffer = '';
  let start = 0;
  block.lines.forEach((raw, index) => {
    const line = block.line + index;
    if (!buffer) {
      const trimmed = raw.trim();
      if (!trimmed) return;
      if (trimmed.startsWith('#')) {
        const last = commands.at(-1);
        const status = ARROW_STATUS.exec(trimmed);
        if (last && status && last.status === null && /^#\s*→/.test(trimmed)) last.status = Number(status[1]);
        return;
      }
      start = line;
    }
    buffer += (buffer ? '\n' : '') + raw;
    if (buffer.endsWith('\\')) {
      buffer = buffer.slice(0, -1);
      return;
    }
    if (openQuote(buffer)) return;
    const comment = /\s#\s.*$/.exec(buffer.replace(/'[^']*'|"[^"]*"/g, (q) => 'x'.repeat(q.length)));
    const status = comment ? ARROW_STATUS.exec(buffer.slice(comment.index)) : null;
    commands.push({ text: buffer.trim(), line: start, status: status ? Number(status[1]) : null });
    buffer = '';
  });
  if (buffer) commands.push({ text: buffer.trim(), line: start, status: null });
  return commands;
}

export interface DocStep {
  file: string;
  line: number;
  /** The command as the page prints it. */
  text: string;
  kind: 'curl' | 'http' | 'assign' | 'command';
  status: number | null;
  /** The answer the page shows after this request (a subset to find in the real one). */
  answer?: unknown;
}

const HTTP_LINE = /^(GET|POST|PUT|DELETE) \/\S*$/;
const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console']);

function stepOf(file: string, command: ShellCommand): DocStep {
  const kind = /^curl\s/.test(command.text) ? 'curl'
    : /^[A-Z_][A-Z0-9_]*=/.test(command.text) && !/\s(npx|npm|node)\s/.test(command.text) ? 'assign' : 'command';
  return { file, line: command.line, text: command.text, kind, status: command.status };
}

/** Every example of one markdown file, in page order. */
export function docSteps(file: string, markdown: string): DocStep[] {
  const steps: DocStep[] = [];
  let lastRequestBlock = -1;
  fencedBlocks(markdown).forEach((block, index) => {
    const first = block.lines.find((l) => l.trim())?.trim() ?? '';
    if (block.lang === 'json' && block.followsFence && lastRequestBlock === index - 1) {
      const last = steps.at(-1)!;
      last.answer = JSON.parse(block.lines.join('\n')) as unknown;
      return;
    }
    if (!block.lang && HTTP_LINE.test(first)) {
      const after = block.lines.slice(1).join('\n');
      const status = ARROW_STATUS.exec(after);
      steps.push({ file, line: block.line, text: first, kind: 'http', status: status ? Number(status[1]) : null });
      lastRequestBlock = index;
      return;
    }
    if (!SHELL_LANGS.has(block.lang)) return;
    const found = shellCommands(block).map((c) => stepOf(file, c));
    steps.push(...found);
    if (found.some((s) => s.kind === 'curl' || s.kind === 'assign')) lastRequestBlock = index;
  });
  return steps;
}

/** README.md and every page under docs/, relative to `root`. */
export function documentationFiles(root: string): string[] {
  const pages = readdirSync(join(root, 'docs'), { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md')).map((e) => `docs/${e.name}`).sort();
  return ['README.md', ...pages];
}

export function readSteps(root: string, file: string): DocStep[] {
  return docSteps(file, readFileSync(join(root, file), 'utf8'));
}

/** `expected` found in `actual`: objects by their listed keys, arrays element by element in any order, `…` anything. */
export function containsShape(actual: unknown, expected: unknown): boolean {
  if (expected === '…' || expected === '...') return true;
  if (typeof expected === 'string' && expected.includes('…') && typeof actual === 'string') {
    const pattern = expected.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
    return new RegExp(`^${pattern}$`, 's').test(actual);
  }
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.every((e) => actual.some((a) => containsShape(a, e)));
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const record = actual as Record<string, unknown>;
    return Object.entries(expected).every(([k, v]) => k === '…' || (k in record && containsShape(record[k], v)));
  }
  return Object.is(actual, expected);
}

/** A jq path (`.id`, `.items[0].id`, `.data.atc.code`) applied to a parsed answer; anything else is refused. */
export function jqPath(value: unknown, path: string): unknown {
  if (!/^(\.[A-Za-z_][\w]*|\[\d+\])+$|^\.$/.test(path.replace(/^\.\[/, '['))) throw new Error(`jq path not supported by the examples test: ${path}`);
  let at = value;
  for (const [, name, index] of path.matchAll(/\.([A-Za-z_]\w*)|\[(\d+)\]/g)) {
    if (at === null || typeof at !== 'object') return null;
    at = name !== undefined ? (at as Record<string, unknown>)[name] : (at as unknown[])[Number(index)];
  }
  return at ?? null;
}

/** The command blocks of an HTML page (`<pre class="command"><code>…</code></pre>`), as steps. */
export function htmlSteps(file: string, html: string): DocStep[] {
  const unescape = (t: string) => t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
  return [...html.matchAll(/<pre class="command"><code>([\s\S]*?)<\/code><\/pre>/g)].flatMap((m) => {
    const line = html.slice(0, m.index).split('\n').length;
    return shellCommands({ lang: 'sh', line, lines: unescape(m[1]!).split('\n') }).map((c) => stepOf(file, c));
  });
}
