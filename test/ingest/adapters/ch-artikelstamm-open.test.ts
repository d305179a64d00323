/**
 * The streamed Artikelstamm adapter (what `drugref ingest ch-artikelstamm` runs) must give exactly
 * what the in-memory parser gives, from memory and from disk, also for a generated file whose
 * products' items are spread over many read blocks; a file that changes between the passes is refused.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artikelstammFile, writeArtikelstammFile } from '../../../bench/artikelstamm-release.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseChArtikelstamm } from '../../../workers/ingest/adapters/ch-artikelstamm.ts';
import { openChArtikelstamm } from '../../../workers/ingest/adapters/ch-artikelstamm-open.ts';
import { fileInput } from '../../../workers/ingest/adapters/line-stream.ts';
import { collectStreamed } from '../../helpers/streamed.ts';

const FIXTURES = new URL('../../fixtures/registers/ch-artikelstamm/', import.meta.url);
const NAME = 'artikelstamm.xml';
const fixture = (name: string): InputFile => ({ name: NAME, content: readFileSync(new URL(name, FIXTURES)) });
const onDisk = (name: string): InputFile => fileInput(new URL(name, FIXTURES).pathname, NAME);

describe('ch-artikelstamm streamed', () => {
  let dir: string;
  beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'drugref-artikelstamm-open-')); });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the fixture exactly as the in-memory parser does, from memory and from disk', async () => {
    const expected = parseChArtikelstamm(NAME, fixture(NAME).content);
    expect(expected.problems.length).toBeGreaterThan(0);
    expect(await collectStreamed(await openChArtikelstamm([fixture(NAME)]))).toEqual(expected);
    expect(await collectStreamed(await openChArtikelstamm([onDisk(NAME)]))).toEqual(expected);
  });

  it('refuses the same wrong files as the parser', async () => {
    for (const name of ['artikelstamm-v3.xml', 'truncated.xml']) {
      expect(() => parseChArtikelstamm(NAME, fixture(name).content)).toThrow();
      const message = (() => { try { parseChArtikelstamm(NAME, fixture(name).content); return ''; } catch (error) { return (error as Error).message; } })();
      await expect(openChArtikelstamm([onDisk(name)])).rejects.toThrow(message);
    }
  });

  it('assembles products whose items are spread over a generated file of many read blocks as the parser does', async () => {
    const path = join(dir, NAME);
    await writeArtikelstammFile(path, 12_000);
    const content = readFileSync(path);
    const expected = parseChArtikelstamm(NAME, content);
    expect(content.length).toBeGreaterThan(3 << 20);
    expect(expected.problems.length + Number(expected.files?.[0]?.excluded?.duplicate ?? 0)).toBeGreaterThan(3);
    expect(expected.snapshot.products!.filter((p) => p.key.startsWith('99') && p.packs.length === 2).length).toBeGreaterThan(0);
    expect(expected.snapshot.products!.some((p) => p.packs.some((pack) => pack.sl?.limitations))).toBe(true);
    expect(await collectStreamed(await openChArtikelstamm([fileInput(path, NAME)]))).toEqual(expected);
  });

  it('refuses the ingest when the file changes between opening and streaming', async () => {
    const path = join(dir, 'changing.xml');
    writeFileSync(path, [...artikelstammFile(60)].join(''));
    const opened = await openChArtikelstamm([fileInput(path, NAME)]);
    writeFileSync(path, [...artikelstammFile(60)].join('').replace(/<GTIN>761/g, '<GTIN>x761'));
    await expect(collectStreamed(opened)).rejects.toThrow(/changed during the ingest/);
  });
});
