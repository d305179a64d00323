/**
 * The WHO ATC tree: nodes (levels 1 to 5) with their DDDs, loaded per request in batches.
 * A node's ancestors follow from its code alone (N02BE01 → N, N02, N02B, N02BE).
 */
import DataLoader from 'dataloader';
import type { Queryable } from '../../platform/db.ts';

export interface Ddd {
  value: number;
  unit: string;
  route: string;
  note: string | null;
}

export interface AtcNode {
  code: string;
  name: string;
  level: number;
  parentCode: string | null;
  source: string;
  ddd: Ddd[];
}

/** Code lengths of ATC levels 1..5. */
const LEVEL_LENGTHS = [1, 3, 4, 5, 7] as const;

export function atcLevel(code: string): number | null {
  const index = LEVEL_LENGTHS.indexOf(code.length as (typeof LEVEL_LENGTHS)[number]);
  return index < 0 ? null : index + 1;
}

/** Ancestor codes of an ATC code, root first, excluding the code itself. */
export function atcAncestorCodes(code: string): string[] {
  return LEVEL_LENGTHS.filter((n) => n < code.length).map((n) => code.slice(0, n));
}

/** An `atc_nodes` row as `NODE_COLUMNS` selects it. */
export interface NodeRow {
  code: string;
  name: string;
  level: number;
  parent_code: string | null;
  source: string;
  ddd: Ddd[] | null;
}

/** Columns of `atc_nodes n` with the node's DDDs, as `toNode` reads them. */
export const NODE_COLUMNS = `n.code, n.name, n.level, n.parent_code, n.source,
  (SELECT json_agg(json_build_object('value', d.value::float8, 'unit', d.unit, 'route', d.route, 'note', d.note)
                   ORDER BY d.route, d.unit)
     FROM atc_ddd d WHERE d.code = n.code) AS ddd`;

/** Nodes by code (a constant text: a prepared statement is looked up by its text on every batch). */
const NODES_BY_CODE = `SELECT ${NODE_COLUMNS} FROM atc_nodes n WHERE n.code = ANY($1::text[])`;

/**
 * Loads ATC nodes with their DDDs by code, one query per batch. Each batch reads the
 * ancestors of its codes too and primes them, because nearly every reader of a node asks
 * for its parent chain next (the ATC node route, a drug's `atcChain`): node and chain cost
 * one round trip, not two.
 */
export function createAtcLoader(db: Queryable): DataLoader<string, AtcNode | null> {
  const loader: DataLoader<string, AtcNode | null> = new DataLoader(async (codes) => {
    const wanted = [...new Set(codes.flatMap((c) => [c, ...atcAncestorCodes(c)]))];
    const { rows } = await db.query<NodeRow>(NODES_BY_CODE, [wanted], { prepare: true });
    const byCode = new Map(rows.map((r) => [r.code, toNode(r)]));
    const asked = new Set(codes);
    for (const code of wanted) if (!asked.has(code)) loader.prime(code, byCode.get(code) ?? null);
    return codes.map((c) => byCode.get(c) ?? null);
  });
  return loader;
}

/** The node of a `NODE_COLUMNS` row. */
export function toNode(row: NodeRow): AtcNode {
  return {
    code: row.code,
    name: row.name,
    level: row.level,
    parentCode: row.parent_code,
    source: row.source,
    ddd: row.ddd ?? [],
  };
}

/** Direct children of ATC nodes by parent code, in code order, one query per batch. */
export function createAtcChildrenLoader(db: Queryable): DataLoader<string, AtcNode[]> {
  return new DataLoader(async (codes) => {
    const { rows } = await db.query<NodeRow>(
      `SELECT ${NODE_COLUMNS} FROM atc_nodes n WHERE n.parent_code = ANY($1) ORDER BY n.code`,
      [codes],
    );
    const byParent = new Map<string, AtcNode[]>();
    for (const row of rows) {
      const list = byParent.get(row.parent_code!) ?? [];
      list.push(toNode(row));
      byParent.set(row.parent_code!, list);
    }
    return codes.map((c) => byParent.get(c) ?? []);
  });
}
