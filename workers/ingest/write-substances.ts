/**
 * Substances and their class links. `substances` is keyed globally by UNII (or provisional
 * key), so a substance another source already holds is left to it (counted as shared).
 */
import type { Queryable } from '../../platform/db.ts';
import { assertUniqueKeys, diffRecords } from './diff.ts';
import { substanceImage } from './images.ts';
import { changesOf, countsOf, inChunks, recordset } from './plan.ts';
import type { KindPlan } from './plan.ts';
import { storedHashes, storedImages } from './records.ts';
import type { SubstanceEntry } from './snapshot.ts';

export interface SubstancePlan extends KindPlan {
  /** UNIIs whose substance rows this plan writes or deletes (products using them need new signatures). */
  touched: string[];
  /** Moieties as they will be after this plan: written substances' moieties, deleted ones fold to themselves. */
  moieties: Map<string, string>;
}

/** Plans the substances of a snapshot. */
export async function planSubstances(tx: Queryable, source: string, entries: readonly SubstanceEntry[]): Promise<SubstancePlan> {
  const records = entries.map(substanceImage);
  assertUniqueKeys('substance', records);
  const stored = await storedHashes(tx, 'substances', source, records.map((r) => r.key));
  const diff = diffRecords(source, records, stored);
  const before = await storedImages(tx, 'substances', source, [...diff.updates, ...diff.deletes].map((r) => r.key));
  const rows = diff.upserts.map(({ record: { key, image, hash, entry } }) => ({
    unii: key, name: entry.name, names: entry.names ?? {}, provisional: image.provisional, moiety_unii: image.moiety_unii,
    formula: entry.formula, smiles: entry.smiles, inchikey: entry.inchikey, rxcui: entry.rxcui, atc_codes: entry.atc_codes ?? [],
    record: image, content_hash: hash,
  }));
  const links = diff.upserts.flatMap(({ record }) => uniqueClasses(record.entry).map((c) => ({ unii: record.key, ...c })));
  return {
    table: 'substances',
    counts: countsOf(diff),
    changes: changesOf(diff, { table: 'substances', source, naturalKey: (unii) => ({ unii }), before }),
    touched: [...diff.upserts.map((u) => u.record.key), ...diff.deletes.map((d) => d.key)],
    moieties: new Map([...rows.map((r) => [r.unii, String(r.moiety_unii)] as const), ...diff.deletes.map((d) => [d.key, d.key] as const)]),
    async upsert(q) {
      if (rows.length === 0) return;
      await inChunks(rows, (chunk) => q.query(
        `INSERT INTO substances (unii, name, names, provisional, moiety_unii, formula, smiles, inchikey, rxcui, atc_codes, source, record, content_hash)
         SELECT r.unii, r.name, r.names, r.provisional, r.moiety_unii, r.formula, r.smiles, r.inchikey, r.rxcui,
                ARRAY(SELECT jsonb_array_elements_text(r.atc_codes)), $2, r.record, r.content_hash
         FROM jsonb_to_recordset($1::jsonb) AS r(unii text, name text, names jsonb, provisional boolean, moiety_unii text, formula text,
              smiles text, inchikey text, rxcui text, atc_codes jsonb, record jsonb, content_hash text)
         ON CONFLICT (unii) DO UPDATE SET name = EXCLUDED.name, names = EXCLUDED.names, provisional = EXCLUDED.provisional,
           moiety_unii = EXCLUDED.moiety_unii, formula = EXCLUDED.formula, smiles = EXCLUDED.smiles, inchikey = EXCLUDED.inchikey,
           rxcui = EXCLUDED.rxcui, atc_codes = EXCLUDED.atc_codes, source = EXCLUDED.source, record = EXCLUDED.record,
           content_hash = EXCLUDED.content_hash`,
        [recordset(chunk), source],
      ));
      await q.query('DELETE FROM substance_classes WHERE unii = ANY($1::text[])', [diff.updates.map((u) => u.key)]);
      // A link to a class no source has loaded fails the ingest (foreign key), as it should.
      await q.query(
        `INSERT INTO substance_classes (unii, system, code)
         SELECT unii, system, code FROM jsonb_to_recordset($1::jsonb) AS r(unii text, system text, code text)`,
        [recordset(links)],
      );
    },
    async remove(q) {
      if (diff.deletes.length === 0) return;
      await q.query('DELETE FROM substances WHERE source = $1 AND unii = ANY($2::text[])', [source, diff.deletes.map((d) => d.key)]);
    },
  };
}

function uniqueClasses(entry: SubstanceEntry): Array<{ system: string; code: string }> {
  const seen = new Map<string, { system: string; code: string }>();
  for (const c of entry.classes ?? []) seen.set(`${c.system}|${c.code}`, { system: c.system, code: c.code });
  return [...seen.values()];
}
