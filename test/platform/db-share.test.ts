import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/db.ts';
import type { Database } from '../../platform/db.ts';
import { SHARE_SOCKET_NAME } from '../../platform/db-share.ts';

// Both ends in one process: the sharing database (as `drugref serve` opens it) and a
// client reaching it through the socket (as a CLI command beside the server does). Embedded
// only, and it opens no test database, so only the PGlite project runs it.
describe('the shared embedded database', { timeout: 60_000 }, () => {
  let dir: string;
  let host: Database;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drugref-share-'));
    host = await openDatabase({ dataDir: join(dir, 'pglite'), shareDir: dir });
    await host.query('CREATE TABLE shared_rows (n int PRIMARY KEY)');
  });
  afterAll(async () => {
    await host.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows a socket client committed write to the host at once, and the reverse', async () => {
    const client = await openDatabase({ sharedBy: dir });
    expect(client.kind).toBe('pglite');
    await client.query('INSERT INTO shared_rows VALUES ($1)', [1]);
    expect((await host.query('SELECT n FROM shared_rows')).rows).toEqual([{ n: 1 }]);
    await host.query('INSERT INTO shared_rows VALUES ($1)', [2]);
    expect((await client.query('SELECT count(*)::int AS c FROM shared_rows')).rows).toEqual([{ c: 2 }]);
    await client.close();
  });

  it("keeps the host's statements out of a client's open transaction until it ends", async () => {
    const client = await openDatabase({ sharedBy: dir });
    let hostSaw: number | null = null;
    await client.transaction(async (tx) => {
      await tx.query('INSERT INTO shared_rows VALUES ($1)', [3]);
      const hostRead = host.query<{ c: number }>('SELECT count(*)::int AS c FROM shared_rows WHERE n = 3').then((r) => { hostSaw = r.rows[0]!.c; });
      await new Promise((r) => setTimeout(r, 200));
      expect(hostSaw).toBeNull(); // waiting for its turn, not reading inside the transaction
      await tx.query('DELETE FROM shared_rows WHERE n = $1', [3]);
      void hostRead;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(hostSaw).toBe(0);
    await client.close();
  });

  it('rolls back a client that goes away mid-transaction and lets the host go on', async () => {
    // A raw wire-protocol client: startup, then BEGIN and an INSERT, then the socket drops.
    const socket = connect(join(dir, SHARE_SOCKET_NAME));
    await new Promise((r) => socket.once('connect', r));
    const params = Buffer.from('user\0postgres\0database\0postgres\0\0');
    const startup = Buffer.alloc(8);
    startup.writeInt32BE(8 + params.length, 0);
    startup.writeInt32BE(196608, 4);
    const sql = Buffer.from('BEGIN; INSERT INTO shared_rows VALUES (4)\0');
    const query = Buffer.alloc(5);
    query.write('Q');
    query.writeInt32BE(4 + sql.length, 1);
    let received = Buffer.alloc(0);
    const inTransaction = new Promise<void>((resolve) => socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.includes(Buffer.from([0x5a, 0, 0, 0, 5, 0x54]))) resolve(); // ReadyForQuery 'T'
    }));
    socket.write(Buffer.concat([startup, params, query, sql]));
    await inTransaction;
    socket.destroy();
    expect((await host.query('SELECT count(*)::int AS c FROM shared_rows WHERE n = 4')).rows).toEqual([{ c: 0 }]);
    await host.query('INSERT INTO shared_rows VALUES ($1)', [5]);
    expect((await host.query('SELECT count(*)::int AS c FROM shared_rows WHERE n = 5')).rows).toEqual([{ c: 1 }]);
  });

  it("delivers a NOTIFY from a client's transaction to the host's listeners", async () => {
    const heard: string[] = [];
    const stop = await host.listen!('drugref_share_test', { notify: (p) => heard.push(p) });
    const client = await openDatabase({ sharedBy: dir });
    await client.query("SELECT pg_notify('drugref_share_test', 'from the cli')");
    await client.close();
    expect(heard).toEqual(['from the cli']);
    stop();
  });
});
