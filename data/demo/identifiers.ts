/**
 * Per-country registration and pack identifiers for the demo catalogue, in each register's
 * real format and with valid check digits where the format has one. Numbers are drawn from
 * a PRNG seeded by the product's curated identity (country, name, holder, form, strength),
 * so they stay the same between builds; a per-source registry resolves collisions.
 */
import {
  completeAic, completeGtin, completePzn, verhoeffCheckDigit,
} from '../../vocabulary/check-digits.ts';
import type { Identifier, Jurisdiction } from '../../workers/ingest/snapshot.ts';
import { rng, type Rng } from './prng.ts';

/** Codes already handed out within one source, per system (plus internal namespaces). */
export class CodeRegistry {
  private readonly used = new Map<string, Set<string>>();
  private readonly memo = new Map<string, string>();

  /** First candidate not yet used in `space`; `gen` may return null to skip an attempt. */
  claim(space: string, gen: (r: Rng, attempt: number) => string | null, seed: string): string {
    let set = this.used.get(space);
    if (!set) this.used.set(space, (set = new Set()));
    const r = rng(`${space}|${seed}`);
    for (let attempt = 0; attempt < 1000; attempt += 1) {
      const code = gen(r, attempt);
      if (code !== null && !set.has(code)) {
        set.add(code);
        return code;
      }
    }
    throw new Error(`no free code in ${space} for ${seed}`);
  }

  /** Like claim, but the same seed always returns the same code (shared registration numbers). */
  shared(space: string, gen: (r: Rng, attempt: number) => string | null, seed: string): string {
    const key = `${space}|${seed}`;
    const hit = this.memo.get(key);
    if (hit !== undefined) return hit;
    const code = this.claim(space, gen, seed);
    this.memo.set(key, code);
    return code;
  }
}

/** What identifier generation needs to know about one product (one brand, form and strength). */
export interface ProductSeed {
  country: Jurisdiction;
  /** Brand line identity: same for every strength of one brand and form. */
  line: string;
  holder: string;
  /** 1-based strength index within the line. */
  seq: number;
  generic: boolean;
  /** US only: NDC labeler code. */
  labeler?: string;
}

export interface ProductCodes {
  key: string;
  identifiers: Identifier[];
  /** Country-specific state the pack generator reuses (registration number, NDC layout). */
  base: string;
  layout?: '4-4-2' | '5-3-2' | '5-4-1';
}

