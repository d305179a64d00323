/**
 * The normalised snapshot format itself (`drugref-snapshot/1`, docs/snapshot-format.md), so any
 * register converted to JSON can be ingested. The envelope (format, source, the arrays) must be
 * right or the file is rejected; each entry of atc/classes/substances/products/recalls is then
 * checked on its own, and a bad entry is reported with its JSON path (line 0) and skipped.
 * Identifier codes are normalised as the lookup does (a GTIN with a wrong check digit is an error).
 */
import { isValidUnii } from '../../../vocabulary/check-digits.ts';
import { atcLevel, normaliseIdentifier } from '../../../vocabulary/codes.ts';
import {
  CLASS_SYSTEMS, EXTRA_SYSTEMS, JURISDICTIONS, LOOKUP_SYSTEMS, SNAPSHOT_FORMAT,
} from '../snapshot.ts';
import type {
  AdapterResult, AtcEntry, ClassEntry, Identifier, IdentifierSystem, ProductEntry, RecallEntry, Snapshot, SourceInfo,
  SubstanceEntry,
} from '../snapshot.ts';
import { FileRejectedError, decodeText } from './common.ts';
import { RowTally } from '../row-outcome.ts';
import {
  arrayOf, bool, isoDate, nullable, num, object, oneOf, optional, recordOf, required, scalar, str, text,
} from './json-checks.ts';
import type { Check } from './json-checks.ts';

const atcCode = str((s) => atcLevel(s) !== null, 'an ATC code');
const classSystem = oneOf(CLASS_SYSTEMS.filter((s) => s !== 'atc'));
const classRef = object({ system: required(classSystem), code: required(str()) });
const status = oneOf(['active', 'withdrawn'] as const);

/** A known system and a code that is well-formed for it, stored in its normalised form. */
const identifier: Check<Identifier> = (value, path, errors) => {
  const before = errors.length;
  const id = object<Identifier>({
    system: required(oneOf<IdentifierSystem>([...LOOKUP_SYSTEMS, ...EXTRA_SYSTEMS])),
    code: required(str()),
    valid_from: optional(isoDate),
    valid_to: optional(isoDate),
    previous: optional(bool),
  })(value, path, errors);
  if (errors.length > before) return id;
  const code = normaliseIdentifier(id.system, id.code);
  if (code === null) errors.push(`${path}.code: "${id.code}" is not a valid ${id.system} code`);
  return { ...id, code: code ?? id.code };
};

