/**
 * The interaction file format ("drugref-interactions/1"): the service's reviewed interaction
 * table as JSON, so a licensed data set can replace the bundled demonstration set. Documented
 * for users in docs/interactions.md; keep both in step.
 *
 * Each entry is one ATC-pair rule (level-5 codes for substances, shorter codes for a whole
 * class). Its `licence` decides where it is stored: a non-commercial licence gives an open
 * row (severity, description, evidence, licence, attributions); a commercial licence gives a
 * licensed row, which must also carry `mechanism` and `management`. An open entry may add a
 * `licensed` block: a second, commercially licensed row for the same pair with those texts.
 */

export const INTERACTIONS_FORMAT = 'drugref-interactions/1';
export const SEVERITIES = ['contraindicated', 'major', 'moderate', 'minor'] as const;
export const EVIDENCE_LEVELS = ['established', 'probable', 'suspected', 'theoretical'] as const;
export type Severity = (typeof SEVERITIES)[number];
export type EvidenceLevel = (typeof EVIDENCE_LEVELS)[number];

/** ATC code of any level: A, A10, A10B, A10BA, A10BA02. */
const ATC_ANY = /^[A-Z](\d{2}([A-Z]([A-Z](\d{2})?)?)?)?$/;

export interface LicenceInfo {
  name: string;
  url?: string;
  commercial: boolean;
}

/** A drug of the rule as the data set identifies it (DDInter's `DDInter1913`), with the ATC code it was matched to. */
export interface CrossReference {
  system: string;
  code: string;
  atc: string;
  name?: string;
}

export interface InteractionEntry {
  key?: string;
  a: string;
  b: string;
  severity: Severity;
  evidence: EvidenceLevel;
  description: string;
  licence?: string;
  attributions?: string[];
  mechanism?: string;
  management?: string;
  licensed?: { licence?: string; attributions?: string[]; mechanism: string; management: string };
  /** The set's own ids of the two drugs (open facts, on every row of the pair). */
  cross_references?: CrossReference[];
  /** The kind of interaction where the set classifies it (`pharmacokinetic`, `pharmacodynamic` ...): a label, not a licensed text. */
  interaction_type?: string;
}

export interface InteractionFile {
  format: typeof INTERACTIONS_FORMAT;
  source: { id: string; name: string; refresh_interval_hours: number; url?: string; demo?: boolean };
  licences: Record<string, LicenceInfo>;
  defaults?: { licence?: string; attributions?: string[]; licensed?: { licence?: string; attributions?: string[] } };
  interactions: InteractionEntry[];
}

/** One stored row, open or licensed, as the loader writes it. */
export interface RuleRow {
  natural_key: string;
  a_code: string;
  b_code: string;
  severity: Severity;
  evidence: EvidenceLevel;
  description: string;
  licence: string;
  attributions: string[];
  mechanism?: string;
  management?: string;
  cross_references?: CrossReference[];
  interaction_type?: string;
}

/** A refused interaction file; nothing is written. */
export class InteractionFileError extends Error {}

function fail(where: string, message: string): never {
  throw new InteractionFileError(`${where}: ${message}`);
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '') fail(where, 'must be a non-empty string');
  return value.trim();
}

function strings(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || value.length === 0) fail(where, 'must be a non-empty array of strings');
  return value.map((v, i) => text(v, `${where}[${i}]`));
}

function crossReferences(value: unknown, where: string): CrossReference[] {
  if (!Array.isArray(value)) fail(where, 'must be an array of { system, code, atc, name? }');
  return value.map((v: Partial<CrossReference>, i) => {
    const atc = text(v?.atc, `${where}[${i}].atc`).toUpperCase();
    if (!ATC_ANY.test(atc)) fail(`${where}[${i}].atc`, `"${atc}" is not an ATC code`);
    const ref: CrossReference = { system: text(v.system, `${where}[${i}].system`), code: text(v.code, `${where}[${i}].code`), atc };
    if (v.name !== undefined) ref.name = text(v.name, `${where}[${i}].name`);
    return ref;
  });
}

function checkHeader(file: InteractionFile): void {
  if (file?.format !== INTERACTIONS_FORMAT) fail('format', `must be "${INTERACTIONS_FORMAT}"`);
  text(file.source?.id, 'source.id');
  text(file.source?.name, 'source.name');
  if (!Number.isInteger(file.source.refresh_interval_hours) || file.source.refresh_interval_hours <= 0) {
    fail('source.refresh_interval_hours', 'must be a positive integer');
  }
  if (!file.licences || typeof file.licences !== 'object') fail('licences', 'must map licence ids to { name, commercial }');
  for (const [id, licence] of Object.entries(file.licences)) {
    text(licence?.name, `licences.${id}.name`);
    if (typeof licence.commercial !== 'boolean') fail(`licences.${id}.commercial`, 'must be true or false');
  }
  if (!Array.isArray(file.interactions)) fail('interactions', 'must be an array');
}

