/**
 * Austrian Erstattungskodex (EKO) of the Dachverband der Sozialversicherungsträger, from its
 * monthly data carrier (`ehmvMM_YY_teil1.zip`; layouts in at-eko-records.ts).
 *
 * - Pack keyed by its 7-digit Austrian Pharmazentralnummer (search-only system `at_pzn`, mod-11
 *   check digit verified); quantity and unit (`100 ml`, `50 St`); the Kassenverkaufspreis (what
 *   the sickness fund pays the pharmacy, euro cents in the file) as price kind `reimbursed` in
 *   EUR; prescription status from `rezeptpflicht.txt`; the narcotic vignette `SG` as narcotic list.
 * - Product keyed by its register number (search-only system `at_zulassungsnummer`, as the EKO
 *   writes it), named as the EKO names it; ATC and active substances with strength from
 *   `wirkstoff.txt`, substances named by the German ATC names of `atccode.txt` (provisional
 *   name-keyed substances, `names.de`).
 * - The EKO box (G green: free prescription; Y yellow: with the chief physician's approval or
 *   documented rule, Kassenzeichen RE1 dark yellow / RE2 light yellow; R red: applied for),
 *   Kassenzeichen, long-term approval and the yellow box's rule text are product attributes.
 */
import { atcLevel, normaliseIdentifier } from '../../../vocabulary/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, Ingredient, PackEntry, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { FileRejectedError, RowError, parseFrenchNumber, provisionalNameKey } from './common.ts';
import type { InputFile } from './common.ts';
import {
  readAtcNames, readMedikamente, readPznTexts, readRezeptpflicht, readWirkstoffe, readZusatz, recognise,
} from './at-eko-records.ts';
import type { MedikamentRecord, WirkstoffRecord } from './at-eko-records.ts';
import { assignRoles, requireRole } from './file-roles.ts';
import type { RoleRule } from './file-roles.ts';
import { EXCLUDED, RowTally, unusedFile } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';

export const AT_EKO_FILE = 'medikament.txt';
export const AT_EKO_OPTIONAL_FILES = ['wirkstoff.txt', 'atccode.txt', 'rezeptpflicht.txt', 'regeltext.txt', 'medikament_zusatz.txt', 'hinweis.txt'];

export const AT_EKO_SOURCE: SourceInfo = {
  id: 'at-eko',
  name: 'Erstattungskodex (Dachverband der österreichischen Sozialversicherungsträger)',
  country: 'AT',
  // The EKO changes on the first of every month.
  refresh_interval_hours: 24 * 32,
  licence: 'Published by the Dachverband der Sozialversicherungsträger for its contract partners; the EKO as promulgated in RIS is the binding text',
  url: 'https://www.sozialversicherung.at/',
};

/** EKO boxes by the letter the data carrier writes. */
const BOXES: Record<string, string> = { G: 'grün', Y: 'gelb', R: 'rot' };

interface Extras {
  wirkstoffe: Map<string, WirkstoffRecord[]>;
  atcNames: Map<string, string>;
  rezeptpflicht: Map<string, string>;
  regeltexte: Map<string, string>;
  hinweise: Map<string, string>;
  zusatz: Map<string, { langzeit: string; suchtgift: string }>;
}

/** `0,002` `G/ST` → 2 mg per unit; `100` `IE/ML` → 100 IE/ml; grams become mg as the strength arithmetic prefers. */
export function ekoStrength(raw: string, dimension: string): Pick<Ingredient, 'strength_value' | 'strength_unit' | 'strength_text'> {
  if (raw === '') return {};
  const text = `${raw} ${dimension}`.trim();
  const value = parseFrenchNumber(raw);
  const [amountUnit = '', per = ''] = dimension.toUpperCase().split('/');
  if (value === null || amountUnit === '') return { strength_text: text };
  const grams = amountUnit === 'G';
  const unit = grams ? 'mg' : ({ MG: 'mg', MCG: 'µg', IE: 'IE', MIE: 'Mio. IE' } as Record<string, string>)[amountUnit] ?? amountUnit.toLowerCase();
  // DIE (per day) is how the EKO writes a patch's release rate.
  const perUnit = ({ ML: '/ml', G: '/g', HB: '/dose', ED: '/dose', DIE: '/24 h' } as Record<string, string>)[per] ?? '';
  return { strength_value: Number(((grams ? value * 1000 : value)).toPrecision(12)), strength_unit: unit + perUnit, strength_text: text };
}

function ingredientsOf(pzn: string, extras: Extras, substances: Map<string, SubstanceEntry>): { atc?: string; ingredients: Ingredient[] } {
  const rows = extras.wirkstoffe.get(pzn) ?? [];
  const atc = rows.map((r) => r.productAtc).find((code) => atcLevel(code) === 5);
  const ingredients: Ingredient[] = [];
  for (const row of rows) {
    const name = extras.atcNames.get(row.substanceAtc);
    if (!name) continue;
    const key = provisionalNameKey(name);
    if (!substances.has(key)) substances.set(key, { unii: key, name, names: { de: name }, provisional: true, ...(atcLevel(row.substanceAtc) === 5 ? { atc_codes: [row.substanceAtc] } : {}) });
    ingredients.push({ unii: key, ...ekoStrength(row.strength, row.dimension) });
  }
  return atc ? { atc, ingredients } : { ingredients };
}

