/**
 * The set-up the register sync tests share: a fresh database for the file and a fake
 * publisher serving the register files, both opened before its tests and closed after.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { FakePublisher } from '../sync/publisher.ts';
import { openTestDatabase } from './db.ts';

export interface SyncPublisherFixture {
  /** The file's database, which the sync runners write. */
  readonly db: Database;
  /** The fake publisher; `publish` a path before pointing a source at it. */
  readonly publisher: FakePublisher;
}

/** Registers the hooks in the calling describe block; read the fields inside tests only. */
export function useSyncPublisher(): SyncPublisherFixture {
  let db: Database | undefined;
  let publisher: FakePublisher | undefined;
  beforeAll(async () => {
    db = await openTestDatabase();
    publisher = await new FakePublisher().start();
  });
  afterAll(async () => {
    await publisher?.close();
    await db?.close();
  });
  const opened = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`the sync fixture's ${name} is read before its beforeAll ran`);
    return value;
  };
  return {
    get db() { return opened(db, 'database'); },
    get publisher() { return opened(publisher, 'publisher'); },
  };
}
