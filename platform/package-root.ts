/**
 * The package's own folder and version. The sources run from their folders (through tsx) or
 * compiled to `dist/` (bin/build.js); either way the package root is the folder holding
 * `package.json` and the TypeScript sources, which is what these paths are relative to.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const parent = dirname(dirname(fileURLToPath(import.meta.url)));

/** The folder of package.json (the parent of `dist/` when running the compiled build). */
export const PACKAGE_ROOT = basename(parent) === 'dist' ? dirname(parent) : parent;

/**
 * The package version: the one version `drugref --version`, the OpenAPI document's
 * `info.version` and the MCP server's `serverInfo.version` all report.
 */
export const PACKAGE_VERSION: string = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
