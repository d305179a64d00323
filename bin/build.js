#!/usr/bin/env node
// Compiles the TypeScript sources to dist/ (tsc, tsconfig.build.json) so `drugref` starts
// without compiling at run time; run once at install by `npm prepare`. Files the modules read
// next to themselves are put into dist/ at the same relative paths: the migrations and the
// GraphQL schema linked whole, the other files of the source folders (data files, the
// console's assets) copied, since the static file server lists real files only. bin/drugref.js runs dist/ while it is newer
// than every source file, else the sources through tsx.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');

/** Source folders compiled to dist/; their other files are copied beside the output. */
export const SOURCE_DIRS = ['cli', 'facades', 'platform', 'vocabulary', 'resolvers', 'workers', 'data'];
/** Folders with no TypeScript, read at run time relative to the modules: linked whole. */
const ASSET_DIRS = ['migrations', 'schema'];

rmSync(dist, { recursive: true, force: true });
let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  // An install without dev dependencies has no compiler: drugref then runs through tsx.
  process.stdout.write('drugref: typescript is not installed; no build, the sources run through tsx.\n');
  process.exit(0);
}
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
for (const dir of ASSET_DIRS) symlinkSync(join('..', dir), join(dist, dir));
for (const dir of SOURCE_DIRS) {
  for (const entry of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith('.ts')) continue;
    const file = join(entry.parentPath, entry.name);
    const target = join(dist, relative(root, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
}
// The build's time: bin/drugref.js compares it with the sources' modification times.
writeFileSync(join(dist, '.built'), `${new Date().toISOString()}\n`);
