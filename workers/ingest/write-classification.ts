/**
 * ATC nodes (with their DDDs) and therapeutic classes: shared tables keyed globally by code,
 * so a key another source already holds is left to it. Neither table keeps a `record`
 * column; the image is rebuilt from the columns and compared with the snapshot's image.
 * DDD rows carry their own source (migration 0610), because WHO's DDD table can be loaded
 * before, after or without the code list that names the nodes.
 */
import type { Queryable } from '../../platform/db.ts';
import { canonicalise, contentHash } from './canonical.ts';
import type { JsonValue } from './canonical.ts';
import { assertUniqueKeys, diffRecords } from './diff.ts';
import type { StoredRow } from './diff.ts';
import { atcLevel } from '../../vocabulary/codes.ts';
import { atcParent, classImage, normaliseDdd } from './images.ts';
import type { Imaged } from './images.ts';
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

/**
 * What one ATC code holds: its node in the tree (name, from a code list) and its DDDs (from a
 * DDD table). WHO publishes the two as separate files, so a snapshot may carry either or both.
 */
interface AtcRecord {
  code: string;
  name?: string;
  level: number | null;
  ddd: DddEntry[];
}

interface StoredAtc extends AtcRecord {
  /** The source holding the code: its node's source, else its DDDs' source (DDD table loaded first). */
  owner: string;
}

function atcRecordImage(record: AtcRecord): JsonValue {
  return canonicalise({ code: record.code, name: record.name, level: record.level, ddd: record.ddd });
}

/** Stored ATC codes of `source`, and every stored code among `codes`, with node and DDDs. */
async function storedAtc(tx: Queryable, source: string, codes: string[]): Promise<Map<string, StoredAtc>> {
  const { rows } = await tx.query<{ code: string; name: string | null; node_source: string | null; ddd_source: string | null; ddd: DddEntry[] }>(
    `WITH keys AS (
       SELECT code FROM atc_nodes WHERE source = $1 OR code = ANY($2::text[])
       UNION
       SELECT d.code FROM atc_ddd d LEFT JOIN atc_nodes n ON n.code = d.code
        WHERE coalesce(d.source, n.source) = $1 OR d.code = ANY($2::text[]))
     SELECT k.code, n.name, n.source AS node_source,
            (SELECT min(coalesce(d.source, n.source)) FROM atc_ddd d WHERE d.code = k.code) AS ddd_source,
            coalesce((SELECT jsonb_agg(jsonb_build_object('value', d.value, 'unit', d.unit, 'route', d.route, 'note', d.note))
                        FROM atc_ddd d WHERE d.code = k.code), '[]') AS ddd
     FROM keys k LEFT JOIN atc_nodes n ON n.code = k.code`,
    [source, codes],
  );
  const out = new Map<string, StoredAtc>();
  for (const r of rows) {
    const owner = r.node_source ?? r.ddd_source;
    if (!owner) continue;
    out.set(r.code, { code: r.code, name: r.name ?? undefined, level: atcLevel(r.code), ddd: normaliseDdd(r.ddd), owner });
  }
  return out;
}

/** The facts a snapshot's ATC entries carry: the tree when any entry names its code, DDDs when any entry lists them. */
function atcScope(entries: readonly AtcEntry[]): { tree: boolean; ddd: boolean } {
  return {
    tree: entries.some((e) => typeof e.name === 'string' && e.name.trim() !== ''),
    ddd: entries.some((e) => e.ddd !== undefined),
  };
}

function imagedAtc(record: AtcRecord): Imaged<AtcRecord> {
  const image = atcRecordImage(record) as Record<string, JsonValue>;
  return { key: record.code, entry: record, image, hash: contentHash(image) };
}

/**
 * Plans the ATC codes of a snapshot. The facts the snapshot does not carry are taken from what
 * is stored: a code list leaves DDDs alone and a DDD table leaves the tree alone, so the two
 * WHO files give the same state loaded together, one after the other in either order, or one
 * of them again later. A code is one record (one change record) whatever it holds; it is
 * deleted when it has neither a node nor a DDD left.
 */