const id = (system: Identifier['system'], code: string): Identifier => ({ system, code });
const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** Registration-level identifiers and the product's natural key. */
export function productCodes(seed: ProductSeed, reg: CodeRegistry): ProductCodes {
  const s = `${seed.line}|${seed.seq}`;
  switch (seed.country) {
    case 'CH': {
      const nr = reg.shared('ch-nr', (r) => String(r.int(40000, 69999)), seed.line);
      return { key: `${nr}-${pad(seed.seq, 2)}`, identifiers: [id('swissmedic_no', nr)], base: nr };
    }
    case 'DE': {
      const nr = reg.shared('de-zul', (r) => String(r.int(10000, 99999)), seed.line);
      const zul = `${nr}.${pad(seed.seq, 2)}.00`;
      return { key: zul, identifiers: [id('national', zul)], base: zul };
    }
    case 'AT': {
      const zul = reg.claim('national', (r) => `1-${r.int(18000, 40999)}`, s);
      return { key: zul, identifiers: [id('national', zul)], base: zul };
    }
    case 'FR': {
      const cis = reg.claim('national', (r) => `6${r.digits(7)}`, s);
      return { key: cis, identifiers: [id('national', cis)], base: cis };
    }
    case 'IT': {
      const base = reg.shared('it-aic', (r) => `0${r.int(20000, 49999)}`, seed.line);
      // Packs of one strength share a 2-digit block: strength n uses packs n*10+1...
      return { key: `${base}-${pad(seed.seq, 2)}`, identifiers: [id('national', base)], base };
    }
    case 'ES': {
      const nreg = reg.claim('national', (r) => String(r.int(56000, 89999)), s);
      return { key: nreg, identifiers: [id('national', nreg)], base: nreg };
    }
    case 'PT': {
      const pid = reg.claim('pt-product', (r) => String(r.int(1000, 99999)), s);
      return { key: pid, identifiers: [], base: pid };
    }
    case 'BE': {
      const be = reg.claim('national', (r) => `BE${r.int(100000, 699999)}`, s);
      return { key: be, identifiers: [id('national', be)], base: be };
    }
    case 'NL': {
      const rvg = reg.claim('cbg_meb_id', (r) => `RVG${r.int(10000, 129999)}`, s);
      return { key: rvg, identifiers: [id('cbg_meb_id', rvg)], base: rvg };
    }
    case 'DK': {
      const drugId = reg.claim('national', (r) => `281${r.digits(8)}`, s);
      return { key: drugId, identifiers: [id('national', drugId)], base: drugId };
    }
    case 'SE': {
      const nr = reg.claim('national', (r) => String(r.int(10000, 69999)), s);
      return { key: nr, identifiers: [id('national', nr)], base: nr };
    }
    case 'FI': {
      const ma = reg.claim('fi_myyntilupa', (r) => String(r.int(10000, 39999)), s);
      return { key: ma, identifiers: [id('fi_myyntilupa', ma)], base: ma };
    }
    case 'NO': {
      const uuid = reg.claim('no_merkevare_id', (r) => {
        const hex = (n: number): string => Array.from({ length: n }, () => r.int(0, 15).toString(16)).join('');
        return `ID_${hex(8)}-${hex(4)}-4${hex(3)}-${'89AB'[r.int(0, 3)]}${hex(3)}-${hex(12)}`.toUpperCase();
      }, s);
      return { key: uuid, identifiers: [id('no_merkevare_id', uuid)], base: uuid };
    }
    case 'IE': {
      const holder = reg.shared('ie-holder', (r) => pad(r.int(1, 2300), 4), seed.holder);
      const prod = reg.shared(`ie-prod-${holder}`, (r) => pad(r.int(1, 250), 3), seed.line);
      const pa = `PA${holder}/${prod}/${pad(seed.seq, 3)}`;
      return { key: pa, identifiers: [id('ie_pa_number', pa)], base: pa };
    }
    case 'GB': {
      const holder = reg.shared('gb-holder', (r) => pad(r.int(1, 49999), 5), seed.holder);
      const pl = reg.claim(`gb-pl-${holder}`, (r) => `PL${holder}/${pad(r.int(1, 1500), 4)}`, s);
      return { key: pl, identifiers: [id('national', pl)], base: pl };
    }
    case 'US': {
      const labeler = seed.labeler ?? '0000';
      const layout = labeler.length === 4 ? '4-4-2' : (rng(seed.line).next() < 0.6 ? '5-3-2' : '5-4-1');
      const width = layout === '5-3-2' ? 3 : 4;
      const product = reg.claim(`us-prod-${labeler}`, (r) => pad(r.int(1, 10 ** width - 1), width), s);
      const app = reg.shared('national', (r) => (seed.generic
        ? `ANDA${pad(r.int(62000, 218999), 6)}`
        : `NDA${pad(r.int(17000, 215999), 6)}`), seed.line);
      return { key: `${labeler}-${product}`, identifiers: [id('national', app)], base: `${labeler}-${product}`, layout };
    }
  }
}

