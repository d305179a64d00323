/**
 * The interaction catalogue of Norway's FEST (`KatInteraksjon` of fest251.xml, DMP's assessed
 * drug-drug interactions) as an interaction set. FEST is published under the Norwegian Licence
 * for Open Government Data (NLOD 2.0), which allows redistribution with the source named, so
 * its rules are open rows (non-commercial tier, every plan) with DMP named in the attributions.
 *
 * An `Interaksjon` has a `Relevans` grade, `KliniskKonsekvens`, `Interaksjonsmekanisme`, an
 * optional `Handtering`, a `Kildegrunnlag` and two `Substansgruppe`s whose `Substans` entries
 * name substances by ATC code. Each pair of ATC codes across the two groups is one rule;
 * substances without an ATC code (foods such as grapefruit juice) make no rule.
 */
import { FileRejectedError } from './adapters/common.ts';
import { attrOf, childOf, childrenOf, streamRecords, textOf } from './adapters/xml-records.ts';
import type { XmlElement } from './adapters/xml-records.ts';
import { INTERACTIONS_FORMAT, InteractionFileError } from './interactions-format.ts';
import type { EvidenceLevel, InteractionEntry, InteractionFile, Severity } from './interactions-format.ts';
import type { ConvertedSet, TextFile } from './interactions-csv.ts';
import type { RowProblem } from './snapshot.ts';

/** Relevans (FEST code system of interaction relevance) on the service's severity scale. */
const RELEVANS: Readonly<Record<string, Severity>> = { 1: 'major', 2: 'moderate', 3: 'minor' };
const RANK: Readonly<Record<Severity, number>> = { minor: 0, moderate: 1, major: 2, contraindicated: 3 };
const LEVEL5_OR_CLASS = /^[A-Z]\d{2}(?:[A-Z](?:[A-Z](?:\d{2})?)?)?$/;

const NLOD = 'NLOD-2.0';
const ATTRIBUTION = 'FEST, Direktoratet for medisinske produkter (DMP)';

/** The severity of a Relevans element: by code, else by its display name. */
function severityOf(relevans: XmlElement | undefined): Severity | undefined {
  const bycode = RELEVANS[attrOf(relevans, 'V')];
  if (bycode) return bycode;
  const name = attrOf(relevans, 'DN').toLowerCase();
  if (name.includes('unngå')) return 'major';
  if (name.includes('forholdsregl')) return 'moderate';
  if (name.includes('ingen tiltak')) return 'minor';
  return undefined;
}

/** Kildegrunnlag (what the assessment rests on) as an evidence level. */
function evidenceOf(kildegrunnlag: XmlElement | undefined): EvidenceLevel {
  const name = attrOf(kildegrunnlag, 'DN').toLowerCase();
  if (name.includes('studier')) return 'established';
  if (name.includes('kasuist')) return 'probable';
  if (name.includes('indirekte')) return 'theoretical';
  return 'suspected';
}

function sentence(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  return t === '' || /[.!?]$/.test(t) ? t : `${t}.`;
}

/** ATC codes of one Substansgruppe (a class of substances, or one substance). */
function codesOf(group: XmlElement): string[] {
  return childrenOf(group, 'Substans').map((s) => attrOf(childOf(s, 'Atc'), 'V').toUpperCase()).filter((c) => LEVEL5_OR_CLASS.test(c));
}

interface Folded { entries: Map<string, InteractionEntry>; merged: number }

function add(folded: Folded, a: string, b: string, entry: Omit<InteractionEntry, 'a' | 'b' | 'key'>): void {
  const [x, y] = a <= b ? [a, b] : [b, a];
  const key = `${x}~${y}`;
  const current = folded.entries.get(key);
  if (current) {
    folded.merged += 1;
    if (RANK[entry.severity] <= RANK[current.severity]) return;
  }
  folded.entries.set(key, { key, a: x, b: y, ...entry });
}

/** One Interaksjon into rules; a problem message when it cannot be used. */
function readInteraction(i: XmlElement, folded: Folded): string | null {
  const severity = severityOf(childOf(i, 'Relevans'));
  if (!severity) return `Relevans "${attrOf(childOf(i, 'Relevans'), 'V')}" (${attrOf(childOf(i, 'Relevans'), 'DN')}) is not a known grade`;
  const groups = childrenOf(i, 'Substansgruppe').map(codesOf);
  if (groups.length !== 2) return `expected two Substansgruppe, got ${groups.length}`;
  const [left, right] = groups as [string[], string[]];
  if (left.length === 0 || right.length === 0) return 'a Substansgruppe names no substance with an ATC code';
  const consequence = textOf(i, 'KliniskKonsekvens');
  if (consequence === '') return 'no KliniskKonsekvens text';
  const description = [sentence(consequence), sentence(textOf(i, 'Interaksjonsmekanisme')), sentence(textOf(i, 'Handtering'))]
    .filter(Boolean).join(' ') + ` (FEST: ${attrOf(childOf(i, 'Relevans'), 'DN') || severity})`;
  const evidence = evidenceOf(childOf(i, 'Kildegrunnlag'));
  for (const a of left) for (const b of right) if (a !== b) add(folded, a, b, { severity, evidence, description });
  return null;
}

/** The FEST interaction set of one or more FEST documents; unusable entries are reported, not fatal. */
export function readFestInteractions(files: readonly TextFile[]): ConvertedSet {
  const problems: RowProblem[] = [];
  const folded: Folded = { entries: new Map(), merged: 0 };
  let read = 0;
  for (const file of files) {
    try {
      streamRecords(file.name, Buffer.from(file.text, 'utf8'), {
        roots: ['FEST'],
        records: ['KatInteraksjon/OppfInteraksjon'],
        onRecord(_path, oppf, line) {
          read += 1;
          const interaction = childOf(oppf, 'Interaksjon');
          const problem = interaction ? readInteraction(interaction, folded) : 'OppfInteraksjon without <Interaksjon>';
          if (problem) problems.push({ file: file.name, line, message: problem });
        },
      });
    } catch (error) {
      if (error instanceof FileRejectedError) throw new InteractionFileError(error.message);
      throw error;
    }
  }
  const interactions = [...folded.entries.values()];
  const set: InteractionFile = {
    format: INTERACTIONS_FORMAT,
    source: { id: 'no-fest-interactions', name: 'FEST interaksjoner (Direktoratet for medisinske produkter)', refresh_interval_hours: 24 * 20, url: 'https://www.dmp.no/om-oss/distribusjon-av-legemiddeldata/fest/' },
    licences: { [NLOD]: { name: 'Norsk lisens for offentlige data (NLOD) 2.0', url: 'https://data.norge.no/nlod/no/2.0', commercial: false } },
    defaults: { licence: NLOD, attributions: [ATTRIBUTION] },
    interactions,
  };
  return { file: set, problems, rows: { read, rules: interactions.length, merged: folded.merged } };
}
