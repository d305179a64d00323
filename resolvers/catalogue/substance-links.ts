/**
 * The substance identity layer on the read side (`Substance.identity`, `Substance.links`):
 * the canonical identity a substance key is linked to, with basis and confidence, and the
 * other registers' keys linked to the same identity. Written by workers/ingest/write-links.ts.
 */
import DataLoader from 'dataloader';
import type { Queryable } from '../../platform/db.ts';

/** The link of one substance key; `key` is null when its names are ambiguous. */
export interface SubstanceIdentity {
  key: string | null;
  status: 'linked' | 'ambiguous';
  basis: string | null;
  confidence: number | null;
  /** Normalised INN name the link rests on. */
  normalisedName: string | null;
  /** The register names that produced the link. */
  names: string[];
  /** UNII substances whose names matched. */
  evidence: string[];
  /** Ambiguous: the moiety UNIIs the names point to. */
  candidates: string[];
}

/** Another substance key linked to the same identity. */
export interface SubstanceLink {
  key: string;
  name: string;
  source: string;
  provisional: boolean;
  basis: string;
  confidence: number;
}

interface LinkRow {
  unii: string; identity: string | null; basis: string | null; confidence: string | null; name_key: string | null;
  names: string[]; evidence: string[]; candidates: string[];
}

/** The link of each substance key, null when the key has none. */
export function createSubstanceIdentityLoader(db: Queryable) {
  return new DataLoader<string, SubstanceIdentity | null>(async (keys) => {
    const { rows } = await db.query<LinkRow>(
      'SELECT unii, identity, basis, confidence, name_key, names, evidence, candidates FROM substance_links WHERE unii = ANY($1::text[])', [keys]);
    const byKey = new Map(rows.map((r) => [r.unii, r]));
    return keys.map((k) => {
      const r = byKey.get(k);
      if (!r) return null;
      return {
        key: r.identity, status: r.identity === null ? 'ambiguous' : 'linked', basis: r.basis,
        confidence: r.confidence === null ? null : Number(r.confidence), normalisedName: r.name_key,
        names: r.names, evidence: r.evidence, candidates: r.candidates,
      };
    });
  });
}

/** Every substance key linked to each identity, by source and key. */
export function createIdentityMembersLoader(db: Queryable) {
  return new DataLoader<string, SubstanceLink[]>(async (identities) => {
    const { rows } = await db.query<SubstanceLink & { identity: string; confidence: string }>(
      `SELECT l.identity, l.unii AS key, s.name, s.source, s.provisional, l.basis, l.confidence FROM substance_links l
         JOIN substances s ON s.unii = l.unii WHERE l.identity = ANY($1::text[]) ORDER BY l.identity, s.source, l.unii`,
      [identities],
    );
    return identities.map((id) => rows.filter((r) => r.identity === id).map(({ identity: _identity, ...r }) => ({ ...r, confidence: Number(r.confidence) })));
  });
}
