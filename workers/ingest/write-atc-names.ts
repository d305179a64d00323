/**
 * WHO's level-5 names as substances (`atc_names`, see vocabulary/atc-names.ts),
 * rewritten whole when an ingest changes the ATC tree: a few thousand short rows, read by
 * the ATC link pass (link-atc.ts) and by interaction checks by name.
 */
import type { Queryable } from '../../platform/db.ts';
import { readAtcName } from '../../vocabulary/atc-names.ts';
import { inChunks, recordset } from './plan.ts';

const INSERT = `
  INSERT INTO atc_names (code, kind, slot, slots, name_key, plain, qualified)
  SELECT code, kind, slot, slots, name_key, plain, qualified FROM jsonb_to_recordset($1::jsonb)
    AS r(code text, kind text, slot smallint, slots smallint, name_key text, plain text, qualified boolean)
  ON CONFLICT DO NOTHING`;

/** Rewrites `atc_names` from the stored level-5 nodes; returns the number of rows. */
export async function writeAtcNames(tx: Queryable): Promise<number> {
  const { rows } = await tx.query<{ code: string; name: string }>('SELECT code, name FROM atc_nodes WHERE level = 5');
  const names = rows.flatMap(({ code, name }) => {
    const reading = readAtcName(code, name);
    if (!reading) return [];
    return reading.slots.flatMap(({ slot, keys }) => keys.map((name_key) => ({
      code, kind: reading.kind, slot, slots: reading.slots.length, name_key, plain: reading.plain, qualified: reading.qualified,
    })));
  });
  await tx.query('DELETE FROM atc_names');
  await inChunks(names, (chunk) => tx.query(INSERT, [recordset(chunk)]));
  return names.length;
}

/** True when the stored names lag the tree: level-5 nodes and no names (a catalogue loaded before they existed). */
export async function atcNamesMissing(tx: Queryable): Promise<boolean> {
  const { rows } = await tx.query<{ missing: boolean }>(
    'SELECT NOT EXISTS (SELECT 1 FROM atc_names) AND EXISTS (SELECT 1 FROM atc_nodes WHERE level = 5) AS missing');
  return rows[0]?.missing ?? false;
}
