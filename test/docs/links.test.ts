/**
 * The README and docs/ are part of the public contract, so their links must resolve inside
 * the repository: no link to another checkout (../shared) or to a page that can move.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LINK = /\[[^\]]*\]\(([^)\s]+)\)/g;

function markdownFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : []);
}

describe('documentation links', () => {
  const files = ['README.md', ...markdownFiles('docs')];

  it.each(files)('%s links only to files inside the repository', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const outside: string[] = [];
    for (const [, href] of text.matchAll(LINK)) {
      const target = href!.split('#')[0]!;
      if (!target) continue;
      const resolved = normalize(join(dirname(join(ROOT, file)), target));
      if (/^[a-z]+:/i.test(target) || relative(ROOT, resolved).startsWith('..') || !existsSync(resolved)) outside.push(href!);
    }
    expect(outside).toEqual([]);
    expect(text).not.toMatch(/\.\.\/shared\//);
  });
});
