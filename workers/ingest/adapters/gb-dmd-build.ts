/**
 * dm+d records → snapshot products and packs. A product is an AMP (the supplier's product),
 * with the ingredients, form and route of its VMP; a pack is an AMPP, sized by its VMPP.
 * VTMs and VMPs never become products of their own: they only describe AMPs.
 * Code fields are resolved through the lookup file (supplier, units, forms, routes, legal
 * category, availability restriction, controlled-drug category).
 */
import { atcLevel } from '../../../vocabulary/codes.ts';
import type { Identifier, Ingredient, PackEntry, Price, ProductEntry, SubstanceEntry } from '../snapshot.ts';
import { leadingQuantity, provisionalNameKey } from './common.ts';
import type { ProblemLog } from './common.ts';
import type { AmpKey, AmpRec, AmppKey, DmdData, DmdRole, GtinRec, PenceRec, VmppRec, VmpRec, VpiRec } from './gb-dmd-read.ts';
import { DmdRecords } from './gb-dmd-records.ts';

interface Build {
  data: DmdData;
  records: DmdRecords;
  log: ProblemLog;
  substances: Map<string, SubstanceEntry>;
  used: { isids: Set<string>; vtms: Set<string>; vmps: Set<string>; vmpps: Set<string> };
}

/** Lookup description of `code` in table `table` (SUPPLIER, UNIT_OF_MEASURE, FORM …). */
function desc(b: Build, table: string, code: string | undefined): string | undefined {
  return code === undefined ? undefined : b.data.lookup.get(table)?.get(code) || undefined;
}

function kept(b: Build, role: DmdRole, n = 1): void {
  const count = b.data.counts.get(role);
  if (count) count.kept += n;
}

/** Pence (dm+d stores whole pence) to pounds, exactly: integer ÷ 100 is the nearest double to the decimal. */
const pounds = (pence: number): number => pence / 100;