const source = object<SourceInfo>({
  id: required(str((s) => /^[a-z0-9][a-z0-9-]*$/.test(s), 'a lower-case id')),
  name: required(str()),
  country: required(nullable(oneOf(JURISDICTIONS))),
  refresh_interval_hours: required(num(1)),
  licence: optional(str()),
  url: optional(str((s) => /^https?:\/\//.test(s), 'an http(s) URL')),
  demo: optional(bool),
});

const atcEntry: Check<AtcEntry> = (value, path, errors) => {
  const entry = object<AtcEntry>({
    code: required(atcCode),
    name: required(str()),
    level: optional(num(1, 5)),
    ddd: optional(arrayOf(object({
      value: required(num(Number.MIN_VALUE)), unit: required(str()), route: required(str()), note: optional(str()),
    }))),
  })(value, path, errors);
  if (entry.level !== undefined && entry.level !== atcLevel(entry.code)) errors.push(`${path}.level: does not match the code length`);
  return entry;
};

const classEntry = object<ClassEntry>({ system: required(classSystem), code: required(str()), label: required(str()) });

const substanceEntry: Check<SubstanceEntry> = (value, path, errors) => {
  const entry = object<SubstanceEntry>({
    unii: required(str()), name: required(str()), names: optional(recordOf(str())), moiety_unii: optional(str()),
    formula: optional(str()), smiles: optional(str()), inchikey: optional(str()), rxcui: optional(str()),
    atc_codes: optional(arrayOf(atcCode)), classes: optional(arrayOf(classRef)), provisional: optional(bool),
  })(value, path, errors);
  // Only provisional entries may use a non-UNII key; a real one must pass the check character.
  if (!entry.provisional && typeof entry.unii === 'string' && !isValidUnii(entry.unii)) {
    errors.push(`${path}.unii: "${entry.unii}" is not a valid UNII (set provisional: true for a provisional key)`);
  }
  return entry;
};

const pack = object({
  key: required(str()),
  description: required(text),
  units: optional(num(0)),
  unit: optional(str()),
  identifiers: required(arrayOf(identifier)),
  prices: optional(arrayOf(object({
    amount: required(num(0)),
    currency: required(str((s) => /^[A-Z]{3}$/.test(s), 'an ISO 4217 code')),
    kind: required(oneOf(['public', 'ex_factory', 'reimbursed', 'list', 'tariff', 'group', 'list_previous', 'tariff_previous'])),
    valid_from: optional(isoDate),
  }))),
  sl: optional(object({
    listed: required(bool), public_price: optional(num(0)), ex_factory_price: optional(num(0)),
    coinsurance_percent: optional(oneOf([10, 40])),
    limitation: optional(nullable(object({ text: required(text), points: optional(num(0)) }))),
    limitations: optional(arrayOf(object({
      code: optional(str()), type: optional(str()), value: optional(num(0)), niveau: optional(str()), text: required(text),
      level: required(oneOf(['preparation', 'pack'])), valid_from: optional(isoDate),
    }))),
    flag: optional(oneOf(['G', 'O'])), listed_since: optional(isoDate),
    group_code: optional(str()), group_price: optional(num(0)),
  })),
  marketing_status: optional(status),
  reimbursement_rate_percent: optional(num(0, 100)),
  dispensing_category: optional(str()),
  narcotic_list: optional(str()),
  availability: optional(str()),
  tariff_category: optional(str()),
  quantity: optional(object({ value: required(num(0)), unit: required(str()) })),
});

const strength = { strength_value: optional(num(0)), strength_unit: optional(str()), strength_text: optional(str()) };

const productEntry = object<ProductEntry>({
  key: required(str()), country: required(oneOf([...JURISDICTIONS, 'EU'])), product_name: required(str()),
  brand: optional(str()), generic: optional(bool), atc_code: optional(atcCode), dose_form: optional(str()),
  route: optional(str()), holder: optional(str()), marketing_status: optional(status), authorised_on: optional(isoDate),
  identifiers: required(arrayOf(identifier)),
  ingredients: required(arrayOf(object({
    unii: required(str()), ...strength, moiety: optional(object({ unii: required(str()), ...strength })),
  }))),
  packs: required(arrayOf(pack)),
  monographs: optional(arrayOf(object({
    lang: required(oneOf(['de', 'fr', 'it', 'en'])), title: required(str()), sections: required(recordOf(text)),
  }))),
  classes: optional(arrayOf(classRef)),
  dispensing_category: optional(str()),
  generic_groups: optional(arrayOf(object({
    code: required(str()), label: optional(str()), role: required(oneOf(['princeps', 'generic', 'complementary', 'substitutable'])),
  }))),
  previous_names: optional(arrayOf(object({ name: required(str()), until: optional(isoDate) }))),
  additional_monitoring: optional(bool),
  authorisation_status: optional(str()),
  veterinary: optional(bool),
  assessments: optional(arrayOf(object({
    kind: required(oneOf(['smr', 'asmr'])), value: required(str()), date: optional(isoDate), text: optional(text),
    code: optional(str()), reason: optional(str()), url: optional(str((u) => /^https?:\/\//.test(u), 'an http(s) URL')),
  }))),
  attributes: optional(recordOf(scalar)),
});

const recallEntry = object<RecallEntry>({
  key: required(str()), product_key: required(str()), country: required(oneOf(JURISDICTIONS)),
  published_on: required(isoDate), reason: required(str()), level: optional(str()), pack_keys: optional(arrayOf(str())),
});

const SECTIONS = { atc: atcEntry, classes: classEntry, substances: substanceEntry, products: productEntry, recalls: recallEntry };
type Section = keyof typeof SECTIONS;

/** Natural key of an entry, to catch duplicates within a section. */
function entryKey(section: Section, entry: Record<string, unknown>): string {
  if (section === 'atc') return String(entry.code);
  if (section === 'classes') return `${String(entry.system)}|${String(entry.code)}`;
  if (section === 'substances') return String(entry.unii);
  return String(entry.key);
}

function parseJson(file: string, json: string): Record<string, unknown> {
  let root: unknown;
  try {
    root = JSON.parse(json);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message);
    const line = position ? json.slice(0, Number(position[1])).split('\n').length : 0;
    throw new FileRejectedError(file, `invalid JSON${line ? ` at line ${line}` : ''}: ${(error as Error).message}`);
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) throw new FileRejectedError(file, '$: must be a JSON object');
  return root as Record<string, unknown>;
}

function checkEnvelope(file: string, root: Record<string, unknown>): SourceInfo {
  if (root.format !== SNAPSHOT_FORMAT) throw new FileRejectedError(file, `$.format: must be "${SNAPSHOT_FORMAT}"`);
  const allowed = new Set(['format', 'source', ...Object.keys(SECTIONS)]);
  const unknown = Object.keys(root).filter((k) => !allowed.has(k));
  if (unknown.length > 0) throw new FileRejectedError(file, `$.${unknown[0]}: is not a field of this format`);
  for (const section of Object.keys(SECTIONS)) {
    if (root[section] !== undefined && !Array.isArray(root[section])) throw new FileRejectedError(file, `$.${section}: must be an array`);
  }
  const errors: string[] = [];
  const info = source(root.source, '$.source', errors);
  if (errors.length > 0) throw new FileRejectedError(file, errors.join('; '));
  return info;
}

/** Parses a JSON snapshot; malformed entries are reported with their JSON path and skipped. */
export function parseJsonSnapshot(file: string, content: Buffer): AdapterResult {
  const root = parseJson(file, decodeText(content));
  const snapshot: Snapshot = { format: SNAPSHOT_FORMAT, source: checkEnvelope(file, root) };
  const tally = new RowTally(file);
  for (const section of Object.keys(SECTIONS) as Section[]) {
    const items = root[section];
    if (!Array.isArray(items)) continue;
    const kept: unknown[] = [];
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const errors: string[] = [];
      const path = `$.${section}[${i}]`;
      const entry = SECTIONS[section](item, path, errors) as unknown as Record<string, unknown>;
      const key = errors.length === 0 ? entryKey(section, entry) : '';
      if (errors.length === 0 && seen.has(key)) errors.push(`${path}: duplicate key ${key}`);
      // One entry, one outcome: its errors are one problem, at its JSON path (the format has no lines).
      if (errors.length > 0) tally.malformedRow(0, errors.join('; '));
      else { seen.add(key); kept.push(entry); tally.keep(); }
    });
    (snapshot as unknown as Record<string, unknown>)[section] = kept;
  }
  return { snapshot, problems: tally.problems, files: [tally.report('snapshot')] };
}
