/**
 * Bad input is refused by every adapter and writes nothing: an empty file, and a file of
 * another register, given under the name the adapter's own file has. A refusal names the file
 * and why; the catalogue (and its change feed) is as it was.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../platform/db.ts';
import { ADAPTERS } from '../../../workers/ingest/adapters/index.ts';
import { parseAndIngest } from '../../../workers/ingest/apply.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { catalogueDigest } from '../snapshots.ts';

const REGISTERS = new URL('../../fixtures/registers/', import.meta.url);
/** A file no register adapter reads: the Zur Rose fixed-width article master (ch-zurrose's own). */
const FOREIGN = readFileSync(new URL('ch-zurrose/transfer.dat', REGISTERS));
/** A file for ch-zurrose of another register: the WHO DDD table. */
const FOREIGN_FOR_ZURROSE = readFileSync(new URL('who-atc/catalogue-atc.csv', REGISTERS));

describe('every adapter refuses bad input and writes nothing', () => {
  // One database for all: a refusal writes nothing, so each case starts from the same catalogue.
  let db: Database;
  let digest: string;
  beforeAll(async () => {
    db = await openTestDatabase();
    digest = await catalogueDigest(db);
  });
  afterAll(() => db.close());

  describe.each(ADAPTERS.map((a) => [a.id, a] as const))('%s', (_, adapter) => {
    const name = adapter.files[0]!.replace(/[<>]/g, '');
    it(`an empty ${name}`, async () => {
      const result = await parseAndIngest(db, adapter.id, [{ name, content: Buffer.alloc(0) }], { strict: false });
      expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/^file (rejected|unreadable): /) });
      expect(await catalogueDigest(db)).toBe(digest);
    });

    it(`a file of another register named ${name}`, async () => {
      const content = adapter.id === 'ch-zurrose' ? FOREIGN_FOR_ZURROSE : FOREIGN;
      const result = await parseAndIngest(db, adapter.id, [{ name, content }], { strict: false });
      expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/^file (rejected|unreadable): /) });
      expect(await catalogueDigest(db)).toBe(digest);
    });
  });
});