/** `special_order`, `not_available` … from the AVAILABILITY_RESTRICTION text; none for "None". */
export function availabilityFrom(text: string | undefined): string | undefined {
  if (!text || /^none$/i.test(text.trim())) return undefined;
  if (/not\s+available/i.test(text)) return 'not_available';
  return text.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

/** POM / P / GSL from the LEGAL_CATEGORY text (short forms or spelled out); other texts as given. */
export function legalCategoryFrom(text: string | undefined): string | undefined {
  const t = text?.trim() ?? '';
  if (t === '' || /^not applicable$/i.test(t)) return undefined;
  if (/^(POM|P|GSL)$/i.test(t)) return t.toUpperCase();
  if (/prescription only/i.test(t)) return 'POM';
  if (/general sale/i.test(t)) return 'GSL';
  if (/^pharmacy/i.test(t)) return 'P';
  return t;
}

function substance(b: Build, isid: string): string | null {
  const name = b.data.ingredients.get(isid);
  if (!name) return null;
  b.used.isids.add(isid);
  const key = provisionalNameKey(name);
  if (!b.substances.has(key)) b.substances.set(key, { unii: key, name, names: { en: name }, provisional: true });
  return key;
}

/** dm+d spells some units out; the strength unit uses the symbols other registers use (the text keeps the words). */
const UNIT_SYMBOLS: Readonly<Record<string, string>> = { gram: 'g', kilogram: 'kg', litre: 'l', nanogram: 'ng' };
const symbol = (unit: string): string => UNIT_SYMBOLS[unit] ?? unit;

/** Strength `3 mg/1 ml` → value 3, unit `mg/ml`; a denominator other than 1 stays in the unit (`mg/5ml`). */
function strength(b: Build, vpi: VpiRec): Pick<Ingredient, 'strength_value' | 'strength_unit' | 'strength_text'> {
  if (vpi.num === undefined) return {};
  const numUnit = desc(b, 'UNIT_OF_MEASURE', vpi.numUom) ?? '';
  const denUnit = desc(b, 'UNIT_OF_MEASURE', vpi.denUom);
  const out: Pick<Ingredient, 'strength_value' | 'strength_unit' | 'strength_text'> = { strength_value: vpi.num };
  const unit = denUnit ? `${symbol(numUnit)}/${vpi.den === undefined || vpi.den === 1 ? '' : vpi.den}${symbol(denUnit)}` : symbol(numUnit);
  if (unit) out.strength_unit = unit;
  out.strength_text = [`${vpi.num} ${numUnit}`.trim(), denUnit ? `${vpi.den ?? 1} ${denUnit}` : ''].filter(Boolean).join('/');
  return out;
}

function ingredients(b: Build, vmp: VmpRec): Ingredient[] {
  const out: Ingredient[] = [];
  for (const vpi of vmp.vpis) {
    const key = substance(b, vpi.isid);
    if (!key) {
      b.log.add(b.data.counts.get('VMP')?.file ?? 'VMP', vpi.line, `ISID ${vpi.isid} is not in the ingredient file`);
      continue;
    }
    const ingredient: Ingredient = { unii: key, ...strength(b, vpi) };
    // Basis of strength = a base substance (BS_SUBID): dm+d states the strength of that moiety,
    // as its product names do ("5mg" of amlodipine besilate tablets); the text says so.
    const base = vpi.bsSubid && vpi.bsSubid !== vpi.isid ? substance(b, vpi.bsSubid) : null;
    if (base) {
      ingredient.moiety = { unii: base, ...strength(b, vpi) };
      if (ingredient.strength_text) ingredient.strength_text += ` (as ${b.data.ingredients.get(vpi.bsSubid!)})`;
    }
    out.push(ingredient);
  }
  return out;
}

function productIdentifiers(b: Build, apid: string, vpid: string, vmp: VmpRec): Identifier[] {
  const ids: Identifier[] = [
    { system: 'dmd_apid', code: apid },
    { system: 'dmd_vmpid', code: vpid, ...(vmp.vpidDate ? { valid_from: vmp.vpidDate } : {}) },
  ];
  // The previous VPID stopped applying when the current one started (VPIDDT).
  if (vmp.vpidPrev) ids.push({ system: 'dmd_vmpid', code: vmp.vpidPrev, previous: true, ...(vmp.vpidDate ? { valid_to: vmp.vpidDate } : {}) });
  if (vmp.vtmid) {
    ids.push({ system: 'dmd_vtmid', code: vmp.vtmid });
    const vtm = b.data.vtms.get(vmp.vtmid);
    if (vtm) b.used.vtms.add(vmp.vtmid);
    if (vtm?.prev) ids.push({ system: 'dmd_vtmid', code: vtm.prev, previous: true });
  }
  return ids;
}

function attributes(b: Build, amp: AmpRec, vmp: VmpRec): Record<string, string | boolean> {
  const attrs: Record<string, string | boolean> = { vmp_name: vmp.name };
  const vtm = vmp.vtmid ? b.data.vtms.get(vmp.vtmid) : undefined;
  const set = (name: string, value: string | undefined): void => { if (value) attrs[name] = value; };
  set('description', amp.desc);
  set('vtm_name', vtm?.name);
  set('dmd_isids', vmp.vpis.map((v) => v.isid).join(','));
  set('availability_restriction', desc(b, 'AVAILABILITY_RESTRICTION', amp.avail));
  set('licensing_authority', desc(b, 'LICENSING_AUTHORITY', amp.licAuth));
  set('controlled_drug_category', desc(b, 'CONTROL_DRUG_CATEGORY', vmp.cd));
  set('ont_form_route', vmp.ont.map((c) => desc(b, 'ONT_FORM_ROUTE', c) ?? c).join(', '));
  set('vmp_previous_name', vmp.prevName);
  set('vmp_name_changed_on', vmp.prevName ? vmp.nameDate : undefined);
  if (amp.parallel) attrs.parallel_import = true;
  return attrs;
}

/** The AMP's previous name; a generic AMP, which carries its VMP's name, also had the VMP's previous one. */
function previousNames(amp: AmpRec, vmp: VmpRec, generic: boolean): Array<{ name: string; until?: string }> {
  const out: Array<{ name: string; until?: string }> = [];
  if (amp.prevName) out.push({ name: amp.prevName, ...(amp.nameDate ? { until: amp.nameDate } : {}) });
  if (generic && vmp.prevName && vmp.prevName !== amp.prevName) out.push({ name: vmp.prevName, ...(vmp.nameDate ? { until: vmp.nameDate } : {}) });
  return out;
}

/** What building an AMP reports and counts, from its keys alone (no record is read again): its VMP, ids, ingredients and packs. */
interface LinkedAmp {
  vmp: VmpRec;
  identifiers: Identifier[];
  ingredients: Ingredient[];
  packs: Array<{ key: AmppKey; vmpp: VmppRec }>;
}

function buildProduct(b: Build, amp: AmpRec, linked: LinkedAmp): ProductEntry {
  const { vmp } = linked;
  const product: ProductEntry = {
    key: amp.apid, country: 'GB', product_name: amp.name, identifiers: linked.identifiers,
    ingredients: linked.ingredients, packs: [], marketing_status: 'active',
    // A generic AMP carries its VMP's name (special orders and imports add a "(Special Order)",
    // "(Imported (Germany))" suffix); a branded one its brand.
    generic: amp.name === vmp.name || amp.name.startsWith(`${vmp.name} (`),
  };
  if (!product.generic) product.brand = amp.name;
  const holder = desc(b, 'SUPPLIER', amp.supplier);
  if (holder) product.holder = holder;
  const forms = vmp.forms.map((c) => desc(b, 'FORM', c)).filter(Boolean);
  if (forms.length > 0) product.dose_form = forms.join(', ');
  const routes = vmp.routes.map((c) => desc(b, 'ROUTE', c)).filter(Boolean);
  if (routes.length > 0) product.route = routes.join(', ');
  const atc = b.data.atc.get(amp.vpid);
  if (atc && atcLevel(atc) !== null) product.atc_code = atc;
  const previous = previousNames(amp, vmp, product.generic === true);
  if (previous.length > 0) product.previous_names = previous;
  if (amp.ema) product.additional_monitoring = true;
  product.attributes = attributes(b, amp, vmp);
  return product;
}

/** Identifiers of a GTIN list: one per normalised code, the widest validity when a code repeats (13 and 14-digit forms). */
function gtinIdentifiers(recs: GtinRec[]): Identifier[] {
  const byCode = new Map<string, Identifier>();
  for (const rec of recs) {
    const seen = byCode.get(rec.code);
    if (!seen) {
      byCode.set(rec.code, { system: 'gtin', code: rec.code, ...(rec.from ? { valid_from: rec.from } : {}), ...(rec.to ? { valid_to: rec.to } : {}) });
      continue;
    }
    if (!rec.from || (seen.valid_from && rec.from < seen.valid_from)) seen.valid_from = rec.from;
    if (!rec.to || !seen.valid_to) delete seen.valid_to;
    else if (rec.to > seen.valid_to) seen.valid_to = rec.to;
    if (!seen.valid_from) delete seen.valid_from;
  }
  return [...byCode.values()];
}

/**
 * A price and the one it replaced: the earlier one as kind `<kind>_previous`, which applied
 * until the current one's `valid_from` (dm+d does not date its start). A price of 0 is how
 * dm+d carries "no current price" (discontinued packs): not a price, and no earlier one either.
 */
function withPrevious(kind: string, rec: PenceRec | undefined): Price[] {
  // Without a current price the earlier one is no history of it: a reader picking any price must not take it for current.
  if (!rec || rec.pence <= 0) return [];
  const out: Price[] = [{ amount: pounds(rec.pence), currency: 'GBP', kind, ...(rec.from ? { valid_from: rec.from } : {}) }];
  if (rec.prev && rec.prev > 0 && rec.prev !== rec.pence) out.push({ amount: pounds(rec.prev), currency: 'GBP', kind: `${kind}_previous` });
  return out;
}

/** The VMPP of a pack, counting what the pack keeps (its VMPP, GTINs, list price); a string says why it is skipped. */
function linkPack(b: Build, key: AmppKey): VmppRec | string {
  const vmpp = b.data.vmpps.get(key.vppid);
  if (!vmpp) return `VPPID ${key.vppid} is not a VMPP of the VMPP file`;
  if (!b.used.vmpps.has(key.vppid)) { b.used.vmpps.add(key.vppid); kept(b, 'VMPP', vmpp.tariff ? 2 : 1); }
  if (key.gtins !== undefined) kept(b, 'GTIN');
  // The AMPP row, and its price row when that holds a price.
  kept(b, 'AMPP', key.pence !== undefined && key.pence > 0 ? 2 : 1);
  return vmpp;
}

function buildPack(b: Build, key: AmppKey, vmpp: VmppRec, amp: AmpRec): PackEntry {
  const ampp = b.records.ampp(key);
  const pack: PackEntry = {
    key: ampp.appid, description: ampp.name,
    identifiers: [{ system: 'dmd_amppid', code: ampp.appid }, { system: 'dmd_vmppid', code: ampp.vppid }],
    marketing_status: ampp.disc ? 'withdrawn' : 'active',
  };
  const size = vmpp.qty === undefined ? null : leadingQuantity(`${vmpp.qty} ${desc(b, 'UNIT_OF_MEASURE', vmpp.qtyUom) ?? ''}`);
  if (size) Object.assign(pack, size);
  const gtins = b.records.gtins(ampp.appid, key.gtins);
  if (gtins.length > 0) pack.identifiers.push(...gtinIdentifiers(gtins));
  const list = key.pence === undefined ? undefined : { pence: key.pence, from: key.priceFrom, prev: key.pricePrev };
  const prices = [...withPrevious('tariff', vmpp.tariff), ...withPrevious('list', list)];
  if (prices.length > 0) pack.prices = prices;
  const category = desc(b, 'DT_PAYMENT_CATEGORY', vmpp.payCat);
  if (category) pack.tariff_category = category;
  const legal = legalCategoryFrom(desc(b, 'LEGAL_CATEGORY', ampp.legal));
  if (legal) pack.dispensing_category = legal;
  const availability = availabilityFrom(desc(b, 'AVAILABILITY_RESTRICTION', amp.avail));
  if (availability) pack.availability = availability;
  return pack;
}

/**
 * Groups the valid AMPPs under their AMPs (`data.packs`, each AMP's `firstPack` and
 * `packCount`) with their list prices and GTIN offsets, reporting repeated APPIDs and AMPPs
 * of no AMP, and empties the lists it drew on. Runs once all files are read, before the
 * products are built.
 */
export function linkPacks(data: DmdData, log: ProblemLog): void {
  const file = data.counts.get('AMPP')?.file ?? 'AMPP';
  const seen = new Map<string, number>();
  const linked: Array<{ ampp: AmppKey; amp: AmpKey }> = [];
  for (const ampp of data.ampps) {
    const first = seen.get(ampp.appid);
    if (first !== undefined) { log.add(file, ampp.line, `APPID ${ampp.appid} repeats the AMPP of line ${first}; the first is kept`); continue; }
    seen.set(ampp.appid, ampp.line);
    const amp = data.amps.get(ampp.apid);
    if (!amp) { log.add(file, ampp.line, `APID ${ampp.apid} is not an AMP of the AMP file`); continue; }
    const price = data.prices.get(ampp.appid);
    if (price) [ampp.pence, ampp.priceFrom, ampp.pricePrev] = [price.pence, price.from, price.prev];
    ampp.gtins = data.gtins.get(ampp.appid);
    amp.packCount += 1;
    linked.push({ ampp, amp });
  }
  // One array in AMP order instead of a list per AMP: each AMP's packs are a run of it, in file order.
  let next = 0;
  for (const amp of data.amps.values()) [amp.firstPack, next, amp.packCount] = [next, next + amp.packCount, 0];
  data.packs = new Array<AmppKey>(linked.length);
  for (const { ampp, amp } of linked) data.packs[amp.firstPack + amp.packCount++] = ampp;
  data.ampps = [];
  data.prices.clear();
  data.gtins.clear();
  data.shared.clear();
}

/** Checks and counts an AMP and its packs from their keys; null when it is out of scope or unlinked (reported). */
function linkAmp(b: Build, apid: string, key: AmpKey): LinkedAmp | null {
  // Invalid entries (INVALID=1) are withdrawn from use by the NHSBSA; they and their packs are out of scope.
  if (key.invalid) return null;
  const vmp = b.data.vmps.get(key.vpid);
  if (!vmp) { b.log.add(b.data.counts.get('AMP')?.file ?? 'AMP', key.line, `VPID ${key.vpid} is not a VMP of the VMP file`); return null; }
  if (!b.used.vmps.has(key.vpid)) { b.used.vmps.add(key.vpid); kept(b, 'VMP', 1 + vmp.sections); if (b.data.atc.has(key.vpid)) kept(b, 'BNF'); }
  const linked: LinkedAmp = { vmp, identifiers: productIdentifiers(b, apid, key.vpid, vmp), ingredients: ingredients(b, vmp), packs: [] };
  const file = b.data.counts.get('AMPP')?.file ?? 'AMPP';
  for (const pack of b.data.packs.slice(key.firstPack, key.firstPack + key.packCount)) {
    const vmpp = linkPack(b, pack);
    if (typeof vmpp === 'string') b.log.add(file, pack.line, vmpp);
    else linked.packs.push({ key: pack, vmpp });
  }
  kept(b, 'AMP');
  return linked;
}

/**
 * Yields the products (AMPs with their AMPPs, once `linkPacks` ran) one at a time, adding the substances they name
 * to `substances`; unlinked records are reported and skipped. Run to the end, it has counted
 * every kept record into `data.counts`, so a streamed ingest runs it once to settle problems
 * and counts, and again (with a scratch log and counts) while the engine writes.
 */
export function* dmdProducts(data: DmdData, log: ProblemLog, substances: Map<string, SubstanceEntry>, describe = true): Generator<ProductEntry> {
  const records = new DmdRecords(data.files);
  const b: Build = { data, records, log, substances, used: { isids: new Set(), vtms: new Set(), vmps: new Set(), vmpps: new Set() } };
  try {
    for (const [apid, key] of data.amps) {
      const linked = linkAmp(b, apid, key);
      if (!linked || !describe) continue;
      const amp = records.amp(apid, key);
      const product = buildProduct(b, amp, linked);
      product.packs = linked.packs.map(({ key: pack, vmpp }) => buildPack(b, pack, vmpp, amp));
      if (product.packs.length > 0 && product.packs.every((p) => p.marketing_status === 'withdrawn')) product.marketing_status = 'withdrawn';
      yield product;
    }
  } finally {
    records.close();
  }
  kept(b, 'ingredient', b.used.isids.size);
  kept(b, 'VTM', b.used.vtms.size);
}

/** Builds every product and their substances at once (the in-memory `parse`). */
export function buildDmdProducts(data: DmdData, log: ProblemLog): { products: ProductEntry[]; substances: SubstanceEntry[] } {
  linkPacks(data, log);
  const substances = new Map<string, SubstanceEntry>();
  const products = [...dmdProducts(data, log, substances)];
  return { products, substances: [...substances.values()] };
}
