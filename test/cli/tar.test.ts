import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractTar, readTar, tarOf } from '../../cli/tar.ts';

/** One ustar header (the checksum is left blank: the reader does not check it). */
function header(name: string, type: '0' | '5' | '2', size: number, mode = 0o600): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0, 'utf8');
  block.write(`${mode.toString(8).padStart(7, '0')}\0`, 100);
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  block.write(type, 156);
  block.write('ustar\0' + '00', 257);
  return block;
}

function archive(entries: Array<{ name: string; type?: '0' | '5' | '2'; data?: string }>): Buffer {
  const parts = entries.flatMap(({ name, type, data = '' }) => {
    const bytes = Buffer.from(data);
    return [header(name, type ?? (data || !name.endsWith('/') ? '0' : '5'), bytes.length), bytes, Buffer.alloc((512 - (bytes.length % 512)) % 512)];
  });
  return Buffer.concat([...parts, Buffer.alloc(1024)]);
}

describe('tar archives of a data directory', () => {
  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'drugref-tar-')); });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const sample = archive([
    { name: '/base', type: '5' },
    { name: '/base/1', type: '5' },
    { name: '/base/1/1259', data: 'x'.repeat(700) },
    { name: '/PG_VERSION', data: '17\n' },
    { name: '/pg_wal/000000010000000000000002', data: 'wal' },
  ]);

  it('reads files and folders without their leading slash, with their data', () => {
    const entries = readTar(sample);
    expect(entries.map((e) => [e.name, e.type, e.data.length])).toEqual([
      ['base', 'dir', 0], ['base/1', 'dir', 0], ['base/1/1259', 'file', 700], ['PG_VERSION', 'file', 3], ['pg_wal/000000010000000000000002', 'file', 3],
    ]);
  });

  it('writes a subset that reads back as those entries', () => {
    const kept = readTar(sample).filter((e) => !e.name.startsWith('pg_wal/'));
    const again = readTar(tarOf(sample, kept));
    expect(again.map((e) => e.name)).toEqual(['base', 'base/1', 'base/1/1259', 'PG_VERSION']);
    expect(Buffer.from(again[2]!.data).toString()).toBe('x'.repeat(700));
  });

  it('extracts into a new folder, renamed into place only when complete', async () => {
    const target = join(dir, 'pglite');
    await extractTar(sample, target);
    expect(await readFile(join(target, 'base', '1', '1259'), 'utf8')).toBe('x'.repeat(700));
    expect(await readFile(join(target, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect((await stat(join(target, 'PG_VERSION'))).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['pglite']);
  });

  it('reads the archives GNU tar writes, skipping the "./" entry', async () => {
    const src = join(dir, 'src');
    await mkdir(join(src, 'a'), { recursive: true });
    await writeFile(join(src, 'a', 'f'), 'hi');
    const bytes = execFileSync('tar', ['--format=ustar', '-cf', '-', '-C', src, '.']);
    expect(readTar(bytes).map((e) => e.name)).toEqual(['a', 'a/f']);
  });

  it('refuses links and names that climb out of the folder, leaving nothing behind', async () => {
    expect(() => readTar(archive([{ name: '/base/link', type: '2' }]))).toThrow('unsupported type "2"');
    expect(() => readTar(archive([{ name: '../../etc/passwd', data: 'x' }]))).toThrow('unsafe entry name');
    const target = join(dir, 'refused');
    await expect(extractTar(archive([{ name: 'a/../../x', data: 'x' }]), target)).rejects.toThrow('unsafe entry name');
    expect(await readdir(dir)).not.toContain('refused.partial');
  });
});
