import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pack, type Header } from 'tar-stream';
import { extractTar, readTar, tarOf } from '../../cli/tar.ts';

/** An archive written by tar-stream; names as given (PGlite writes them with a leading slash). */
async function archive(entries: Array<Partial<Header> & { name: string; data?: string }>): Promise<Buffer> {
  const writer = pack();
  for (const { data, ...header } of entries) {
    if (data === undefined) writer.entry(header);
    else writer.entry({ mode: 0o600, ...header }, data);
  }
  writer.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of writer) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('tar archives of a data directory', () => {
  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'drugref-tar-')); });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  // As PGlite's dumpDataDir writes them: names with a leading slash, folders before their files.
  const sample = archive([
    { name: '/base', type: 'directory', mode: 0o700 },
    { name: '/base/1', type: 'directory', mode: 0o750 },
    { name: '/base/1/1259', data: 'x'.repeat(700) },
    { name: '/PG_VERSION', data: '17\n', mode: 0o640 },
    { name: '/pg_wal/000000010000000000000002', data: 'wal' },
  ]);

  it('reads files and folders without their leading slash, with their data', async () => {
    const entries = await readTar(await sample);
    expect(entries.map((e) => [e.name, e.header.type, e.data.length])).toEqual([
      ['base', 'directory', 0], ['base/1', 'directory', 0], ['base/1/1259', 'file', 700], ['PG_VERSION', 'file', 3], ['pg_wal/000000010000000000000002', 'file', 3],
    ]);
  });

  it('writes a subset that reads back as those entries, modes kept', async () => {
    const kept = (await readTar(await sample)).filter((e) => !e.name.startsWith('pg_wal/'));
    const again = await readTar(await tarOf(kept));
    expect(again.map((e) => [e.name, e.header.mode])).toEqual([['base', 0o700], ['base/1', 0o750], ['base/1/1259', 0o600], ['PG_VERSION', 0o640]]);
    expect(Buffer.from(again[2]!.data).toString()).toBe('x'.repeat(700));
  });

  it('extracts into a new folder with the archive\'s modes, renamed into place only when complete', async () => {
    const target = join(dir, 'pglite');
    await extractTar(await sample, target);
    expect(await readFile(join(target, 'base', '1', '1259'), 'utf8')).toBe('x'.repeat(700));
    expect(await readFile(join(target, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect((await stat(join(target, 'PG_VERSION'))).mode & 0o777).toBe(0o640);
    expect((await stat(join(target, 'base', '1'))).mode & 0o777).toBe(0o750);
    // A file whose folder has no entry of its own gets one.
    expect(await readFile(join(target, 'pg_wal', '000000010000000000000002'), 'utf8')).toBe('wal');
    expect(await readdir(dir)).toEqual(['pglite']);
  });

  it('reads the archives GNU tar writes, skipping the "./" entry', async () => {
    const src = join(dir, 'src');
    await mkdir(join(src, 'a'), { recursive: true });
    await writeFile(join(src, 'a', 'f'), 'hi');
    const bytes = execFileSync('tar', ['--format=ustar', '-cf', '-', '-C', src, '.']);
    expect((await readTar(bytes)).map((e) => e.name)).toEqual(['a', 'a/f']);
  });

  it('refuses links, names that climb out of the folder and truncated archives, leaving nothing behind', async () => {
    await expect(readTar(await archive([{ name: '/base/link', type: 'symlink', linkname: '/etc/passwd' }]))).rejects.toThrow('unsupported type "symlink"');
    await expect(readTar(await archive([{ name: '/base/hard', type: 'link', linkname: '/base/1259' }]))).rejects.toThrow('unsupported type "link"');
    await expect(readTar(await archive([{ name: '../../etc/passwd', data: 'x' }]))).rejects.toThrow('unsafe entry name');
    const whole = await sample;
    await expect(readTar(whole.subarray(0, 2048))).rejects.toThrow();
    const target = join(dir, 'refused');
    await expect(extractTar(await archive([{ name: 'a', data: 'x' }, { name: 'a/../../x', data: 'x' }]), target)).rejects.toThrow('unsafe entry name');
    expect(await readdir(dir)).not.toContain('refused.partial');
    expect(await readdir(dir)).not.toContain('refused');
  });
});
