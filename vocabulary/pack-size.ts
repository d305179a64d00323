/**
 * Pack sizes in the registers' own words → `{ count, unit, per_unit_quantity?, total? }`.
 *
 * A small grammar: a tokenizer (numbers with decimal commas, `x` multipliers, words, the
 * FDA's `>` levels) and a rules table of unit words (pack-units.ts). A pack text reads as a
 * chain of levels from the outside in — `boîte de 2 plaquettes de 14 comprimés` is box →
 * 2 blisters → 14 tablets each; the FDA writes each level inside out (`100 TABLET in 1 BOTTLE`)
 * and nests them with `>`. Counts multiply down the chain. A volume or mass ends a chain and
 * belongs to the container before it (`10 ampoule(s) de 2 ml` = 10 ampoules of 2 ml, 20 ml).
 * Strengths in a name (`Zocor Filmtabl 20 mg 28 Stk`) are skipped; `Stk` after a form word
 * counts that form. Everything else (materials, `thermoformée(s)`, `PVC`) is noise.
 */
import { normalisePackUnit, readUnitWord } from './pack-units.ts';
import type { MeasureUnit, PackUnit, UnitReading } from './pack-units.ts';

export type { MeasureUnit, PackUnit } from './pack-units.ts';
export { normalisePackUnit } from './pack-units.ts';

/** A parsed pack size. */
export interface PackSize {
  /** Number of `unit` in the pack (tablets, vials ...; for a bare volume, the volume). */
  count: number;
  unit: PackUnit;
  /** What one unit holds (`2 ml` per ampoule). */
  per_unit_quantity?: { value: number; unit: MeasureUnit };
  /** Whole volume or mass of the pack, when it has one. */
  total?: { value: number; unit: MeasureUnit };
  /** The register's own word for the counted unit (`Kapsel(n)`, `TABLET, FILM COATED`, `ml`). */
  label: string;
  /** The register's own word for the volume or mass (`mL`, `ml`, `g`), when there is one. */
  measure_label?: string;
}

type Token =
  | { t: 'num'; value: number }
  | { t: 'x' }
  | { t: 'word'; text: string; reading: UnitReading | null }
  | { t: 'strength' }
  | { t: 'stop' };

/** One level of a chain: `n` units (null when unnumbered: `boîte de ...`). */
interface Level { n: number | null; reading: UnitReading; label: string }

const STOP_WORDS = new Set(['avec', 'with', 'mit', 'con', 'plus', 'et', 'and', 'und', 'e', 'y', '+', 'pour', 'for', 'fur', 'per', 'para']);
/** Strength units: a number before them is a dose, not a pack size. */
const STRENGTH_UNIT = /^(mg|mcg|µg|μg|ug|ng|microgrammes?|micrograms?|mikrogramm|i\.?u\.?|i\.?e\.?|u\.?i\.?|u|e|ie|iu|ui|units?|unites?|mmol|meq|mio|%)$/i;

