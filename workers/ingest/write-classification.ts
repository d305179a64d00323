/**
 * ATC nodes (with their DDDs) and therapeutic classes: shared tables keyed globally by code,
 * so a key another source already holds is left to it. Neither table keeps a `record`
 * column; the image is rebuilt from the columns and compared with the snapshot's image.
 */
import type { Queryable } from '../../platform/db.ts';
import { canonicalise, contentHash } from './canonical.ts';
import type { JsonValue } from './canonical.ts';
import { assertUniqueKeys, diffRecords } from './diff.ts';
import type { StoredRow } from './diff.ts';
import { atcImage, atcParent, classImage, normaliseDdd } from './images.ts';
import { changesOf, countsOf, recordset } from './plan.ts';
import type { KindPlan } from './plan.ts';
import type { AtcEntry, ClassEntry, DddEntry } from './snapshot.ts';

interface StoredImages {
  rows: Map<string, StoredRow>;
  images: Map<string, JsonValue>;
}

function remember(into: StoredImages, key: string, source: string, raw: unknown): void {
  const image = canonicalise(raw);
  into.images.set(key, image);
  into.rows.set(key, { key, source, hash: contentHash(image) });
}

async function storedAtc(tx: Queryable, source: string, codes: string[]): Promise<StoredImages> {
  const { rows } = await tx.query<{ code: string; name: string; level: number; source: string; ddd: DddEntry[] }>(
    `SELECT n.code, n.name, n.level, n.source,
            coalesce(jsonb_agg(jsonb_build_object('value', d.value, 'unit', d.unit, 'route', d.route, 'note', d.note))
                     FILTER (WHERE d.code IS NOT NULL), '[]') AS ddd
     FROM atc_nodes n LEFT JOIN atc_ddd d ON d.code = n.code
     WHERE n.source = $1 OR n.code = ANY($2::text[])
     GROUP BY n.code`,
    [source, codes],
  );
  const out: StoredImages = { rows: new Map(), images: new Map() };
  for (const r of rows) remember(out, r.code, r.source, { code: r.code, name: r.name, level: r.level, ddd: normaliseDdd(r.ddd) });
  return out;
}

/** Plans the ATC nodes of a snapshot. */
export async function planAtc(tx: Queryable, source: string, entries: readonly AtcEntry[]): Promise<KindPlan> {
  const records = entries.map(atcImage);
  assertUniqueKeys('ATC code', records);
  const stored = await storedAtc(tx, source, records.map((r) => r.key));
  const diff = diffRecords(source, records, stored.rows);
  const upserts = diff.upserts.map(({ record }) => record);
  return {
    table: 'atc_nodes',
    counts: countsOf(diff),
    changes: changesOf(diff, { table: 'atc_nodes', source, naturalKey: (code) => ({ code }), before: stored.images }),
    async upsert(q) {
      if (upserts.length === 0) return;
      const nodes = upserts.map((r) => ({ code: r.key, name: r.entry.name, level: r.image.level, parent_code: atcParent(r.key) }));
      await q.query(
        `INSERT INTO atc_nodes (code, name, level, parent_code, source)
         SELECT code, name, level, parent_code, $2 FROM jsonb_to_recordset($1::jsonb) AS r(code text, name text, level smallint, parent_code text)
         ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name, level = EXCLUDED.level, parent_code = EXCLUDED.parent_code, source = EXCLUDED.source`,
        [recordset(nodes), source],
      );
      await q.query('DELETE FROM atc_ddd WHERE code = ANY($1::text[])', [diff.updates.map((r) => r.key)]);
      const ddd = upserts.flatMap((r) => normaliseDdd(r.entry.ddd).map((d) => ({ code: r.key, ...d })));
      await q.query(
        `INSERT INTO atc_ddd (code, value, unit, route, note)
         SELECT code, value, unit, route, note FROM jsonb_to_recordset($1::jsonb) AS r(code text, value numeric, unit text, route text, note text)`,
        [recordset(ddd)],
      );
    },
    async remove(q) {
      if (diff.deletes.length === 0) return;
      await q.query('DELETE FROM atc_nodes WHERE source = $1 AND code = ANY($2::text[])', [source, diff.deletes.map((d) => d.key)]);
    },
  };
}

async function storedClasses(tx: Queryable, source: string, keys: string[]): Promise<StoredImages> {
  const { rows } = await tx.query<{ system: string; code: string; label: string; source: string }>(
    `SELECT system, code, label, source FROM classes
     WHERE source = $1 OR system || '|' || code = ANY($2::text[])`,
    [source, keys],
  );
  const out: StoredImages = { rows: new Map(), images: new Map() };
  for (const r of rows) remember(out, `${r.system}|${r.code}`, r.source, { system: r.system, code: r.code, label: r.label });
  return out;
}

/** Plans the therapeutic classes (epc, moa, pe, cs, mesh_pa) of a snapshot. */
export async function planClasses(tx: Queryable, source: string, entries: readonly ClassEntry[]): Promise<KindPlan> {
  const records = entries.map(classImage);
  assertUniqueKeys('class', records);
  const stored = await storedClasses(tx, source, records.map((r) => r.key));
  const diff = diffRecords(source, records, stored.rows);
  const split = (key: string) => ({ system: key.slice(0, key.indexOf('|')), code: key.slice(key.indexOf('|') + 1) });
  return {
    table: 'classes',
    counts: countsOf(diff),
    changes: changesOf(diff, { table: 'classes', source, naturalKey: split, before: stored.images }),
    async upsert(q) {
      if (diff.upserts.length === 0) return;
      await q.query(
        `INSERT INTO classes (system, code, label, source)
         SELECT system, code, label, $2 FROM jsonb_to_recordset($1::jsonb) AS r(system text, code text, label text)
         ON CONFLICT (system, code) DO UPDATE SET label = EXCLUDED.label, source = EXCLUDED.source`,
        [recordset(diff.upserts.map(({ record }) => record.entry)), source],
      );
    },
    async remove(q) {
      if (diff.deletes.length === 0) return;
      await q.query(`DELETE FROM classes WHERE source = $1 AND system || '|' || code = ANY($2::text[])`, [source, diff.deletes.map((d) => d.key)]);
    },
  };
}
