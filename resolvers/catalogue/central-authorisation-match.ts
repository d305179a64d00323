/**
 * How a national record finds its EMA record, pure so each basis is tested on its own:
 * 1. `eu_number`: the EMA record carries the product-level EU number (`EU/1/yy/nnn`) that the
 *    national record carries for the product or a pack (`EU/1/yy/nnn/ppp`);
 * 2. `ema_product_number`: the national record carries the EMA product number itself;
 * 3. `name_holder_substance`: the national record is centrally authorised by its own register
 *    (it carries an EU number) but no EMA record does (the current EMA report has no EU number
 *    column), and exactly one EMA record has its brand, its holder and its active substances.
 * Names are compared without case, accents or punctuation; holders also without legal forms
 * (`B.V.`, `GmbH`, `S.A.S.`) or the country the BDPM adds in brackets; substances by their words,
 * the French and English INN endings (`metformine` / `metformin`) read alike.
 */

/** Why a national record is linked to an EMA record, strongest first. */
export const LINK_BASES = ['eu_number', 'ema_product_number', 'name_holder_substance'] as const;
export type LinkBasis = (typeof LINK_BASES)[number];

/** What the link needs of a national record (one of the merged rows of a drug). */
export interface NationalFacts {
  productName: string;
  brand: string | null;
  holder: string | null;
  /** Product-level EU numbers (a pack number cut to its first four parts). */
  euNumbers: string[];
  procedures: string[];
  /** Per active ingredient: its name and, for a salt, its moiety's name. */
  ingredients: string[][];
}

/** What the link needs of an EMA record (country EU). */
export interface EmaFacts {
  id: string;
  productName: string;
  holder: string | null;
  euNumbers: string[];
  procedures: string[];
  substances: string[];
}

const LEGAL_FORMS = new Set([
  'AB', 'AG', 'AS', 'APS', 'BV', 'CO', 'CORP', 'GMBH', 'INC', 'KG', 'LTD', 'LIMITED', 'NV', 'OY', 'PLC', 'SA', 'SAS', 'SARL',
  'SL', 'SPA', 'SRL', 'SRO', 'UC', 'ULC', 'LLC', 'KFT', 'DAC', 'EOOD', 'OU', 'SP', 'ZOO', 'COKG', 'KGAA',
]);

/** Upper case without accents; every run of other characters than letters and digits is one space. */
export function plainWords(text: string): string[] {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase().split(/[^A-Z0-9]+/).filter(Boolean);
}

/** Product-level EU number of a product or pack number; null when it is none. */
export function productEuNumber(code: string): string | null {
  return /^EU\/[12]\/\d{2}\/\d{3,4}/.exec(code.replace(/\s+/g, '').toUpperCase())?.[0] ?? null;
}

/** The brand of a national product name: before the first comma and the first word that starts with a digit (`ABILIFY 10 mg, comprimé` → ABILIFY). */
export function brandOf(productName: string, brand: string | null): string {
  if (brand && brand.trim() !== '') return plainWords(brand).join(' ');
  const head = productName.split(',')[0] ?? '';
  const words = plainWords(head);
  const strength = words.findIndex((w) => /^\d/.test(w));
  return (strength === -1 ? words : words.slice(0, strength)).join(' ');
}

/** A holder's words without legal forms, without a bracketed country (`BAYER AG (ALLEMAGNE)` → BAYER). */
export function holderWords(holder: string): string[] {
  const words: string[] = [];
  let letters = false;
  // Dotted legal forms (`B.V.`, `S.A.S.`) split into single letters: joined again before the legal forms are dropped.
  for (const w of plainWords(holder.replace(/\([^)]*\)/g, ' '))) {
    if (w.length === 1 && letters) words[words.length - 1] += w;
    else words.push(w);
    letters = w.length === 1;
  }
  return words.filter((w) => !LEGAL_FORMS.has(w));
}

/** Same holder: one's words (legal forms dropped) begin the other's, and neither is empty. */
export function sameHolder(a: string | null, b: string | null): boolean {
  if (!a || !b) return false;
  const [x, y] = [holderWords(a), holderWords(b)];
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return short.length > 0 && short.every((w, i) => long[i] === w);
}

/** A substance name's words, a French final E dropped so `METFORMINE` reads as `METFORMIN`. */
function substanceWords(name: string): string[] {
  return plainWords(name).map((w) => (w.length > 4 && w.endsWith('E') ? w.slice(0, -1) : w));
}

/** Every word of the EMA substance name is a word of the national name. */
function substanceMatches(ema: string, national: string): boolean {
  const words = new Set(substanceWords(national));
  const wanted = substanceWords(ema);
  return wanted.length > 0 && wanted.every((w) => words.has(w));
}

/** Same active substances: each EMA substance is one of the national ingredients (or its moiety) and each ingredient is one of them. */
export function sameSubstances(ema: readonly string[], national: readonly string[][]): boolean {
  if (ema.length === 0 || national.length === 0) return false;
  const matches = (e: string, names: readonly string[]): boolean => names.some((n) => substanceMatches(e, n));
  return ema.every((e) => national.some((names) => matches(e, names))) && national.every((names) => ema.some((e) => matches(e, names)));
}

/** The EMA record a national record links to and on which basis; null when none, or when the name basis finds several. */
export function matchCentral(national: NationalFacts, candidates: readonly EmaFacts[]): { ema: EmaFacts; basis: LinkBasis } | null {
  const byEu = candidates.find((e) => e.euNumbers.some((n) => national.euNumbers.includes(n)));
  if (byEu) return { ema: byEu, basis: 'eu_number' };
  const byProcedure = candidates.find((e) => e.procedures.some((n) => national.procedures.includes(n)));
  if (byProcedure) return { ema: byProcedure, basis: 'ema_product_number' };
  // Only a record its own register calls centrally authorised is matched by name.
  if (national.euNumbers.length === 0) return null;
  const brand = brandOf(national.productName, national.brand);
  const named = candidates.filter((e) => e.euNumbers.length === 0 && plainWords(e.productName).join(' ') === brand
    && sameHolder(e.holder, national.holder) && sameSubstances(e.substances, national.ingredients));
  return named.length === 1 ? { ema: named[0]!, basis: 'name_holder_substance' } : null;
}