/** `0,5` and `2.5` → numbers; `1'000` and `1 000` (non-breaking space) group thousands. */
function number(raw: string): number {
  return Number(raw.replace(/['’\u00a0\u202f]/g, '').replace(',', '.'));
}

const TOKEN = /(\d{1,3}(?:['’\u00a0\u202f]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)|([xX×*])(?=\s*\d)|(\+)|([\p{L}µ%][\p{L}\p{M}µ%'’.\-/]*(?:\([\p{L}]{1,3}\)[\p{L}]*)*)/gu;

function tokenize(text: string): Token[] {
  // DE package size codes (N1, N2, N3) and FDA codes in brackets are not quantities.
  // A concentration's denominator (`6mg/2ml`, `25000 IE/5 ml`) is part of the strength.
  // A bracketed aside after a space (dm+d's supplier `(Eli Lilly and Company Ltd)`, BDPM's
  // `(PEHD)`, `98 (2 x 49) Stk`) is not part of the chain; `comprimé(s)` keeps its plural.
  const clean = text.replace(/\bN[1-3]\b/g, ' ').replace(/\(\s*[\d\s-]{5,}\)/g, ' ').replace(/\s\([^()]*\)/g, ' ')
    .replace(/\/\s*\d+(?:[.,]\d+)?\s*(?=\p{L})/gu, '/');
  const tokens: Token[] = [];
  for (const m of clean.matchAll(TOKEN)) {
    if (m[1]) tokens.push({ t: 'num', value: number(m[1]) });
    else if (m[2]) tokens.push(tokens.at(-1)?.t === 'num' ? { t: 'x' } : { t: 'word', text: m[2], reading: null });
    else if (m[3]) tokens.push({ t: 'stop' });
    else if (m[4]) tokens.push(wordToken(m[4]));
  }
  return tokens;
}

function wordToken(text: string): Token {
  const bare = text.replace(/[.]+$/, '');
  // `20 mg`, `100 IE/ml`, `250mg/5ml`: a strength, whatever it is per.
  if (STRENGTH_UNIT.test(bare.split('/')[0]!) || /^(g|ml)\//i.test(bare)) return { t: 'strength' };
  if (STOP_WORDS.has(bare.toLowerCase())) return { t: 'stop' };
  return { t: 'word', text, reading: readUnitWord(text) };
}

const PIECE: UnitReading = { unit: 'piece', kind: 'form', factor: 1 };

/** Phrases of a token list: numbered units, unnumbered unit words, strengths and stops. */
function phrases(tokens: Token[]): Array<Level | 'break' | 'stop'> {
  const out: Array<Level | 'break' | 'stop'> = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const tok = tokens[i]!;
    if (tok.t === 'stop') { out.push('stop'); continue; }
    if (tok.t === 'strength') { out.push('break'); continue; }
    if (tok.t === 'word') {
      if (tok.reading && tok.reading.kind !== 'measure') out.push({ n: null, reading: tok.reading, label: tok.text });
      continue;
    }
    if (tok.t !== 'num') continue;
    // `a x b unit`: a containers of b units (`4 x 112 Kapsel(n)`, `3 x 5 ml`).
    const multiplied = tokens[i + 1]?.t === 'x' && tokens[i + 2]?.t === 'num';
    const unitAt = multiplied ? i + 3 : i + 1;
    const next = tokens[unitAt];
    if (next?.t === 'strength') { out.push('break'); i = unitAt; continue; }
    // `3 x 28` with no unit word: a multipack of 3 × 28 pieces (German and Swiss lists).
    if (multiplied && (next === undefined || next.t === 'stop')) {
      out.push({ n: tok.value * (tokens[i + 2] as { value: number }).value, reading: PIECE, label: '' });
      i = unitAt - 1;
      continue;
    }
    if (next?.t !== 'word' || !next.reading) continue;
    const b = multiplied ? (tokens[i + 2] as { value: number }).value : tok.value;
    if (multiplied) out.push({ n: tok.value, reading: { unit: 'container', kind: 'container', factor: 1 }, label: '' });
    out.push({ n: b * next.reading.factor, reading: next.reading, label: next.text });
    i = unitAt;
  }
  return out;
}

const OTHER: UnitReading = { unit: 'container', kind: 'container', factor: 1 };

/** `100 TABLET in 1 BOTTLE > ...`: FDA levels, each inside out, as one outside-in chain. */
function fdaChain(text: string): Level[] | null {
  const levels = text.split('>').map((l) => l.replace(/\([^)]*\)/g, ' ').trim());
  const chain: Level[] = [];
  for (const level of levels) {
    const m = /^(\d+(?:\.\d+)?)\s+(.+?)\s+in\s+(\d+(?:\.\d+)?)\s+(.+)$/i.exec(level);
    if (!m) return null;
    // Words outside the rules table (`CASE`, `APPLICATOR`) are containers of some kind.
    const inner = normalisePackUnit(m[2]!) ?? OTHER;
    const outer = normalisePackUnit(m[4]!) ?? OTHER;
    if (chain.length === 0) chain.push({ n: Number(m[3]), reading: outer, label: m[4]!.trim() });
    chain.push({ n: Number(m[1]) * inner.factor, reading: inner, label: m[2]!.trim() });
  }
  return chain.length ? chain : null;
}

/** Builds the innermost complete chain of a phrase list (see the module comment). */
function chainOf(list: Array<Level | 'break' | 'stop'>): { chain: Level[]; named: Level | null } {
  let chain: Level[] = [];
  let named: Level | null = null;
  for (const p of list) {
    if (p === 'stop') { if (chain.some((l) => l.n !== null)) break; chain = []; continue; }
    const last = chain.at(-1);
    if (p === 'break') {
      if (last && last.n === null && last.reading.kind !== 'container') chain = [];
      continue;
    }
    if (p.n === null && p.reading.kind !== 'container' && p.reading.unit !== 'piece') named = p;
    if (!last) { chain = [p]; continue; }
    if (last.reading.kind === 'measure') {
      // `2.5 ml pre-filled syringe`: the measure's container is named after it.
      if (p.n === null && p.reading.kind === 'unit_dose') {
        const holder = chain.at(-2);
        if (holder && holder.reading.unit === 'container') chain.splice(-2, 1, { ...holder, reading: p.reading, label: p.label });
        else chain.splice(-1, 0, { n: 1, reading: p.reading, label: p.label });
        continue;
      }
      // `Fertpen 3 ml 5 Stk`, `3ml cartridges ... 5 cartridge`: five of the units that hold 3 ml.
      const holder = chain.at(-2);
      const same = p.reading.unit === 'piece' || p.reading.unit === holder?.reading.unit;
      if (same && holder?.reading.kind === 'unit_dose' && (holder.n ?? 1) === 1) chain.splice(-2, 1, { ...holder, n: p.n });
      else if (p.n !== null) chain = [p];
      continue;
    }
    if (last.reading.kind === 'form') {
      if (p.n !== null) chain = [p];
      continue;
    }
    // `Amp 5 x 2 ml`: the multiplied containers are the ampoules named before.
    if (p.reading.unit === 'container' && p.label === '' && last.n === null && last.reading.kind === 'unit_dose') chain.splice(-1, 1, { ...last, n: p.n });
    // A numbered level after an unnumbered form word restarts (`Filmtabl ... 28 Stk`).
    else if (last.n === null && last.reading.kind === 'unit_dose' && p.n !== null && p.reading.kind !== 'measure' && p.reading.unit !== 'piece') chain = [p];
    else if (p.n === null && last.n === null && p.reading.unit === last.reading.unit) continue;
    else chain.push(p);
  }
  return { chain, named };
}

function round(value: number): number {
  return Number(value.toPrecision(12));
}

/** The pack size a chain denotes; null when it holds no number. */
function sizeOf(chain: Level[], named: Level | null): PackSize | null {
  if (!chain.some((l) => l.n !== null)) return null;
  const inner = chain.at(-1)!;
  const product = (levels: Level[]): number => levels.reduce((acc, l) => acc * (l.n ?? 1), 1);
  if (inner.reading.kind === 'measure') {
    const measure = inner.reading.unit as MeasureUnit;
    const holders = chain.slice(0, -1);
    const value = round(inner.n ?? 1);
    if (holders.length === 0) return { count: value, unit: measure, total: { value, unit: measure }, label: inner.label, measure_label: inner.label };
    const holder = holders.at(-1)!;
    const count = round(product(holders));
    return {
      count, unit: holder.reading.unit, per_unit_quantity: { value, unit: measure },
      total: { value: round(count * value), unit: measure }, label: holder.label || inner.label, measure_label: inner.label,
    };
  }
  // `Btl 20 Stk`, `Filmtabl 20 mg 28 Stk`: pieces of the form named before.
  const unit = inner.reading.unit === 'piece' && named ? named.reading.unit : inner.reading.unit;
  return { count: round(product(chain)), unit, label: inner.label };
}

/**
 * Parses a pack size as a register writes it (`30 Stk`, `Durchstf 10 ml`, `4 x 112 Kapsel(n)`,
 * `plaquette(s) thermoformée(s) PVC-aluminium de 28 comprimé(s)`, `1 BOTTLE in 1 CARTON > 100
 * TABLET, FILM COATED in 1 BOTTLE`, `1 x 2.5 ml pre-filled syringe`); null when it names none.
 */
export function parsePackSize(text: string | null | undefined): PackSize | null {
  if (!text || text.trim() === '') return null;
  const fda = /\bin\s+\d/i.test(text) ? fdaChain(text) : null;
  if (fda) return sizeOf(fda, null);
  const { chain, named } = chainOf(phrases(tokenize(text)));
  return sizeOf(chain, named);
}

/**
 * Units and unit of a pack for the snapshot (`PackEntry.units`/`unit`): the count in the
 * register's own word (`448`, `Kapsel(n)`), or, for a volume or mass pack, the whole volume
 * (`Durchstf 10 ml` → `10`, `ml`); litres and kilograms are given in ml and g.
 */
export function packUnits(text: string): { units: number; unit: string } | null {
  const size = parsePackSize(text);
  if (!size) return null;
  if (size.total) {
    // The register's word unless the value was converted (`1 l` is given as `1000 ml`).
    const word = size.measure_label ?? '';
    return { units: size.total.value, unit: normalisePackUnit(word)?.factor === 1 ? word : size.total.unit };
  }
  return { units: size.count, unit: size.label || size.unit };
}
