/**
 * The streamed Refdata adapter (what `drugref ingest ch-refdata` runs) must give exactly what the
 * in-memory parser gives, from memory and from disk, also for a generated file whose products'
 * packs are spread over many read blocks; a file that changes between the passes is refused.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refdataArticles, writeRefdataArticles } from '../../../bench/refdata-release.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseChRefdataFiles } from '../../../workers/ingest/adapters/ch-refdata.ts';
import { openChRefdataFiles } from '../../../workers/ingest/adapters/ch-refdata-open.ts';
import { fileInput } from '../../../workers/ingest/adapters/line-stream.ts';
import { collectStreamed } from '../../helpers/streamed.ts';

const FIXTURES = new URL('../../fixtures/registers/ch-refdata/', import.meta.url);
const fixture = (name: string): InputFile => ({ name: 'Refdata.Articles.xml', content: readFileSync(new URL(name, FIXTURES)) });
const onDisk = (name: string): InputFile => fileInput(new URL(name, FIXTURES).pathname, 'Refdata.Articles.xml');

describe('ch-refdata streamed', () => {
  let dir: string;
  beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'drugref-refdata-open-')); });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the fixtures of both layouts, alone and together, exactly as the in-memory parser does', async () => {
    for (const names of [['Refdata.Articles.xml'], ['older/Refdata.Articles.xml'], ['older/Refdata.Articles.xml', 'Refdata.Articles.xml']]) {
      const expected = parseChRefdataFiles(names.map(fixture));
      expect(expected.problems.length + expected.snapshot.products!.length).toBeGreaterThan(0);
      expect(await collectStreamed(await openChRefdataFiles(names.map(fixture)))).toEqual(expected);
      expect(await collectStreamed(await openChRefdataFiles(names.map(onDisk)))).toEqual(expected);
    }
  });

  it('refuses the same wrong files as the parser', async () => {
    for (const name of ['wrong-root.xml', 'broken.xml']) {
      const message = (() => { try { parseChRefdataFiles([fixture(name)]); return ''; } catch (error) { return (error as Error).message; } })();
      expect(message).not.toBe('');
      await expect(openChRefdataFiles([onDisk(name)])).rejects.toThrow(message);
    }
  });

  it('groups packs spread over a generated file of many read blocks as the parser does', async () => {
    const path = join(dir, 'Refdata.Articles.xml');
    await writeRefdataArticles(path, 12_000);
    const expected = parseChRefdataFiles([{ name: 'Refdata.Articles.xml', content: readFileSync(path) }]);
    expect(readFileSync(path).length).toBeGreaterThan(3 << 20);
    expect(expected.problems.length).toBeGreaterThan(2);
    expect(expected.snapshot.products!.some((p) => p.packs.length === 3)).toBe(true);
    expect(await collectStreamed(await openChRefdataFiles([fileInput(path, 'Refdata.Articles.xml')]))).toEqual(expected);
  });

  it('refuses the ingest when the file changes between opening and streaming', async () => {
    const path = join(dir, 'changing.xml');
    writeFileSync(path, [...refdataArticles(50)].join(''));
    const opened = await openChRefdataFiles([fileInput(path, 'Refdata.Articles.xml')]);
    writeFileSync(path, [...refdataArticles(50)].join('').replace(/<DataCarrierIdentifier>761/g, '<DataCarrierIdentifier>x761'));
    await expect(collectStreamed(opened)).rejects.toThrow(/changed during the ingest/);
  });
});