export async function planAtc(tx: Queryable, source: string, entries: readonly AtcEntry[]): Promise<KindPlan> {
  const normalised = entries.map((e) => ({ ...e, code: e.code.trim().toUpperCase() }));
  assertUniqueKeys('ATC code', normalised.map((e) => ({ key: e.code })));
  const scope = atcScope(normalised);
  const byCode = new Map(normalised.map((e) => [e.code, e]));
  const stored = await storedAtc(tx, source, [...byCode.keys()]);
  const records: Array<Imaged<AtcRecord>> = [];
  const keys = new Set([...byCode.keys(), ...[...stored.values()].filter((s) => s.owner === source).map((s) => s.code)]);
  for (const code of keys) {
    const entry = byCode.get(code);
    const held = stored.get(code);
    const level = atcLevel(code) ?? entry?.level ?? null;
    if (held && held.owner !== source) {
      // Counted as held by another source by the diff; never written.
      records.push(imagedAtc({ code, name: entry?.name, level, ddd: normaliseDdd(entry?.ddd) }));
      continue;
    }
    const name = scope.tree ? (entry?.name?.trim() || undefined) : held?.name;
    const ddd = scope.ddd ? normaliseDdd(entry?.ddd) : (held?.ddd ?? []);
    if (name === undefined && ddd.length === 0) continue;
    records.push(imagedAtc({ code, name, level, ddd }));
  }
  const storedRows = new Map<string, StoredRow>();
  const before = new Map<string, JsonValue>();
  for (const s of stored.values()) {
    const image = atcRecordImage(s);
    before.set(s.code, image);
    storedRows.set(s.code, { key: s.code, source: s.owner, hash: contentHash(image) });
  }
  const diff = diffRecords(source, records, storedRows);
  const upserts = diff.upserts.map(({ record }) => record.entry);
  const sameDdd = (a: DddEntry[], b: DddEntry[]) => contentHash(a) === contentHash(b);
  const nodes = upserts.filter((r) => r.name !== undefined);
  const dropNodes = [
    ...upserts.filter((r) => r.name === undefined && stored.get(r.code)?.name !== undefined).map((r) => r.code),
    ...diff.deletes.filter((d) => stored.get(d.key)?.name !== undefined).map((d) => d.key),
  ];
  const dddChanged = upserts.filter((r) => !sameDdd(r.ddd, stored.get(r.code)?.ddd ?? []));
  return {
    table: 'atc_nodes',
    counts: countsOf(diff),
    changes: changesOf(diff, { table: 'atc_nodes', source, naturalKey: (code) => ({ code }), before }),
    async upsert(q) {
      if (nodes.length > 0) {
        const rows = nodes.map((r) => ({ code: r.code, name: r.name, level: r.level, parent_code: atcParent(r.code) }));
        await q.query(
          `INSERT INTO atc_nodes (code, name, level, parent_code, source)
           SELECT code, name, level, parent_code, $2 FROM jsonb_to_recordset($1::jsonb) AS r(code text, name text, level smallint, parent_code text)
           ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name, level = EXCLUDED.level, parent_code = EXCLUDED.parent_code, source = EXCLUDED.source`,
          [recordset(rows), source],
        );
      }
      if (dddChanged.length === 0) return;
      await q.query('DELETE FROM atc_ddd WHERE code = ANY($1::text[])', [dddChanged.map((r) => r.code)]);
      const ddd = dddChanged.flatMap((r) => r.ddd.map((d) => ({ code: r.code, ...d })));
      await q.query(
        `INSERT INTO atc_ddd (code, value, unit, route, note, source)
         SELECT code, value, unit, route, note, $2 FROM jsonb_to_recordset($1::jsonb) AS r(code text, value numeric, unit text, route text, note text)`,
        [recordset(ddd), source],
      );
    },
    async remove(q) {
      if (diff.deletes.length > 0) await q.query('DELETE FROM atc_ddd WHERE code = ANY($1::text[])', [diff.deletes.map((d) => d.key)]);
      if (dropNodes.length > 0) await q.query('DELETE FROM atc_nodes WHERE source = $1 AND code = ANY($2::text[])', [source, dropNodes]);
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
