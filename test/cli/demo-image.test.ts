import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoImage, demoImageKey, demoImagePath, readDemoImage } from '../../cli/demo-image.ts';
import { ensureDemoCatalogue } from '../../cli/demo-catalogue.ts';
import { readTar } from '../../cli/tar.ts';
import { openDatabase } from '../../platform/db.ts';
import { openTestDatabase, testBackend } from '../helpers/db.ts';
import { cliEnv, exitOf, startServer } from './helpers.ts';

// The image is an embedded-database data directory: one run on the PGlite project is enough.
describe.skipIf(testBackend() === 'postgres')('the prepared demo image', { timeout: 180_000 }, () => {
  let dir: string;
  let image: Blob;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drugref-image-'));
    // `npm ci` prepared it already in CI; a working tree with edited sources builds it here.
    image = (await readDemoImage()) ?? (await buildDemoImage(), (await readDemoImage())!);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('names the image after the content that decides it: a migration changes the name, a test file does not', async () => {
    const root = join(dir, 'root');
    await mkdir(join(root, 'migrations'), { recursive: true });
    await mkdir(join(root, 'test'), { recursive: true });
    await writeFile(join(root, 'migrations', '0001_a.sql'), 'CREATE TABLE a (id int);');
    const first = await demoImageKey(root);
    await writeFile(join(root, 'test', 'x.test.ts'), 'unrelated');
    expect(await demoImageKey(root)).toBe(first);
    await writeFile(join(root, 'migrations', '0001_a.sql'), 'CREATE TABLE a (id bigint);');
    expect(await demoImageKey(root)).not.toBe(first);
  });

  it('holds the demo catalogue the engine loads and no account, key or secret', async () => {
    const restored = await openDatabase({ dataDir: 'memory://', loadDataDir: image });
    const reference = await openTestDatabase({ demo: true });
    try {
      for (const table of ['accounts', 'api_keys', 'webhook_subscriptions', 'byol_credentials', 'receipt_fallback_key', 'webhook_fallback_key']) {
        expect((await restored.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]).toEqual({ n: 0 });
      }
      // The image's change log also holds the interaction set's and rates' records; the catalogue is the engine's.
      for (const table of ['products', 'packs', 'identifiers', 'atc_nodes', 'substances']) {
        const count = `SELECT count(*)::int AS n FROM ${table}`;
        expect((await restored.query(count)).rows[0]).toEqual((await reference.query(count)).rows[0]);
      }
      expect((await restored.query('SELECT count(*)::int AS n FROM interaction_rules')).rows[0]!.n).toBeGreaterThan(0);
      expect((await restored.query('SELECT count(*)::int AS n FROM fx_rates')).rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await restored.close();
      await reference.close();
    }
  });

  it('removes the images of earlier sources when it builds one (only the current one can be restored)', async () => {
    const stale = join(dirname(await demoImagePath()), 'demo-0000000000000000.tar');
    await writeFile(stale, 'an image of sources that no longer exist');
    const { path } = await buildDemoImage();
    expect(path).toBe(await demoImagePath());
    await expect(stat(stale)).rejects.toThrow(/ENOENT/);
    expect((await stat(path)).size).toBeGreaterThan(1_000_000);
  });

  it('carries one WAL segment: the checkpoint\'s; the ones PostgreSQL preallocates after it are left out (16 MB each)', async () => {
    const segments = (await readTar(new Uint8Array(await image.arrayBuffer()))).filter((e) => /^pg_wal\/[0-9A-F]{24}$/.test(e.name));
    expect(segments).toHaveLength(1);
  });

  it('seeds a first start: the catalogue is restored, a demo key is made for this installation, and the API answers', async () => {
    const data = join(dir, 'data');
    const server = await startServer(cliEnv(data, { PORT: '0', HOST: '127.0.0.1' }));
    try {
      expect(server.output()).toContain('Demo catalogue restored from the image prepared at install');
      expect(server.output()).not.toContain('Loading the demo catalogue');
      const key = /Demo API key: (\S+)/.exec(server.output())?.[1];
      expect(key).toMatch(/^svc_live_/);
      const res = await fetch(`${server.url}/v1/drugs?q=ibuprofen`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { results: Array<{ name: string }> };
      expect(body.results.length).toBeGreaterThan(0);
      expect(body.results.every((row) => /ibuprof/i.test(JSON.stringify(row)))).toBe(true);
    } finally {
      const exited = exitOf(server.child);
      server.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('announces the slow path once, before the catalogue loads, when there is no image', async () => {
    // The run's migrated template: the catalogue load is under test here, not the migrations.
    const db = await openTestDatabase();
    try {
      const announced: string[] = [];
      const first = await ensureDemoCatalogue(db, {}, () => announced.push('loading'));
      expect(first.state).toBe('loaded');
      const second = await ensureDemoCatalogue(db, {}, () => announced.push('loading'));
      expect(second.state).toBe('present');
      expect(announced).toEqual(['loading']);
    } finally {
      await db.close();
    }
  });
});
