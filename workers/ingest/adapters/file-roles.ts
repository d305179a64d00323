/**
 * What each file of a release is, read from its content. Publishers rename files between
 * releases (`latestHMlist.xml` became `latestHumanlist.xml`), date them (`lms01_2011-03-09.txt`,
 * `WHO_ATC_DDD_2026-07-14.csv`), version them (`AMP-1699.xml`) and ship members an adapter does
 * not read (`system.txt`, `saate.txt`). So an adapter names its roles by what their header,
 * root element or record layout looks like; the file name is only a hint that breaks ties.
 * A member no role claims is reported as unused, not refused: a release folder is taken whole.
 */
import { open } from 'node:fs/promises';
import { FileRejectedError } from './common.ts';
import type { InputFile } from './common.ts';
import { unusedFile } from '../row-outcome.ts';
import type { FileReport } from '../row-outcome.ts';

/** Bytes read from the start of a file to recognise it. */
export const HEAD_BYTES = 64 * 1024;

/** The base name of a path (either separator). */
export function baseName(name: string): string {
  return name.split(/[\\/]/).pop() ?? name;
}

/**
 * The base name without the release stamp publishers add, lower-cased: a date (`_2011-03-09`,
 * `_20261120`, `-28-02-2026`), a version (`-1699`, `_v2`) or a copy counter (` (1)`), before
 * the extension. `lms01_2011-03-09.txt` → `lms01.txt`, `AMP-1699.xml` → `amp.xml`.
 */
export function undatedName(name: string): string {
  const base = baseName(name).toLowerCase();
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  const ext = dot > 0 ? base.slice(dot) : '';
  const bare = stem
    .replace(/\s*\(\d+\)$/, '')
    .replace(/[_-](?:\d{4}-\d{2}-\d{2}|\d{2}-\d{2}-\d{4}|\d{8}(?:\d{6})?|v?\d+)$/, '');
  return bare + ext;
}

/**
 * The first bytes of a file, for recognising it: from disk when it lies there (a register of a
 * gigabyte is not loaded to be recognised), else from its content.
 */
export async function headBytes(file: InputFile, bytes = HEAD_BYTES): Promise<Buffer> {
  if (file.path === undefined) return file.content.subarray(0, bytes);
  const handle = await open(file.path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The start of a file as text: UTF-16 by its byte-order mark, UTF-8 when valid (BOM dropped),
 * else Latin-1 (the single-byte registers: every byte maps, so a header word can be matched).
 */
export function headText(head: Buffer): string {
  if (head[0] === 0xff && head[1] === 0xfe) return head.subarray(2, head.length - (head.length % 2)).toString('utf16le');
  if (head[0] === 0xfe && head[1] === 0xff) {
    const swapped = Buffer.from(head.subarray(2, head.length - (head.length % 2)));
    return swapped.swap16().toString('utf16le');
  }
  const body = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? head.subarray(3) : head;
  const utf8 = body.toString('utf8');
  // A multi-byte character cut at the end of the head decodes to U+FFFD as well: ignore the last 3 bytes.
  return utf8.slice(0, -3).includes('\ufffd') ? body.toString('latin1') : utf8;
}

/** The local name of the first element of an XML head (prefix dropped), or null: `<ns2:FEST>` → `FEST`. */
export function rootElement(text: string): string | null {
  const m = /<(?![?!])(?:[\w.-]+:)?([\w.-]+)[\s/>]/.exec(text.replace(/<!--[\s\S]*?-->/g, ''));
  return m ? m[1]! : null;
}

/** How sure a role is of a file: 2 by content, 1 plausible (a layout several roles share), 0 not it. */
export type Match = 0 | 1 | 2;

/** One kind of file an adapter reads. */
export interface RoleRule<R extends string> {
  role: R;
  /** How the file's start matches this role; `text` is `headText(head)`. */
  recognise(text: string, head: Buffer): Match;
  /** Base names (undated, lower case) this role usually has: a tie-breaker, never enough alone. */
  names?: readonly string[];
  /** More than one file may have this role (SPL documents, NPL product files). */
  many?: boolean;
}

/** The files of a release sorted into roles, and the members no role claimed. */
export interface RoleAssignment<R extends string> {
  byRole: Map<R, InputFile[]>;
  unused: FileReport[];
}

function nameScore(file: InputFile, rule: RoleRule<string>): number {
  const name = undatedName(file.name);
  return rule.names?.some((n) => n.toLowerCase() === name) ? 0.5 : 0;
}

/**
 * Gives each file the role whose content it matches best (the name breaks a tie between
 * plausible roles); a file that matches none is unused. Two files for a role that takes one
 * reject the release, naming both. `known` are members the adapter knows and does not read
 * (`system.txt`), named in the report with why.
 */
export async function assignRoles<R extends string>(
  files: readonly InputFile[], rules: readonly RoleRule<R>[], known: Readonly<Record<string, string>> = {},
): Promise<RoleAssignment<R>> {
  const heads: Buffer[] = [];
  for (const file of files) heads.push(await headBytes(file));
  return assignByHeads(files, heads, rules, known);
}

/**
 * `assignRoles` for files whose content is in memory (an adapter that reads them whole
 * anyway): the same answer, without waiting for a disk read.
 */
export function assignLoadedRoles<R extends string>(
  files: readonly InputFile[], rules: readonly RoleRule<R>[], known: Readonly<Record<string, string>> = {},
): RoleAssignment<R> {
  return assignByHeads(files, files.map((f) => f.content.subarray(0, HEAD_BYTES)), rules, known);
}

function assignByHeads<R extends string>(
  files: readonly InputFile[], heads: readonly Buffer[], rules: readonly RoleRule<R>[], known: Readonly<Record<string, string>>,
): RoleAssignment<R> {
  const byRole = new Map<R, InputFile[]>();
  const unused: FileReport[] = [];
  files.forEach((file, i) => {
    const head = heads[i]!;
    const text = headText(head);
    let best: { rule: RoleRule<R>; score: number } | null = null;
    for (const rule of rules) {
      const match = rule.recognise(text, head);
      if (match === 0) continue;
      const score = match + nameScore(file, rule);
      if (!best || score > best.score) best = { rule, score };
    }
    if (!best) {
      unused.push(unusedFile(file.name, known[undatedName(file.name)] ?? 'not a file this adapter reads (its content matches none of its roles)'));
      return;
    }
    const taken = byRole.get(best.rule.role) ?? [];
    if (taken.length > 0 && !best.rule.many) {
      throw new FileRejectedError(file.name, `two files hold the ${best.rule.role} (${taken[0]!.name} and ${file.name}); give one release at a time`);
    }
    byRole.set(best.rule.role, [...taken, file]);
  });
  return { byRole, unused };
}

/** The one file of `role`, or a rejection naming what the release lacks. */
export function requireRole<R extends string>(assignment: RoleAssignment<R>, role: R, what: string): InputFile {
  const file = assignment.byRole.get(role)?.[0];
  if (!file) {
    const given = [...assignment.byRole.entries()].map(([r, f]) => `${f.map((x) => baseName(x.name)).join(', ')} (${r})`);
    const unused = assignment.unused.map((u) => `${baseName(u.file)} (unused)`);
    throw new FileRejectedError(what, `no ${role} file among the files given: ${[...given, ...unused].join('; ') || 'none'}`);
  }
  return file;
}
