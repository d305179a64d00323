/**
 * `Database.listen` on both backends (platform/db-listen.ts): NOTIFYs from any statement
 * reach the handler once their transaction commits, only on the channel asked for, and no
 * longer after the returned function stops listening.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { openTestDatabase } from '../helpers/db.ts';

describe('Database.listen', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  it('delivers a NOTIFY when its transaction commits, not before, and stops when asked', async () => {
    const got: string[] = [];
    const states: boolean[] = [];
    const stop = await db.listen!('drugref_test', { notify: (p) => got.push(p), state: (on) => states.push(on) });
    expect(states).toEqual([true]);
    await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_notify('drugref_test', 'in-tx')`);
      await tx.query(`SELECT pg_notify('drugref_other', 'elsewhere')`);
      expect(got).toEqual([]);
    });
    await vi.waitFor(() => expect(got).toEqual(['in-tx']), { timeout: 5_000, interval: 10 });
    await db.query(`SELECT pg_notify('drugref_test', 'autocommit')`);
    await vi.waitFor(() => expect(got).toEqual(['in-tx', 'autocommit']), { timeout: 5_000, interval: 10 });
    stop();
    await db.query(`SELECT pg_notify('drugref_test', 'after stop')`);
    // A later notification on a channel still listened to proves the stopped one had its chance to arrive.
    const later: string[] = [];
    await db.listen!('drugref_later', { notify: (p) => later.push(p) });
    await db.query(`SELECT pg_notify('drugref_later', 'x')`);
    await vi.waitFor(() => expect(later).toEqual(['x']), { timeout: 5_000, interval: 10 });
    expect(got).toEqual(['in-tx', 'autocommit']);
  });

  it('refuses a channel that is not a plain identifier (it is spliced into LISTEN)', async () => {
    await expect(db.listen!('x; DROP TABLE sources', { notify: () => undefined })).rejects.toThrow(RangeError);
    await expect(db.listen!('Upper', { notify: () => undefined })).rejects.toThrow(RangeError);
  });
});
