/**
 * National Drug Codes as the US registers print them, normalised to the one 11-digit 5-4-2
 * form (`ndc11`) every US adapter keys packs by, so that the FDA directory, openFDA, SPL and
 * RxNorm describe the same package with the same key (the merge step links on it).
 *
 * Published layouts: dashed 4-4-2, 5-3-2 and 5-4-1 (FDA), 5-4-2 (HIPAA billing, RxNorm), plain
 * 11 digits (RxNorm, CMS), and 10 digits without dashes, which can only be split when the
 * layout is known (from the product NDC beside it, or stated by the caller).
 */
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import { ndc11FromDashed } from '../../../vocabulary/ndc-codes.ts';
import type { Identifier } from '../snapshot.ts';

/** Segment lengths of a package NDC. */
export type NdcLayout = '4-4-2' | '5-3-2' | '5-4-1' | '5-4-2';

const TEN_DIGIT_LAYOUTS: Readonly<Record<string, readonly [number, number, number]>> = {
  '4-4-2': [4, 4, 2], '5-3-2': [5, 3, 2], '5-4-1': [5, 4, 1],
};

/**
 * Layout of the packages of a dashed product NDC: a 4-4 product has 4-4-2 packages, 5-3 has
 * 5-3-2 and 5-4 has 5-4-1 (the 10 digits are shared out among the three segments).
 */
export function packageLayoutOf(productNdc: string): NdcLayout | null {
  const m = /^(\d{4,5})-(\d{3,4})$/.exec(productNdc.trim());
  if (!m) return null;
  const layout = `${m[1]!.length}-${m[2]!.length}`;
  if (layout === '4-4') return '4-4-2';
  if (layout === '5-3') return '5-3-2';
  return layout === '5-4' ? '5-4-1' : null;
}

/**
 * The 11-digit form of a package NDC in any published layout, or null when it is none of them
 * (or 10 undashed digits whose layout is not known).
 */
export function ndc11Of(raw: string, layout?: NdcLayout | null): string | null {
  const code = raw.trim();
  if (code.includes('-')) return ndc11FromDashed(code);
  if (/^\d{11}$/.test(code)) return code;
  const segments = layout ? TEN_DIGIT_LAYOUTS[layout] : undefined;
  if (!/^\d{10}$/.test(code) || !segments) return null;
  const [a, b] = [segments[0], segments[0] + segments[1]];
  return ndc11FromDashed(`${code.slice(0, a)}-${code.slice(a, b)}-${code.slice(b)}`);
}

/**
 * Pack identifiers of a package NDC: `ndc11` always, and the 10 digits as printed (`ndc`) when
 * the register prints a 10-digit layout (a 5-4-2 or 11-digit code has no 10-digit print).
 */
export function ndcPackIdentifiers(raw: string, ndc11: string): Identifier[] {
  const printed = raw.trim();
  const ten = /^\d{4,5}-\d{3,4}-\d{1,2}$/.test(printed) && printed.replace(/-/g, '').length === 10
    ? normaliseIdentifier('ndc', printed)
    : (/^\d{10}$/.test(printed) ? printed : null);
  return ten ? [{ system: 'ndc', code: ten }, { system: 'ndc11', code: ndc11 }] : [{ system: 'ndc11', code: ndc11 }];
}

/** The padded 9-digit product code (`ndc` system) of a dashed product NDC, or null. */
export function productNdcCode(raw: string): string | null {
  const code = raw.trim();
  return /^\d{4,5}-\d{3,4}$/.test(code) ? normaliseIdentifier('ndc', code) : null;
}
