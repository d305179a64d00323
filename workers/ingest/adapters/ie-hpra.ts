/**
 * The HPRA list of authorised human medicines (`latestHMlist.xml`): one `Product` element per
 * licence, under a `Products` root (any namespace; other releases named the root otherwise or
 * wrapped the list one level deeper). Read with saxes record by record (xml-records.ts), so a list declared in
 * Windows-1252 reads as well as UTF-8; each record becomes a product (ie-hpra-rows.ts). The
 * list carries no packs or prices.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { FileRejectedError, ProblemLog } from './common.ts';
import type { InputFile } from './common.ts';
import { readIeProduct } from './ie-hpra-rows.ts';
import { streamXmlRecords } from './xml-records.ts';

export const IE_HPRA_FILE = 'latestHMlist.xml';

export const IE_HPRA_SOURCE: SourceInfo = {
  id: 'ie-hpra',
  name: 'HPRA human medicines list',
  country: 'IE',
  // The HPRA republishes the list as licences change; two weeks without a sync is stale.
  refresh_interval_hours: 24 * 14,
  licence: 'Information provided courtesy of the Health Products Regulatory Authority (HPRA) under CC BY 4.0',
  url: 'https://www.hpra.ie/homepage/medicines/medicines-information/find-a-medicine',
};

/** Parses the list; records that cannot be used are reported with their line and skipped. */
export function parseIeHpra(file: InputFile): AdapterResult {
  const log = new ProblemLog();
  const substances = new Map<string, SubstanceEntry>();
  const products = new Map<string, ProductEntry>();
  let read = 0;
  // The root's name is not checked: releases named it differently, and a document without
  // usable <Product> records is refused below whatever its root.
  const root = streamXmlRecords(file.name, file.content, {
    isRecord: (name) => name === 'Product',
    onRecord(record, line) {
      read += 1;
      let product = readIeProduct(record, substances);
      if (typeof product !== 'string' && products.has(product.key)) product = `${product.key} is listed twice (the first is kept)`;
      if (typeof product === 'string') log.add(file.name, line, product);
      else products.set(product.key, product);
    },
  });
  // An empty list would withdraw every stored Irish product on ingest.
  if (products.size === 0) throw new FileRejectedError(file.name, `no usable <Product> records under <${root}>`);
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: IE_HPRA_SOURCE, substances: [...substances.values()], products: [...products.values()] },
    problems: log.problems,
    files: [{ file: file.name, role: 'Human medicines list', read, kept: products.size, skipped: read - products.size }],
  };
}
