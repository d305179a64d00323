/**
 * What the drug and pack fields read through: the request's catalogue loaders, or the
 * reader a record reconstructed as of a date carries (dated-record.ts), so one set of field
 * resolvers answers both today's record and a dated one.
 */
import type { CatalogueLoaders } from './loaders.ts';

export type CatalogueReader = Pick<CatalogueLoaders, 'ingredients' | 'facts' | 'identifiers' | 'packs' | 'pack' | 'monographLanguages'
  | 'monograph' | 'productClasses' | 'centralAuthorisation' | 'packIdentifiers' | 'prices'>;

/** A dated record's own reader, else the request's loaders. */
export function readerOf(record: { dated?: { reader: CatalogueReader } }, loaders: CatalogueLoaders): CatalogueReader {
  return record.dated?.reader ?? loaders;
}
