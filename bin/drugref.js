#!/usr/bin/env node
// The `drugref` command. It runs the JavaScript compiled at install (dist/, bin/build.js)
// while that build is newer than every TypeScript source; otherwise (no build, or sources
// edited since) it compiles the sources at run time through tsx's loader.
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const SOURCE_DIRS = ['cli', 'facades', 'platform', 'vocabulary', 'resolvers', 'workers', 'data'];

function buildIsCurrent() {
  let built;
  try {
    built = statSync(join(root, 'dist', '.built')).mtimeMs;
  } catch {
    return false;
  }
  for (const dir of SOURCE_DIRS) {
    for (const entry of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.ts') && statSync(join(entry.parentPath, entry.name)).mtimeMs > built) return false;
    }
  }
  return true;
}

if (buildIsCurrent()) {
  await import('../dist/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../cli/main.ts');
}
