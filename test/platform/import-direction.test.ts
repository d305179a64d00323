/**
 * Imports run one way: platform and vocabulary at the bottom, resolvers above them, and the
 * facades, workers and CLI on top, each reading down and never sideways into one another
 * (the CLI, which starts servers and workers, may read both). Every relative import of the
 * source folders is resolved and checked against that order.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** What each source folder may import besides itself. */
const MAY_IMPORT: Record<string, string[]> = {
  platform: [],
  vocabulary: [],
  resolvers: ['platform', 'vocabulary', 'schema'],
  workers: ['platform', 'vocabulary', 'resolvers'],
  facades: ['platform', 'vocabulary', 'resolvers', 'schema'],
  cli: ['platform', 'vocabulary', 'resolvers', 'workers', 'facades', 'data', 'schema'],
};

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Relative specifiers of static, type-only and dynamic imports and re-exports. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'(\.{1,2}\/[^']+)'/gm)].map((m) => m[1]!);
}

function violations(): string[] {
  const found: string[] = [];
  for (const [folder, allowed] of Object.entries(MAY_IMPORT)) {
    for (const file of sourceFiles(folder)) {
      for (const spec of importsOf(file)) {
        const target = relative(root, resolve(dirname(file), spec)).split(sep)[0]!;
        if (target !== folder && !allowed.includes(target)) found.push(`${relative(root, file)} imports ${spec}`);
      }
    }
  }
  return found;
}

describe('import direction', () => {
  it('no source folder imports sideways or upward', () => {
    expect(violations()).toEqual([]);
  });

  it('the check sees imports (a sideways import in a scanned file would be listed)', () => {
    // The scan must find the resolvers' imports of the vocabulary, or it could pass on nothing.
    const resolverImports = sourceFiles('resolvers').flatMap((file) => importsOf(file).map((spec) => relative(root, resolve(dirname(file), spec))));
    expect(resolverImports.some((path) => path.startsWith(`vocabulary${sep}`))).toBe(true);
    expect(resolverImports.some((path) => path.startsWith(`platform${sep}`))).toBe(true);
  });
});
