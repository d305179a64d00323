/**
 * Every enrichment source, its public default base URL and cache TTL. HTTP sources are
 * fetched through the upstream client; curated sources are local demonstration files
 * served through the same cache, so every enrichment answer has the same
 * `x-service-cache` semantics.
 */

/** Sources reached over HTTP. */
export const HTTP_SOURCES = ['rxnav', 'chembl', 'openfda', 'gtopdb', 'cpic', 'opentargets', 'uniprot', 'alphafold', 'crosswalk'] as const;
/** Sources read from data/curated/ (or computed locally, for signature scoring). */
export const LOCAL_SOURCES = ['guidelines', 'hta', 'signatures'] as const;

/** Id of a source reached over HTTP. */
export type HttpSourceId = (typeof HTTP_SOURCES)[number];
/** Id of a curated local source. */
export type LocalSourceId = (typeof LOCAL_SOURCES)[number];
/** Id of any enrichment source (config and cache key). */
export type SourceId = HttpSourceId | LocalSourceId;

const DAY = 86_400;

/** Defaults: the real public APIs, and TTLs matched to how often each source changes. */
export const SOURCE_DEFAULTS: Record<SourceId, { baseUrl: string | null; ttlSeconds: number; label: string }> = {
  rxnav: { baseUrl: 'https://rxnav.nlm.nih.gov', ttlSeconds: 7 * DAY, label: 'NLM RxNav (RxNorm, RxClass)' },
  chembl: { baseUrl: 'https://www.ebi.ac.uk/chembl/api/data', ttlSeconds: 30 * DAY, label: 'EMBL-EBI ChEMBL' },
  openfda: { baseUrl: 'https://api.fda.gov', ttlSeconds: DAY, label: 'openFDA' },
  gtopdb: { baseUrl: 'https://www.guidetopharmacology.org/services', ttlSeconds: 30 * DAY, label: 'IUPHAR/BPS Guide to PHARMACOLOGY' },
  cpic: { baseUrl: 'https://api.cpicpgx.org/v1', ttlSeconds: 7 * DAY, label: 'CPIC (with PharmGKB levels)' },
  opentargets: { baseUrl: 'https://api.platform.opentargets.org/api/v4', ttlSeconds: 30 * DAY, label: 'Open Targets Platform' },
  uniprot: { baseUrl: 'https://rest.uniprot.org', ttlSeconds: 30 * DAY, label: 'UniProt' },
  alphafold: { baseUrl: 'https://alphafold.ebi.ac.uk', ttlSeconds: 90 * DAY, label: 'AlphaFold Protein Structure Database' },
  // Licensed and vendor-specific: no public default, so it runs only when both
  // RXNORM_CROSSWALK_KEY and UPSTREAM_CROSSWALK_URL are configured (docs/enrichment.md).
  crosswalk: { baseUrl: null, ttlSeconds: 7 * DAY, label: 'Licensed RxNorm crosswalk' },
  guidelines: { baseUrl: null, ttlSeconds: DAY, label: 'Curated guideline index (demonstration data)' },
  hta: { baseUrl: null, ttlSeconds: DAY, label: 'Curated HTA decisions (demonstration data)' },
  signatures: { baseUrl: null, ttlSeconds: 30 * DAY, label: 'Curated signatures and perturbation set (demonstration data)' },
};

/** `opentargets` → `OPENTARGETS`, the infix of the source's environment variables. */
export function envName(source: SourceId): string {
  return source.toUpperCase();
}
