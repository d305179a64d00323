/**
 * The layouts of US National Drug Codes: the FDA's dashed 10-digit forms (4-4-2, 5-3-2, 5-4-1),
 * the 11-digit 5-4-2 form billing uses, and the 9-digit 5-4 product code. Search, lookup and
 * the NDC adapters read codes through these, so stored and queried codes agree.
 */

/** Dashed package NDCs: FDA issues 4-4-2, 5-3-2 and 5-4-1; HIPAA billing uses 5-4-2. */
const NDC_DASHED = /^(\d{4,5})-(\d{3,4})-(\d{1,2})$/;
/** Dashed product NDCs (labeler-product), as in the FDA's PRODUCTNDC column. */
const NDC_PRODUCT_DASHED = /^(\d{4,5})-(\d{3,4})$/;

/** 11-digit 5-4-2 form of a dashed NDC: the short segment gets a leading zero. */
export function ndc11FromDashed(ndc: string): string | null {
  const m = NDC_DASHED.exec(ndc);
  if (!m) return null;
  const [labeler, product, pack] = [m[1]!, m[2]!, m[3]!];
  const layout = `${labeler.length}-${product.length}-${pack.length}`;
  if (!['4-4-2', '5-3-2', '5-4-1', '5-4-2'].includes(layout)) return null;
  return labeler.padStart(5, '0') + product.padStart(4, '0') + pack.padStart(2, '0');
}

/** 9-digit 5-4 form of a dashed product NDC (4-4 or 5-3 padded like its packages). */
export function ndcProductFromDashed(ndc: string): string | null {
  const m = NDC_PRODUCT_DASHED.exec(ndc);
  if (!m) return null;
  const [labeler, product] = [m[1]!, m[2]!];
  if (labeler.length + product.length !== 8 && labeler.length + product.length !== 9) return null;
  return labeler.padStart(5, '0') + product.padStart(4, '0');
}

/** The three 11-digit readings of an undashed 10-digit NDC (4-4-2, 5-3-2, 5-4-1). */
export function ndc11FromUndashed10(ndc10: string): string[] {
  if (!/^\d{10}$/.test(ndc10)) return [];
  return [
    `0${ndc10}`,
    `${ndc10.slice(0, 5)}0${ndc10.slice(5)}`,
    `${ndc10.slice(0, 9)}0${ndc10.slice(9)}`,
  ];
}