function packOf(record: MedikamentRecord, pzn: string, extras: Extras): PackEntry {
  if (record.kvp === '') throw new RowError(`PZN ${pzn}: line ends before the Kassenverkaufspreis`);
  if (!/^\d+$/.test(record.kvp)) throw new RowError(`PZN ${pzn}: Kassenverkaufspreis "${record.kvp}" is not an amount in cents`);
  const quantity = parseFrenchNumber(record.menge);
  const unit = record.mengenart;
  const description = [quantity !== null ? `${record.menge} ${unit}`.trim() : '', record.hinweis].filter(Boolean).join(', ') || record.name;
  const pack: PackEntry = {
    key: pzn, description, identifiers: [{ system: 'at_pzn', code: pzn }],
    prices: [{ amount: Number(record.kvp) / 100, currency: 'EUR', kind: 'reimbursed' }], marketing_status: 'active',
  };
  if (quantity !== null && quantity > 0) Object.assign(pack, { units: quantity, unit: unit === 'St' ? 'Stück' : unit });
  // A pack note that is a volume (`3 ml`) gives the content of each piece: 5 pens of 3 ml hold 15 ml.
  const volume = /^(\d+(?:,\d+)?)\s*ml$/i.exec(record.hinweis);
  if (volume && unit === 'St' && quantity !== null && quantity > 0) {
    pack.quantity = { value: Number((quantity * parseFrenchNumber(volume[1]!)!).toPrecision(12)), unit: 'ml' };
  }
  const rezept = extras.rezeptpflicht.get(pzn);
  if (rezept) pack.dispensing_category = rezept;
  if (extras.zusatz.get(pzn)?.suchtgift) pack.narcotic_list = extras.zusatz.get(pzn)!.suchtgift;
  // hinweis.txt: a note on the pack (a salt's equivalent, a warning), often its supply: `nicht lieferbar`.
  if (/nicht lieferbar/i.test(extras.hinweise.get(pzn) ?? '')) pack.availability = 'nicht lieferbar';
  return pack;
}

/** Product attributes of one pack's EKO facts; a product's packs add distinct values. */
function addAttributes(product: ProductEntry, record: MedikamentRecord, pzn: string, extras: Extras): void {
  const attributes = product.attributes ?? {};
  const add = (name: string, value: string | undefined): void => {
    if (!value) return;
    const known = typeof attributes[name] === 'string' ? (attributes[name] as string).split(', ') : [];
    if (!known.includes(value)) attributes[name] = [...known, value].join(', ');
  };
  add('at_eko_box', BOXES[record.box] ?? record.box);
  add('at_eko_kassenzeichen', record.kassenzeichen);
  add('at_eko_langzeitbewilligung', extras.zusatz.get(pzn)?.langzeit);
  add('at_eko_regeltext', extras.regeltexte.get(pzn));
  add('at_eko_hinweis', extras.hinweise.get(pzn));
  if (Object.keys(attributes).length > 0) product.attributes = attributes;
}

function productOf(record: MedikamentRecord, key: string, pzn: string, extras: Extras, substances: Map<string, SubstanceEntry>): ProductEntry {
  const { atc, ingredients } = ingredientsOf(pzn, extras, substances);
  const product: ProductEntry = { key, country: 'AT', product_name: record.name, marketing_status: 'active', identifiers: [], ingredients, packs: [] };
  const register = normaliseIdentifier('at_zulassungsnummer', `${record.prefix}${record.register}`);
  if (register && !key.startsWith('pzn:')) product.identifiers.push({ system: 'at_zulassungsnummer', code: register });
  if (atc) product.atc_code = atc;
  return product;
}

interface Context {
  tally: RowTally;
  extras: Extras;
  substances: Map<string, SubstanceEntry>;
  products: Map<string, ProductEntry>;
  packKeys: Set<string>;
}

function addRecord(record: MedikamentRecord, ctx: Context): void {
  const pzn = normaliseIdentifier('at_pzn', record.pzn);
  if (!pzn || record.pzn.length !== 7) throw new RowError(`PZN "${record.pzn}" is not a 7-digit Austrian PZN (check digit)`);
  if (ctx.packKeys.has(pzn)) { ctx.tally.exclude(EXCLUDED.duplicate); return; }
  if (record.name === '') throw new RowError(`PZN ${pzn}: no name`);
  const pack = packOf(record, pzn, ctx.extras);
  const key = record.register === '' ? `pzn:${pzn}` : `${record.prefix}${record.register}`;
  let product = ctx.products.get(key);
  if (!product) {
    product = productOf(record, key, pzn, ctx.extras, ctx.substances);
    ctx.products.set(key, product);
  }
  addAttributes(product, record, pzn, ctx.extras);
  product.packs.push(pack);
  ctx.packKeys.add(pzn);
  ctx.tally.keep();
}

