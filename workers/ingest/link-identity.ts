/**
 * Which canonical identity each substance key stands for (pure: no database). A real UNII
 * is its own moiety. A provisional key (`name:…`, `bdpm:…`) takes the moiety UNII of the
 * UNII substances that share its normalised name: first by full name (salt words
 * included, so `chlorhydrate de metformine` meets FDA's `METFORMIN HYDROCHLORIDE` and
 * FDA's own salt → moiety fold), then by moiety key (salt words removed). When the names
 * point to two moieties the key is left unlinked and reported. With no UNII anywhere the
 * identity is the name key `inn:<key>`, which every register's spelling reaches.
 */

/** Basis of a link, weakest step wins: see docs/catalogue.md "Substance identity". */
export type LinkBasis = 'unii' | 'inn_name' | 'salt_folded' | 'curated';

/** Confidence of each basis. */
export const LINK_CONFIDENCE: Record<LinkBasis, number> = { unii: 1, inn_name: 0.9, curated: 0.85, salt_folded: 0.8 };

/** Prefix of identities that are a normalised INN name rather than a UNII. */
export const INN_IDENTITY_PREFIX = 'inn:';

export interface KeyRow {
  unii: string;
  name: string;
  provisional: boolean;
  moiety: string;
}

/** One normalised name of a substance key (a row of `substance_names`). */
export interface NameRow {
  unii: string;
  name_key: string;
  full_key: string;
  salt_folded: boolean;
  curated: boolean;
  raw: string;
}

/** A normalised name of a non-provisional (UNII) substance, with that substance's moiety. */
export interface EvidenceRow {
  unii: string;
  name_key: string;
  full_key: string;
  moiety: string;
}

export interface LinkRow {
  unii: string;
  identity: string | null;
  basis: LinkBasis | null;
  confidence: number | null;
  name_key: string | null;
  names: string[];
  evidence: string[];
  candidates: string[];
}

function linked(key: KeyRow, identity: string, basis: LinkBasis, names: NameRow[], evidence: string[]): LinkRow {
  const primary = names.find((n) => n.raw === key.name) ?? names[0];
  return {
    unii: key.unii, identity, basis, confidence: LINK_CONFIDENCE[basis], name_key: primary?.name_key ?? null,
    names: [...new Set(names.map((n) => n.raw))].sort(), evidence: [...new Set(evidence)].sort(), candidates: [],
  };
}

/**
 * A match on the full name (salt words included) is exact; a match on the moiety key alone,
 * or a name key reached by dropping salt words, is salt-folded.
 */
function basisOf(names: readonly NameRow[], folded: boolean): LinkBasis {
  if (folded) return 'salt_folded';
  return names.some((n) => n.curated) ? 'curated' : 'inn_name';
}

/** UNII substances' names indexed by full name and by moiety key, so each key is matched by lookups. */
interface EvidenceIndex {
  full_key: Map<string, EvidenceRow[]>;
  name_key: Map<string, EvidenceRow[]>;
}

function indexEvidence(evidence: readonly EvidenceRow[]): EvidenceIndex {
  const index: EvidenceIndex = { full_key: new Map(), name_key: new Map() };
  for (const e of evidence) {
    for (const field of ['full_key', 'name_key'] as const) {
      const list = index[field].get(e[field]);
      if (list) list.push(e);
      else index[field].set(e[field], [e]);
    }
  }
  return index;
}

/** UNII substances matching one of the names on `field`, and the moieties they fold to. */
function matches(index: EvidenceIndex, field: 'full_key' | 'name_key', names: readonly NameRow[], self: string) {
  const hits = names.flatMap((n) => (index[field].get(n[field]) ?? []).filter((e) => e.unii !== self).map((e) => ({ e, n })));
  return { moieties: [...new Set(hits.map((h) => h.e.moiety))].sort(), uniis: hits.map((h) => h.e.unii), used: [...new Set(hits.map((h) => h.n))] };
}

/** The link of one provisional key from its names and the UNII substances' names. */
function linkProvisional(key: KeyRow, names: NameRow[], index: EvidenceIndex): LinkRow {
  const byFull = matches(index, 'full_key', names, key.unii);
  const folded = byFull.moieties.length === 0;
  const byKey = folded ? matches(index, 'name_key', names, key.unii) : byFull;
  if (byKey.moieties.length === 1) return linked(key, byKey.moieties[0]!, basisOf(byKey.used, folded), byKey.used, byKey.uniis);
  if (byKey.moieties.length > 1) {
    return {
      unii: key.unii, identity: null, basis: null, confidence: null, name_key: names[0]!.name_key,
      names: [...new Set(names.map((n) => n.raw))].sort(), evidence: [...new Set(byKey.uniis)].sort(), candidates: byKey.moieties,
    };
  }
  const primary = names.find((n) => n.raw === key.name) ?? [...names].sort((a, b) => a.name_key.localeCompare(b.name_key))[0]!;
  const same = names.filter((n) => n.name_key === primary.name_key);
  return linked(key, INN_IDENTITY_PREFIX + primary.name_key, basisOf(same, same.some((n) => n.salt_folded)), same, []);
}

/**
 * Links of `keys`. `names` holds the normalised names of those keys; `evidence` the names
 * of UNII substances sharing a name or full name with them. A provisional key without any
 * normalisable name gets no link (it stays its own identity).
 */
export function computeLinks(keys: readonly KeyRow[], names: readonly NameRow[], evidence: readonly EvidenceRow[]): LinkRow[] {
  const namesOf = new Map<string, NameRow[]>();
  for (const n of names) {
    const list = namesOf.get(n.unii);
    if (list) list.push(n);
    else namesOf.set(n.unii, [n]);
  }
  const index = indexEvidence(evidence);
  const out: LinkRow[] = [];
  for (const key of keys) {
    const own = namesOf.get(key.unii) ?? [];
    if (!key.provisional) out.push(linked(key, key.moiety, 'unii', own.filter((n) => n.raw === key.name), []));
    else if (own.length > 0) out.push(linkProvisional(key, own, index));
  }
  return out;
}