/** Orders the pair so (a, b) and (b, a) are one rule. */
function sortedPair(a: string, b: string): [string, string] {
  return a <= b ? [a, b] : [b, a];
}

function licenceOf(file: InteractionFile, id: string | undefined, where: string, commercial: boolean): string {
  if (!id) fail(where, 'no licence given and no default');
  const licence = file.licences[id];
  if (!licence) fail(where, `licence "${id}" is not declared in licences`);
  if (licence.commercial !== commercial) {
    fail(where, commercial ? `licence "${id}" is not commercial; licensed rows need a commercial licence` : `licence "${id}" is commercial; mechanism and management are required`);
  }
  return id;
}

function entryRows(file: InteractionFile, entry: InteractionEntry, where: string): RuleRow[] {
  const [a, b] = sortedPair(text(entry.a, `${where}.a`).toUpperCase(), text(entry.b, `${where}.b`).toUpperCase());
  for (const code of [a, b]) if (!ATC_ANY.test(code)) fail(where, `"${code}" is not an ATC code`);
  if (a === b) fail(where, 'a and b are the same code');
  if (!(SEVERITIES as readonly string[]).includes(entry.severity)) fail(`${where}.severity`, `must be one of ${SEVERITIES.join(', ')}`);
  if (!(EVIDENCE_LEVELS as readonly string[]).includes(entry.evidence)) fail(`${where}.evidence`, `must be one of ${EVIDENCE_LEVELS.join(', ')}`);
  const base = {
    natural_key: entry.key ? text(entry.key, `${where}.key`) : `${a}~${b}`,
    a_code: a, b_code: b, severity: entry.severity, evidence: entry.evidence,
    description: text(entry.description, `${where}.description`),
    ...(entry.cross_references !== undefined ? { cross_references: crossReferences(entry.cross_references, `${where}.cross_references`) } : {}),
    ...(entry.interaction_type !== undefined ? { interaction_type: text(entry.interaction_type, `${where}.interaction_type`) } : {}),
  };
  const licenceId = entry.licence ?? file.defaults?.licence;
  const commercial = licenceId !== undefined && file.licences[licenceId]?.commercial === true;
  const attributions = strings(entry.attributions ?? file.defaults?.attributions, `${where}.attributions`);
  if (commercial) {
    return [{ ...base, licence: licenceOf(file, licenceId, `${where}.licence`, true), attributions,
      mechanism: text(entry.mechanism, `${where}.mechanism`), management: text(entry.management, `${where}.management`) }];
  }
  if (entry.mechanism !== undefined || entry.management !== undefined) fail(where, 'mechanism and management belong in a commercially licensed row (use `licensed`)');
  const rows: RuleRow[] = [{ ...base, licence: licenceOf(file, licenceId, `${where}.licence`, false), attributions }];
  if (entry.licensed) {
    const extra = entry.licensed;
    rows.push({
      ...base,
      licence: licenceOf(file, extra.licence ?? file.defaults?.licensed?.licence, `${where}.licensed.licence`, true),
      attributions: strings(extra.attributions ?? file.defaults?.licensed?.attributions, `${where}.licensed.attributions`),
      mechanism: text(extra.mechanism, `${where}.licensed.mechanism`),
      management: text(extra.management, `${where}.licensed.management`),
    });
  }
  return rows;
}

/** Validates a parsed file and splits it into open and licensed rows; throws InteractionFileError. */
export function readInteractionFile(value: unknown): { file: InteractionFile; open: RuleRow[]; licensed: RuleRow[] } {
  const file = value as InteractionFile;
  checkHeader(file);
  const open: RuleRow[] = [];
  const licensed: RuleRow[] = [];
  const seen = new Set<string>();
  file.interactions.forEach((entry, i) => {
    for (const row of entryRows(file, entry, `interactions[${i}]`)) {
      const target = row.mechanism === undefined ? open : licensed;
      const id = `${target === open ? 'open' : 'licensed'}:${row.natural_key}`;
      if (seen.has(id)) fail(`interactions[${i}]`, `key "${row.natural_key}" appears twice`);
      seen.add(id);
      target.push(row);
    }
  });
  return { file, open, licensed };
}
