/** Small seeds shared by platform tests: one ATC branch served by GET /v1/atc/{code}. */
import type { Queryable } from '../../platform/db.ts';

export async function seedAtcBranch(db: Queryable): Promise<void> {
  await db.query(`INSERT INTO sources (id, name, refresh_interval_hours, last_synced_at, demo)
                  VALUES ('who-atc', 'WHO ATC/DDD index', 8760, now(), false) ON CONFLICT DO NOTHING`);
  await db.query(`INSERT INTO atc_nodes (code, name, level, parent_code, source) VALUES
      ('N', 'NERVOUS SYSTEM', 1, NULL, 'who-atc'), ('N02', 'ANALGESICS', 2, 'N', 'who-atc'),
      ('N02B', 'OTHER ANALGESICS AND ANTIPYRETICS', 3, 'N02', 'who-atc'), ('N02BE', 'Anilides', 4, 'N02B', 'who-atc'),
      ('N02BE01', 'paracetamol', 5, 'N02BE', 'who-atc') ON CONFLICT DO NOTHING`);
  await db.query(`INSERT INTO atc_ddd (code, value, unit, route) VALUES ('N02BE01', 3, 'g', 'O'), ('N02BE01', 3, 'g', 'R')
                  ON CONFLICT DO NOTHING`);
}
