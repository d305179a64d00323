/**
 * Registration and pack identifiers of the generated large catalogue, in each register's
 * layout (the demo's, data/demo/identifiers.ts) with valid check digits. The demo draws
 * random numbers and resolves collisions in a set; at a million products that set would
 * be the memory, so here every number is a bijection of an ordinal (`spread`): codes are
 * unique by construction, look scattered, and a layout that runs out says so.
 */
import {
  completeAic, completeGtin, completePzn, verhoeffCheckDigit,
} from '../../vocabulary/check-digits.ts';
import type { Identifier, Jurisdiction } from '../../workers/ingest/snapshot.ts';
import { hash32 } from '../demo/prng.ts';

/** Where a product sits in its country's catalogue. */
export interface ProductOrdinal {
  country: Jurisdiction;
  /** Product number within the country (0-based). */
  product: number;
  /** Product line (brand × form) number within the country; a line's strengths share it. */
  line: number;
  /** Strength number within the line, 1-based (at most 9). */
  seq: number;
}

/** The registration-level codes of a product. */
export interface ProductCodes {
  key: string;
  identifiers: Identifier[];
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const id = (system: Identifier['system'], code: string): Identifier => ({ system, code });

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * A bijection of [0, size): `i` → (a·i + b) mod size with a coprime to size, a and b drawn
 * from `salt`. Throws when `i` is outside the range: the layout has no more numbers.
 */
export function spread(i: number, size: number, salt: string): number {
  if (!Number.isSafeInteger(i) || i < 0 || i >= size) {
    throw new RangeError(`${salt}: ordinal ${i} exceeds the ${size} numbers of this layout; generate fewer products or packs per product`);
  }
  const { a, b } = coefficients(size, salt);
  // BigInt keeps a·i exact beyond 2^53 for the large ranges.
  return Number((a * BigInt(i) + b) % BigInt(size));
}

const COEFFICIENTS = new Map<string, { a: bigint; b: bigint }>();

function coefficients(size: number, salt: string): { a: bigint; b: bigint } {
  const key = `${size}|${salt}`;
  let found = COEFFICIENTS.get(key);
  if (!found) {
    let a = (hash32(`a|${salt}`) % (size - 1)) + 1;
    while (gcd(a, size) !== 1) a = (a % (size - 1)) + 1;
    found = { a: BigInt(a), b: BigInt(hash32(`b|${salt}`) % size) };
    COEFFICIENTS.set(key, found);
  }
  return found;
}

/** A GTIN-13 of `prefix` whose remaining digits number `i` within the country. */
function gtin13(prefix: string, i: number, salt: string): string {
  const width = 12 - prefix.length;
  return completeGtin(prefix + pad(spread(i, 10 ** width, salt), width));
}

/** A PZN8: bodies come in pairs (2n, 2n + 1), of which at least one has a check digit. */
function pzn(i: number): string {
  const body = 1_000_000 + 2 * spread(i, 4_500_000, 'de-pzn');
  return completePzn(pad(body, 7)) ?? completePzn(pad(body + 1, 7))!;
}

/** Nordic article numbers in the two medicine ranges (000001–199999, 370000–599999). */
function nordicVnr(i: number, country: string): string {
  const n = spread(i, 429_999, `${country}-vnr`);
  return pad(n < 199_999 ? n + 1 : n - 199_999 + 370_000, 6);
}

/** A US labeler: 100 products each would be small; 900 per labeler, one layout per labeler. */
function usLabeler(product: number): { labeler: string; layout: '4-4-2' | '5-3-2' | '5-4-1'; within: number } {
  const index = Math.floor(product / 900);
  const roll = hash32(`us-layout|${index}`) % 10;
  const layout = roll === 0 ? '4-4-2' : roll < 4 ? '5-4-1' : '5-3-2';
  // 4-digit labelers start with 1-4 and 5-digit ones with 5-9, so 10-digit NDCs never collide.
  const labeler = layout === '4-4-2' ? String(1000 + spread(index, 4000, 'us-lab4')) : String(50000 + spread(index, 50000, 'us-lab5'));
  return { labeler, layout, within: product % 900 };
}

function usProduct(o: ProductOrdinal): { labeler: string; layout: '4-4-2' | '5-3-2' | '5-4-1'; product: string } {
  const { labeler, layout, within } = usLabeler(o.product);
  const width = layout === '5-3-2' ? 3 : 4;
  return { labeler, layout, product: pad(1 + spread(within, 10 ** width - 1, `us-prod|${labeler}`), width) };
}

/** The product's natural key and registration identifiers. */
export function productCodes(o: ProductOrdinal): ProductCodes {
  const k = o.product;
  switch (o.country) {
    case 'CH': {
      const nr = String(10000 + spread(o.line, 90000, 'ch-nr'));
      return { key: `${nr}-${pad(o.seq, 2)}`, identifiers: [id('swissmedic_no', nr)] };
    }
    case 'DE': {
      const zul = `${2000000 + spread(o.line, 8_000_000, 'de-zul')}.${pad(o.seq, 2)}.00`;
      return { key: zul, identifiers: [id('national', zul)] };
    }
    case 'AT': {
      const zul = `1-${100000 + spread(k, 900000, 'at-zul')}`;
      return { key: zul, identifiers: [id('national', zul)] };
    }
    case 'FR': {
      const cis = `6${pad(spread(k, 10_000_000, 'fr-cis'), 7)}`;
      return { key: cis, identifiers: [id('cis', cis)] };
    }
    case 'IT': {
      const base = pad(10000 + spread(o.line, 490000, 'it-aic'), 6);
      return { key: `${base}-${pad(o.seq, 2)}`, identifiers: [id('national', base)] };
    }
    case 'ES': {
      const nreg = String(100000 + spread(k, 900000, 'es-nreg'));
      return { key: nreg, identifiers: [id('national', nreg)] };
    }
    case 'PT': return { key: String(10000 + spread(k, 9_990_000, 'pt-product')), identifiers: [] };
    case 'BE': {
      const be = `BE${100000 + spread(k, 900000, 'be-reg')}`;
      return { key: be, identifiers: [id('national', be)] };
    }
    case 'NL': {
      // Stored as the number, as normaliseCbgMebId reads `RVG 12345`.
      const rvg = String(10000 + spread(k, 990000, 'nl-rvg'));
      return { key: `RVG${rvg}`, identifiers: [id('cbg_meb_id', rvg)] };
    }
    case 'DK': {
      const drugId = `281${pad(spread(k, 100_000_000, 'dk-drugid'), 8)}`;
      return { key: drugId, identifiers: [id('national', drugId)] };
    }
    case 'SE': {
      const nr = String(10000 + spread(k, 990000, 'se-nr'));
      return { key: nr, identifiers: [id('national', nr)] };
    }
    case 'FI': {
      const ma = String(10000 + spread(k, 990000, 'fi-ma'));
      return { key: ma, identifiers: [id('fi_myyntilupa', ma)] };
    }
    case 'NO': {
      const hex = (salt: string, width: number): string => hash32(`${salt}|${k}`).toString(16).padStart(8, '0').slice(0, width);
      const first = spread(k, 2 ** 32 - 5, 'no-id').toString(16).padStart(8, '0');
      const uuid = `ID_${first}-${hex('b', 4)}-4${hex('c', 3)}-${'89ab'[hash32(`d|${k}`) % 4]}${hex('e', 3)}-${hex('f', 8)}${hex('g', 4)}`.toUpperCase();
      return { key: uuid, identifiers: [id('no_merkevare_id', uuid)] };
    }
    case 'IE': {
      const x = spread(o.line, 2299 * 999, 'ie-pa');
      const pa = `PA${pad(1 + Math.floor(x / 999), 4)}/${pad(1 + (x % 999), 3)}/${pad(o.seq, 3)}`;
      return { key: pa, identifiers: [id('ie_pa_number', pa)] };
    }
    case 'GB': {
      const x = spread(k, 49999 * 9999, 'gb-pl');
      const pl = `PL${pad(1 + Math.floor(x / 9999), 5)}/${pad(1 + (x % 9999), 4)}`;
      return { key: pl, identifiers: [id('national', pl)] };
    }
    case 'US': {
      const p = usProduct(o);
      const app = `ANDA${pad(62000 + spread(o.line % 157000, 157000, 'us-app'), 6)}`;
      return { key: `${p.labeler}-${p.product}`, identifiers: [id('national', app)] };
    }
  }
}

/**
 * Pack `j` (0-based, at most 8) of a product: natural key and identifiers. `pack` is the
 * pack's number within the country (product × packs per product + j).
 */
export function packCodes(o: ProductOrdinal, j: number, pack: number): ProductCodes {
  const c = o.country;
  switch (c) {
    case 'CH': {
      const nr = String(10000 + spread(o.line, 90000, 'ch-nr'));
      const packCode = pad((o.seq - 1) * 10 + j + 1, 3);
      const gtin = completeGtin(`7680${nr}${packCode}`);
      const pharmacode = String(1_000_000 + spread(pack, 9_000_000, 'ch-pharmacode'));
      return { key: gtin, identifiers: [id('gtin', gtin), id('pharmacode', pharmacode), id('swissmedic_no', `${nr}${packCode}`)] };
    }
    case 'DE': {
      const code = pzn(pack);
      return { key: code, identifiers: [id('pzn', code), id('gtin', completeGtin(`4150${code}`))] };
    }
    case 'AT': {
      const pzn7 = String(1_000_000 + spread(pack, 9_000_000, 'at-pzn'));
      return { key: pzn7, identifiers: [id('national', pzn7), id('gtin', gtin13('9088', pack, 'at-gtin'))] };
    }
    case 'FR': {
      const cip7 = `3${pad(spread(pack, 1_000_000, 'fr-cip7'), 6)}`;
      const cip13 = completeGtin(`34009${cip7}`);
      return { key: cip13, identifiers: [id('cip13', cip13), id('cip7', cip7), id('gtin', cip13)] };
    }
    case 'IT': {
      const base = pad(10000 + spread(o.line, 490000, 'it-aic'), 6);
      const aic = completeAic(`${base}${pad((o.seq - 1) * 10 + j + 1, 2)}`);
      return { key: aic, identifiers: [id('aic', aic)] };
    }
    case 'ES': {
      const cn = String(600000 + spread(pack, 400000, 'es-cn'));
      return { key: cn, identifiers: [id('cima_codigo', cn), id('gtin', completeGtin(`847000${cn}`))] };
    }
    case 'PT': {
      const registo = `5${pad(spread(pack, 1_000_000, 'pt-registo'), 6)}`;
      return { key: registo, identifiers: [id('national', registo), id('gtin', gtin13('560', pack, 'pt-gtin'))] };
    }
    case 'BE': {
      const cnk = String(1_000_000 + spread(pack, 4_000_000, 'be-cnk'));
      return { key: cnk, identifiers: [id('be_apb', cnk), id('gtin', gtin13('54', pack, 'be-gtin'))] };
    }
    case 'NL': {
      const zi = `1${pad(spread(pack, 10_000_000, 'nl-zi'), 7)}`;
      return { key: zi, identifiers: [id('national', zi), id('gtin', gtin13('87', pack, 'nl-gtin'))] };
    }
    case 'DK': case 'SE': case 'NO': case 'FI': {
      const system = c === 'DK' ? 'dk_varenummer' : c === 'SE' ? 'se_varunummer' : c === 'NO' ? 'no_varenummer' : 'national';
      const vnr = nordicVnr(pack, c);
      const prefix = { DK: '57', SE: '73', NO: '70', FI: '64' }[c];
      return { key: vnr, identifiers: [id(system, vnr), id('gtin', gtin13(prefix, pack, `${c}-gtin`))] };
    }
    case 'IE': {
      const code = gtin13('539', pack, 'ie-gtin');
      return { key: code, identifiers: [id('gtin', code)] };
    }
    case 'GB': {
      const body = `${100000 + spread(pack, 4_900_000, 'gb-ampp')}100000110`;
      const ampp = body + verhoeffCheckDigit(body);
      return { key: ampp, identifiers: [id('dmd_amppid', ampp), id('gtin', gtin13('50', pack, 'gb-gtin'))] };
    }
    case 'US': {
      const p = usProduct(o);
      const pkg = p.layout === '5-4-1' ? String(j + 1) : pad(j + 1, 2);
      const ndc10 = `${p.labeler}${p.product}${pkg}`;
      const ndc11 = `${p.labeler.padStart(5, '0')}${p.product.padStart(4, '0')}${pkg.padStart(2, '0')}`;
      return {
        key: `${p.labeler}-${p.product}-${pkg}`,
        identifiers: [id('ndc', ndc10), id('ndc11', ndc11), id('gtin', completeGtin(`03${ndc10}`))],
      };
    }
  }
}
