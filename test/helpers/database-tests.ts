/**
 * Which test files reach a database. A file's backend comes only from test/helpers/db.ts
 * (`inject('testDatabase')`), so a file that does not import it, directly or through the
 * modules it imports, runs the same on every backend: the postgres project leaves it to the
 * PGlite run instead of running it twice. The scan follows relative imports (static, type
 * and dynamic) from each test file; read at config time, it needs no list to keep.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'(\.{1,2}\/[^']+\.ts)'/gm;

function relativeImports(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return [...text.matchAll(IMPORT)].map((m) => resolve(dirname(file), m[1]!));
}

/** Test files (relative to `root`) whose import graph reaches `marker`. */
export function testFilesReaching(root: string, testDir: string, marker: string): string[] {
  const target = resolve(root, marker);
  const importsOf = new Map<string, string[]>();
  const reaches = (start: string): boolean => {
    const seen = new Set([start]);
    const queue = [start];
    for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
      if (file === target) return true;
      if (!importsOf.has(file)) importsOf.set(file, relativeImports(file));
      for (const next of importsOf.get(file)!) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(next);
      }
    }
    return false;
  };
  return readdirSync(resolve(root, testDir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter(reaches)
    .map((file) => relative(root, file));
}
