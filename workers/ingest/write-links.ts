/**
 * The substance identity layer, kept current by every ingest inside its transaction:
 * normalised names of the substances it touched (`substance_names`), links of every key
 * sharing one of those names (`substance_links`, see link-identity.ts), signatures of the
 * products whose keys changed identity, and ATC codes of products whose register has none,
 * taken through their linked substances or WHO's level-5 names (link-atc.ts). A handful of
 * set-based statements per ingest.
 */
import type { Queryable } from '../../platform/db.ts';
import { normaliseInnName } from '../../vocabulary/substance-names.ts';
import { clearLinkedAtc, linkAtcCodes } from './link-atc.ts';
import { computeLinks } from './link-identity.ts';
import type { EvidenceRow, KeyRow, LinkRow, NameRow } from './link-identity.ts';
import { inChunks, recordset } from './plan.ts';
import { refreshSignatures } from './write-derived.ts';

export interface LinkReport {
  /** Keys whose link was recomputed. */
  relinked: number;
  /** Keys left unlinked because their names point to several moiety UNIIs. */
  ambiguous: Array<{ unii: string; names: string[]; candidates: string[] }>;
}

interface SubstanceNames {
  unii: string;
  name: string;
  names: Record<string, string> | null;
}

/** Normalised names of one substance: its preferred name first, then every other; combinations left out. */
export function namesOfSubstance(s: SubstanceNames): NameRow[] {
  const rows = new Map<string, NameRow>();
  for (const raw of [s.name, ...Object.values(s.names ?? {})]) {
    if (typeof raw !== 'string') continue;
    const parts = normaliseInnName(raw);
    const only = parts.length === 1 ? parts[0]! : null;
    if (only && !rows.has(only.full)) {
      rows.set(only.full, { unii: s.unii, name_key: only.key, full_key: only.full, salt_folded: only.saltFolded, curated: only.curated, raw });
    }
  }
  return [...rows.values()];
}

const INSERT_NAMES = `
  INSERT INTO substance_names (unii, name_key, full_key, salt_folded, curated, raw)
  SELECT unii, name_key, full_key, salt_folded, curated, raw FROM jsonb_to_recordset($1::jsonb)
    AS r(unii text, name_key text, full_key text, salt_folded boolean, curated boolean, raw text)`;

const INSERT_LINKS = `
  INSERT INTO substance_links (unii, identity, basis, confidence, name_key, names, evidence, candidates)
  SELECT r.unii, r.identity, r.basis, r.confidence, r.name_key,
         ARRAY(SELECT jsonb_array_elements_text(r.names)), ARRAY(SELECT jsonb_array_elements_text(r.evidence)),
         ARRAY(SELECT jsonb_array_elements_text(r.candidates))
    FROM jsonb_to_recordset($1::jsonb) AS r(unii text, identity text, basis text, confidence numeric, name_key text,
         names jsonb, evidence jsonb, candidates jsonb)`;

// Keys to relink: those sharing a name with a touched key (before or after), and those whose
// link rests on a touched UNII substance.
const AFFECTED_KEYS = `
  SELECT s.unii, s.name, s.provisional, s.moiety_unii AS moiety FROM substances s
   WHERE s.unii = ANY($2::text[])
      OR s.unii IN (SELECT unii FROM substance_names WHERE name_key = ANY($1::text[]))
      OR s.unii IN (SELECT unii FROM substance_links WHERE identity = ANY($2::text[]) OR evidence && $2::text[] OR candidates && $2::text[])`;

const EVIDENCE = `
  SELECT n.unii, n.name_key, n.full_key, s.moiety_unii AS moiety FROM substance_names n JOIN substances s ON s.unii = n.unii
   WHERE NOT s.provisional AND (n.name_key = ANY($1::text[]) OR n.full_key = ANY($2::text[]))`;

/** Rewrites the names of the touched substances; returns the name keys they had and have. */
async function writeNames(tx: Queryable, touched: readonly string[]): Promise<string[]> {
  const before = await tx.query<{ name_key: string }>('SELECT DISTINCT name_key FROM substance_names WHERE unii = ANY($1::text[])', [touched]);
  const { rows } = await tx.query<SubstanceNames>('SELECT unii, name, names FROM substances WHERE unii = ANY($1::text[])', [touched]);
  const names = rows.flatMap(namesOfSubstance);
  await tx.query('DELETE FROM substance_names WHERE unii = ANY($1::text[])', [touched]);
  await inChunks(names, (chunk) => tx.query(INSERT_NAMES, [recordset(chunk)]));
  return [...new Set([...before.rows.map((r) => r.name_key), ...names.map((n) => n.name_key)])];
}

/** Recomputes and stores the links of every key affected by `touched`; returns the keys whose identity changed. */
async function writeLinks(tx: Queryable, touched: readonly string[], nameKeys: readonly string[]): Promise<{ changed: string[]; links: LinkRow[] }> {
  const { rows: keys } = await tx.query<KeyRow>(AFFECTED_KEYS, [nameKeys, touched]);
  const uniis = keys.map((k) => k.unii);
  const { rows: names } = await tx.query<NameRow>(
    'SELECT unii, name_key, full_key, salt_folded, curated, raw FROM substance_names WHERE unii = ANY($1::text[])', [uniis]);
  const { rows: evidence } = await tx.query<EvidenceRow>(EVIDENCE, [[...new Set(names.map((n) => n.name_key))], [...new Set(names.map((n) => n.full_key))]]);
  const links = computeLinks(keys, names, evidence);
  const { rows: before } = await tx.query<{ unii: string; identity: string | null }>(
    'DELETE FROM substance_links WHERE unii = ANY($1::text[]) RETURNING unii, identity', [uniis]);
  await inChunks(links, (chunk) => tx.query(INSERT_LINKS, [recordset(chunk)]));
  const was = new Map(before.map((b) => [b.unii, b.identity]));
  const now = new Map(links.map((l) => [l.unii, l.identity]));
  const changed = uniis.filter((u) => (was.get(u) ?? null) !== (now.get(u) ?? null));
  return { changed, links };
}

/**
 * Keeps the identity layer current after one snapshot's writes (same transaction): `touched`
 * are the substance keys the snapshot wrote or deleted, `productSource` the source whose
 * products the snapshot states (all of that source's products after its deletions; null for a
 * snapshot without products). Products of every source whose keys changed identity get new
 * signatures, and products sharing a signature with them or with the snapshot's products get
 * their linked ATC code (link-atc.ts); every product without a register code does when
 * `atcNamesChanged` (WHO's level-5 names were rewritten).
 */
export async function linkSubstances(tx: Queryable, touched: readonly string[], productSource: string | null,
  atcNamesChanged = false): Promise<LinkReport> {
  let changed: string[] = [];
  let links: LinkRow[] = [];
  if (touched.length > 0) {
    const nameKeys = await writeNames(tx, touched);
    ({ changed, links } = await writeLinks(tx, touched, nameKeys));
    const { rows } = await tx.query<{ unii: string }>('SELECT unii FROM substances WHERE moiety_unii = ANY($1::text[])', [changed]);
    await refreshSignatures(tx, [...new Set([...changed, ...rows.map((r) => r.unii)])], null);
  }
  if (productSource !== null) await clearLinkedAtc(tx, productSource);
  if (productSource !== null || changed.length > 0 || atcNamesChanged) await linkAtcCodes(tx, productSource, [...changed, ...touched], atcNamesChanged);
  return {
    relinked: links.length,
    ambiguous: links.filter((l) => l.identity === null).map((l) => ({ unii: l.unii, names: l.names, candidates: l.candidates })),
  };
}