/** One pack of a product: its natural key and identifiers. */
export function packCodes(
  country: Jurisdiction, product: ProductCodes, seq: number, packIndex: number, reg: CodeRegistry,
): { key: string; identifiers: Identifier[] } {
  const s = `${product.key}|${packIndex}`;
  const gtin = (prefix: string): string =>
    reg.claim('gtin', (r) => completeGtin(prefix + r.digits(12 - prefix.length)), s);
  switch (country) {
    case 'CH': {
      const packCode = reg.claim(`ch-pack-${product.base}`, (_r, a) => pad(seq * 10 + packIndex + 1 + a * 100, 3), s);
      const code13 = completeGtin(`7680${product.base}${packCode}`);
      const pharmacode = reg.claim('pharmacode', (r) => String(r.int(1000000, 7999999)), s);
      return {
        key: code13,
        identifiers: [id('gtin', code13), id('pharmacode', pharmacode), id('swissmedic_no', `${product.base}${packCode}`)],
      };
    }
    case 'DE': {
      const pzn = reg.claim('pzn', (r) => completePzn(`1${r.digits(6)}`), s);
      return { key: pzn, identifiers: [id('pzn', pzn), id('gtin', completeGtin(`4150${pzn}`))] };
    }
    case 'AT': {
      const pzn = reg.claim('national', (r) => String(r.int(1000000, 5999999)), s);
      return { key: pzn, identifiers: [id('national', pzn), id('gtin', gtin('9088'))] };
    }
    case 'FR': {
      const cip7 = reg.claim('cip7', (r) => `3${r.digits(6)}`, s);
      const cip13 = completeGtin(`34009${cip7}`);
      return { key: cip13, identifiers: [id('cip13', cip13), id('cip7', cip7), id('gtin', cip13)] };
    }
    case 'IT': {
      const aic = reg.claim('aic', (_r, a) => completeAic(`${product.base}${pad(seq * 10 + packIndex + 1 + a * 7, 2).slice(-2)}`), s);
      return { key: aic, identifiers: [id('aic', aic)] };
    }
    case 'ES': {
      const cn = reg.claim('cima_codigo', (r) => String(r.int(600000, 999999)), s);
      return { key: cn, identifiers: [id('cima_codigo', cn), id('gtin', completeGtin(`847000${cn}`))] };
    }
    case 'PT': {
      const registo = reg.claim('national', (r) => `5${r.digits(6)}`, s);
      return { key: registo, identifiers: [id('national', registo), id('gtin', gtin('560'))] };
    }
    case 'BE': {
      const cnk = reg.claim('be_apb', (r) => String(r.int(1000000, 4999999)), s);
      return { key: cnk, identifiers: [id('be_apb', cnk), id('gtin', gtin('54'))] };
    }
    case 'NL': {
      const zi = reg.claim('national', (r) => `1${r.digits(7)}`, s);
      return { key: zi, identifiers: [id('national', zi), id('gtin', gtin('87'))] };
    }
    case 'DK': case 'SE': case 'NO': case 'FI': {
      const system = country === 'DK' ? 'dk_varenummer' : country === 'SE' ? 'se_varunummer' : country === 'NO' ? 'no_varenummer' : 'national';
      const vnr = reg.claim(system, (r) => String(r.int(0, 599999)).padStart(6, '0'), s);
      const prefix = { DK: '57', SE: '73', NO: '70', FI: '64' }[country];
      return { key: vnr, identifiers: [id(system, vnr), id('gtin', gtin(prefix))] };
    }
    case 'IE': {
      const code = gtin('539');
      return { key: code, identifiers: [id('gtin', code)] };
    }
    case 'GB': {
      const ampp = reg.claim('dmd_amppid', (r) => {
        const body = `${r.int(100000, 4999999)}100000110`;
        return body + verhoeffCheckDigit(body);
      }, s);
      return { key: ampp, identifiers: [id('dmd_amppid', ampp), id('gtin', gtin('50'))] };
    }
    case 'US': {
      const layout = product.layout ?? '5-3-2';
      const width = layout === '5-4-1' ? 1 : 2;
      const pkg = reg.claim(`us-pkg-${product.base}`, (r) => pad(r.int(1, 10 ** width - 1), width), s);
      const [labeler = '', prod = ''] = product.base.split('-');
      const ndc10 = `${labeler}${prod}${pkg}`;
      const ndc11 = `${labeler.padStart(5, '0')}${prod.padStart(4, '0')}${pkg.padStart(2, '0')}`;
      return {
        key: `${product.base}-${pkg}`,
        identifiers: [id('ndc', ndc10), id('ndc11', ndc11), id('gtin', completeGtin(`03${ndc10}`))],
      };
    }
  }
}
