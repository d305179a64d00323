/**
 * Rows of the AIFA register (`confezioni_fornitura.csv`) to products and packs.
 *
 * - One pack per AIC (9 digits, Code 32 check digit verified; leading zeros an export dropped
 *   are restored). A bad check digit or a duplicate AIC is a row problem.
 * - One product per AIC6 (COD_FARMACO, the first six digits) and strength/form label: AIFA
 *   files every strength of a brand under one AIC6, and the DESCRIZIONE names the label first
 *   (`500 MG COMPRESSE RIVESTITE- 30 COMPRESSE`, `"1000 mg compresse" 60 compresse`, or the EMA
 *   style `2,5 MG - COMPRESSA ... - 60 COMPRESSE`), the pack after it.
 * - STATO_AMMINISTRATIVO kept as written (`Autorizzata`, `Sospesa`, `Revocata`); anything but
 *   Autorizzata is not on the market. FORNITURA (RR, RNR, OSP, SOP, OTC ...) is the dispensing category.
 */
import { normaliseAic, normaliseIdentifier } from '../../../vocabulary/codes.ts';
import type { Ingredient, PackEntry, ProductEntry, SubstanceEntry } from '../snapshot.ts';
import { leadingQuantity, provisionalNameKey } from './common.ts';
import type { DelimitedRow } from './delimited-table.ts';
import { REGISTER_COLUMNS as C } from './it-aifa-files.ts';
import { EXCLUDED } from '../row-outcome.ts';
import type { RowTally } from '../row-outcome.ts';

/** What the register rows build: products by key, and the product key of every AIC kept. */
export interface RegisterState {
  products: Map<string, ProductEntry>;
  packs: Map<string, { product: ProductEntry; pack: PackEntry }>;
  substances: Map<string, SubstanceEntry>;
}

/** AIC of a cell: 9 digits after restoring dropped leading zeros, check digit verified; null otherwise. */
export function aicOf(raw: string): string | null {
  const digits = raw.replace(/^A/i, '').trim();
  if (!/^\d{6,9}$/.test(digits)) return null;
  return normaliseAic(digits.padStart(9, '0'));
}

/** The strength/form label and the pack text of a DESCRIZIONE. */
export function splitDescription(description: string): { label: string; pack: string } {
  const quoted = /^"([^"]+)"\s*(.*)$/.exec(description);
  if (quoted) return { label: quoted[1]!.trim(), pack: quoted[2]!.trim() };
  const dash = description.lastIndexOf('- ');
  if (dash > 0) return { label: description.slice(0, dash).replace(/\s*-?\s*$/, '').trim(), pack: description.slice(dash + 2).trim() };
  return { label: '', pack: description.trim() };
}

