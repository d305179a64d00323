/**
 * The streamed SPL adapter (what `drugref ingest us-spl` runs) must give exactly what the
 * in-memory parser gives, from memory and from disk, also for many generated documents that
 * repeat products and packages of earlier ones; a document that changes between the passes is refused.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splDocument, writeSplDocuments } from '../../../bench/spl-release.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { fileInput } from '../../../workers/ingest/adapters/line-stream.ts';
import { parseUsSpl } from '../../../workers/ingest/adapters/us-spl.ts';
import { openUsSpl } from '../../../workers/ingest/adapters/us-spl-open.ts';
import { collectStreamed } from '../../helpers/streamed.ts';

const FIXTURES = new URL('../../fixtures/registers/us-spl/', import.meta.url);
const asOf = new Date('2025-06-01T00:00:00Z');
const fixture = (name: string): InputFile => ({ name, content: readFileSync(new URL(name, FIXTURES)) });
const onDisk = (name: string): InputFile => fileInput(new URL(name, FIXTURES).pathname, name);

describe('us-spl streamed', () => {
  let dir: string;
  beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'drugref-spl-open-')); });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the fixtures exactly as the in-memory parser does, from memory and from disk, a document given twice included', async () => {
    for (const names of [['metformin-spl.xml', 'older-spl.xml'], ['metformin-spl.xml', 'metformin-spl.xml']]) {
      const expected = parseUsSpl(names.map(fixture), { asOf });
      expect(expected.problems.length).toBeGreaterThan(0);
      expect(await collectStreamed(await openUsSpl(names.map(fixture), { asOf }))).toEqual(expected);
      expect(await collectStreamed(await openUsSpl(names.map(onDisk), { asOf }))).toEqual(expected);
    }
  });

  it('refuses the same wrong documents as the parser', async () => {
    for (const name of ['not-spl.xml', 'broken.xml']) {
      const message = (() => { try { parseUsSpl([fixture(name)]); return ''; } catch (error) { return (error as Error).message; } })();
      expect(message).not.toBe('');
      await expect(openUsSpl([onDisk(name)])).rejects.toThrow(message);
    }
  });

  it('reads generated documents that repeat earlier products and packages as the parser does', async () => {
    const paths = await writeSplDocuments(join(dir, 'release'), 1_100, 1);
    const expected = parseUsSpl(paths.map((p) => ({ name: p, content: readFileSync(p) })), { asOf });
    // A repeated product NDC is excluded as a duplicate (no problem); its repeated packages are reported.
    expect(expected.problems.map((p) => p.message)).not.toContain('duplicate product NDC 10000-2996');
    expect(expected.files!.some((f) => (f.excluded?.duplicate ?? 0) > 0)).toBe(true);
    expect(await collectStreamed(await openUsSpl(paths.map((p) => fileInput(p)), { asOf }))).toEqual(expected);
  });

  it('refuses the ingest when a document changes between opening and streaming', async () => {
    const path = join(dir, 'changing.xml');
    writeFileSync(path, splDocument(1));
    const opened = await openUsSpl([fileInput(path, 'spl.xml')], { asOf });
    writeFileSync(path, splDocument(1).replace(/<code code="10000-/g, '<code code="x10000-'));
    await expect(collectStreamed(opened)).rejects.toThrow(/changed during the ingest/);
  });
});
