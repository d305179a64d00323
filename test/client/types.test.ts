import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// The typed client's answers, checked by the compiler: code that reads nested fields of a
// drug record, a market overview and an ATC node (test/client/fixtures/reads.ts), and the
// README's example, compile without a diagnostic under the project's own compiler options;
// the same code with one field misspelt gets exactly one, naming that field.
const root = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = `${root}test/client/fixtures/`;
const reads = `${fixtures}reads.ts`;
// In-memory files beside the real fixture, so `drugref/client` resolves the same way.
const misspelt = `${fixtures}reads-misspelt.ts`;
const readme = `${fixtures}readme-example.ts`;

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(`${root}tsconfig.json`, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return { ...parsed.options, noEmit: true };
}

/** The TypeScript block of the README's "Typed client" section. */
function readmeExample(): string {
  const text = readFileSync(`${root}README.md`, 'utf8');
  const section = text.slice(text.indexOf('### Typed client'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no ```ts block under "### Typed client"');
  return block;
}

function compile(files: Record<string, string>): Map<string, readonly ts.Diagnostic[]> {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => name in files || fileExists.call(host, name);
  host.readFile = (name) => files[name] ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) =>
    name in files ? ts.createSourceFile(name, files[name]!, language, true) : getSourceFile.call(host, name, language, ...rest);
  const program = ts.createProgram({ rootNames: Object.keys(files), options, host });
  expect(program.getGlobalDiagnostics().map(describeDiagnostic)).toEqual([]);
  expect(program.getOptionsDiagnostics().map(describeDiagnostic)).toEqual([]);
  return new Map(Object.keys(files).map((name) => [name, ts.getPreEmitDiagnostics(program, program.getSourceFile(name))]));
}

function describeDiagnostic(d: ts.Diagnostic): string {
  const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
  const at = d.file ? `${d.file.fileName.slice(root.length)}:${(where?.line ?? 0) + 1}: ` : '';
  return `${at}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
}

describe('drugref/client types', () => {
  const source = readFileSync(reads, 'utf8');
  const wrong = source.replace('price?.currency', 'price?.curency');
  const diagnostics = compile({ [reads]: source, [misspelt]: wrong, [readme]: readmeExample() });

  it('type-checks reads of a drug record, a market overview and an ATC node', () => {
    expect(diagnostics.get(reads)?.map(describeDiagnostic)).toEqual([]);
  });

  it("type-checks the README's example", () => {
    expect(diagnostics.get(readme)?.map(describeDiagnostic)).toEqual([]);
  });

  it('refuses a misspelt field of an answer, naming it', () => {
    expect(wrong).not.toBe(source);
    const found = diagnostics.get(misspelt) ?? [];
    expect(found.map(describeDiagnostic)).toHaveLength(1);
    const [only] = found;
    expect(only?.code).toBe(2551); // Property '…' does not exist on type '…'. Did you mean '…'?
    const message = ts.flattenDiagnosticMessageText(only!.messageText, '\n');
    expect(message).toContain("Property 'curency' does not exist");
    expect(message).toContain("Did you mean 'currency'?");
    const line = only!.file!.getLineAndCharacterOfPosition(only!.start!).line;
    expect(wrong.split('\n')[line]).toContain('price?.curency');
  });
});