/** Strength as the label writes it for a single-substance product (`500 MG`, `2,5 MG`, `100 UNITA'/ML`). */
export function labelStrength(label: string): Pick<Ingredient, 'strength_value' | 'strength_unit' | 'strength_text'> | null {
  const m = /(\d+(?:[.,]\d+)?)\s*(UNITA'|MCG|MG|MMOL|µG|UI|U|G)(\s*\/\s*(?:\d+(?:[.,]\d+)?\s*)?(?:ML|G|DOSE))?(?=[\s/+]|$)/i.exec(label);
  if (!m) return null;
  const unit = m[2]!.toLowerCase() === "unita'" ? 'U' : m[2]!.toLowerCase();
  return {
    strength_value: Number(m[1]!.replace(',', '.')),
    strength_unit: unit + (m[3] ? m[3].replace(/\s+/g, '').toLowerCase() : ''),
    strength_text: m[0].trim(),
  };
}

/** The provisional key of a substance named in Italian, added to `substances` on first sight. */
export function registerSubstance(name: string, substances: Map<string, SubstanceEntry>): string {
  const key = provisionalNameKey(name);
  if (!substances.has(key)) {
    const clean = name.trim().replace(/\s+/g, ' ');
    substances.set(key, { unii: key, name: clean, names: { it: clean.toLowerCase() }, provisional: true });
  }
  return key;
}

function newProduct(row: DelimitedRow, aic6: string, label: string, state: RegisterState): ProductEntry {
  const name = row.get(C.name);
  const substances = row.get(C.substances);
  // One substance only: a combination's label lists one strength per substance (`875 MG/125 MG`).
  const strength = substances.includes('/') ? null : labelStrength(label);
  const ingredients: Ingredient[] = substances === '' ? [] : [{ unii: registerSubstance(substances, state.substances), ...(strength ?? {}) }];
  const product: ProductEntry = {
    key: label === '' ? aic6 : `${aic6}|${label.toUpperCase().replace(/\s+/g, ' ')}`,
    country: 'IT',
    product_name: label === '' ? name : `${name} ${label}`,
    brand: name,
    identifiers: [{ system: 'it_aic6', code: normaliseIdentifier('it_aic6', aic6)! }],
    ingredients,
    packs: [],
  };
  // Only the EMA-style label names the route (`2,5 MG - COMPRESSA ... - USO ORALE - BLISTER`).
  const route = /(?:^|\s-\s)(USO [A-Z' ]+?)(?=\s-\s|$)/i.exec(label)?.[1] ?? '';
  const optional: Array<[keyof ProductEntry, string]> = [
    ['atc_code', row.get(C.atc).toUpperCase()], ['dose_form', row.get(C.form)], ['route', route], ['holder', row.get(C.holder)],
    ['dispensing_category', row.get(C.supply)], ['authorisation_status', row.get(C.status)],
  ];
  for (const [field, value] of optional) if (value !== '') (product as unknown as Record<string, unknown>)[field] = value;
  const attributes: Record<string, string> = {};
  if (row.get(C.procedure) !== '') attributes.tipo_procedura = row.get(C.procedure);
  const leaflet = row.get(C.leaflet) || row.get(C.link);
  if (leaflet !== '') attributes.foglio_illustrativo = leaflet;
  if (row.get(C.spc) !== '') attributes.rcp = row.get(C.spc);
  if (Object.keys(attributes).length > 0) product.attributes = attributes;
  return product;
}

function packOf(row: DelimitedRow, aic: string, packText: string): PackEntry {
  const description = row.get(C.description);
  // A price list names no status: a pack it prices is sold (the register's own rows always name one).
  const active = ['autorizzata', ''].includes(row.get(C.status).toLowerCase());
  const pack: PackEntry = {
    key: aic,
    description,
    identifiers: [{ system: 'aic', code: aic }],
    marketing_status: active ? 'active' : 'withdrawn',
  };
  const units = leadingQuantity(packText);
  if (units) { pack.units = units.units; pack.unit = units.unit; }
  if (row.get(C.supply) !== '') pack.dispensing_category = row.get(C.supply);
  return pack;
}

/** Why a row is not kept: malformed (with why) or excluded for a named reason (a repeated AIC). */
export type RowSkip = { malformed: string } | { excluded: string; why: string };

/** The AIC and AIC6 of a usable register row, or why it is not kept. */
export function checkRegisterRow(row: DelimitedRow, width: number, seen: (aic: string) => boolean): { aic: string; aic6: string } | RowSkip {
  if (row.width < width) return { malformed: `row has ${row.width} fields, the header ${width}` };
  const raw = row.get(C.aic);
  const aic = aicOf(raw);
  if (!aic) return { malformed: `CODICE_AIC "${raw}" is not a valid AIC (9 digits, Code 32 check digit)` };
  // The same pack again: the register lists it on purpose (a copy re-exported), the first row is kept.
  if (seen(aic)) return { excluded: EXCLUDED.duplicate, why: `AIC ${aic} is listed twice (the first row is kept)` };
  if (row.get(C.name) === '') return { malformed: `AIC ${aic}: no DENOMINAZIONE` };
  const aic6 = (row.get(C.product) || aic.slice(0, 6)).padStart(6, '0');
  if (aic6 !== aic.slice(0, 6)) return { malformed: `AIC ${aic}: COD_FARMACO ${aic6} is not its first six digits` };
  return { aic, aic6 };
}

/** True when a check result is a skip, not a usable row. */
export function isSkip<T extends object>(result: T | RowSkip): result is RowSkip {
  return 'malformed' in result || 'excluded' in result;
}

/** Counts a skipped row in its file's tally. */
export function tallySkip(tally: RowTally, line: number, skip: RowSkip): void {
  if ('malformed' in skip) tally.malformedRow(line, skip.malformed);
  else tally.exclude(skip.excluded);
}

/** Adds one register row (the register's, or a BDFN or list row read through its columns); returns why it was not kept, or null. */
export function addRegisterRow(row: DelimitedRow, width: number, state: RegisterState): RowSkip | null {
  const checked = checkRegisterRow(row, width, (aic) => state.packs.has(aic));
  if (isSkip(checked)) return checked;
  const { aic, aic6 } = checked;
  const { label, pack: packText } = splitDescription(row.get(C.description));
  const probe = newProduct(row, aic6, label, state);
  const product = state.products.get(probe.key) ?? probe;
  state.products.set(product.key, product);
  const pack = packOf(row, aic, packText);
  product.packs.push(pack);
  // A product is on the market while any of its packs is.
  product.marketing_status = product.packs.some((p) => p.marketing_status === 'active') ? 'active' : 'withdrawn';
  if (pack.marketing_status === 'active' && row.get(C.status) !== '') product.authorisation_status = row.get(C.status);
  state.packs.set(aic, { product, pack });
  return null;
}