/** The data carrier's files by content; the name (`medikament.txt` …) breaks a tie between `|PZN|;|text|` files. */
const RULES: readonly RoleRule<string>[] = [
  { role: 'medikament', names: ['medikament.txt'], recognise: recognise.medikament },
  { role: 'wirkstoff', names: ['wirkstoff.txt'], recognise: recognise.wirkstoff },
  { role: 'atccode', names: ['atccode.txt'], recognise: recognise.atccode },
  { role: 'rezeptpflicht', names: ['rezeptpflicht.txt'], recognise: recognise.rezeptpflicht },
  { role: 'medikament_zusatz', names: ['medikament_zusatz.txt'], recognise: recognise.zusatz },
  { role: 'regeltext', names: ['regeltext.txt'], recognise: recognise.pznText(false) },
  { role: 'hinweis', names: ['hinweis.txt'], recognise: recognise.pznText(false) },
  { role: 'wirkstoff_information', names: ['wirkstoff_information.txt'], recognise: recognise.pznText(false) },
  { role: 'regeltext_v2', names: ['regeltext_v2.txt'], recognise: recognise.pznText(true) },
];

/** Members recognised and left unread, with why. */
const NOT_READ: Readonly<Record<string, string>> = {
  wirkstoff_information: 'ingredient text of combinations (not read: wirkstoff.txt gives the substances)',
  regeltext_v2: 'the rule texts of regeltext.txt in HTML (not read)',
};

interface Extra<T> { role: string; read: (f: InputFile, tally: RowTally) => T; empty: T }

function readExtras(byRole: Map<string, InputFile[]>, problems: RowProblem[]): { extras: Extras; reports: Map<InputFile, FileReport> } {
  const reports = new Map<InputFile, FileReport>();
  const optional = <T>({ role, read, empty }: Extra<T>): T => {
    const file = byRole.get(role)?.[0];
    if (!file) return empty;
    const tally = new RowTally(file.name, problems);
    const result = read(file, tally);
    reports.set(file, tally.report(`${role}.txt`));
    return result;
  };
  const wirkstoffe = new Map<string, WirkstoffRecord[]>();
  for (const row of optional({ role: 'wirkstoff', read: readWirkstoffe, empty: [] as WirkstoffRecord[] })) {
    wirkstoffe.set(row.pzn, [...(wirkstoffe.get(row.pzn) ?? []), row].sort((a, b) => a.serial.localeCompare(b.serial)));
  }
  const none = new Map<string, string>();
  return {
    extras: {
      wirkstoffe,
      atcNames: optional({ role: 'atccode', read: readAtcNames, empty: none }),
      rezeptpflicht: optional({ role: 'rezeptpflicht', read: readRezeptpflicht, empty: none }),
      regeltexte: optional({ role: 'regeltext', read: readPznTexts, empty: none }),
      hinweise: optional({ role: 'hinweis', read: readPznTexts, empty: none }),
      zusatz: optional({ role: 'medikament_zusatz', read: readZusatz, empty: new Map() }),
    },
    reports,
  };
}

/**
 * Parses the EKO data carrier (its files, or the folder of `ehmvMM_YY_teil1.zip`): each file by
 * its record layout, members it does not read named as unused; every pack line kept, malformed
 * (with its line and why) or excluded as a repeat of an earlier PZN.
 */
export async function parseAtEko(files: InputFile[]): Promise<AdapterResult> {
  const assignment = await assignRoles(files, RULES);
  const file = requireRole(assignment, 'medikament', AT_EKO_FILE);
  const problems: RowProblem[] = [];
  const { extras, reports } = readExtras(assignment.byRole, problems);
  const tally = new RowTally(file.name, problems);
  const ctx: Context = { tally, extras, substances: new Map(), products: new Map(), packKeys: new Set() };
  for (const record of readMedikamente(file)) {
    try {
      addRecord(record, ctx);
    } catch (err) {
      if (!(err instanceof RowError)) throw err;
      tally.malformedRow(record.line, err.message);
    }
  }
  if (tally.kept === 0) throw new FileRejectedError(file.name, 'no pack line: an empty EKO would delete the source on ingest');
  reports.set(file, tally.report('EKO Medikamente'));
  for (const [role, note] of Object.entries(NOT_READ)) {
    for (const f of assignment.byRole.get(role) ?? []) reports.set(f, unusedFile(f.name, note));
  }
  const unused = new Map(assignment.unused.map((u) => [u.file, u]));
  // The pack list first, then the other files in the order given.
  const ordered = [file, ...files.filter((f) => f !== file)];
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: AT_EKO_SOURCE, substances: [...ctx.substances.values()], products: [...ctx.products.values()] },
    problems,
    files: ordered.map((f) => reports.get(f) ?? unused.get(f.name)!),
  };
}
