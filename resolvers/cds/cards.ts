/**
 * CDS Hooks cards from a prescription screening: one card per finding. Indicators follow
 * drugref's severities (docs/cds-hooks.md "Cards"): contraindicated → critical; major and
 * moderate → warning; minor → info; duplicate therapy → warning; orders whose codes drugref
 * does not recognise → one info card naming the codes. Summaries stay under 140 characters;
 * details are GitHub-flavoured Markdown; the source names the data set's licence(s), and the
 * detail carries every licence and attribution of the rows behind the card.
 */
import { randomUUID } from 'node:crypto';
import type { InteractionRow } from '../interactions/check.ts';
import type { ResolvedReference } from '../interactions/references.ts';
import type { Alternative } from './alternatives.ts';
import { codingText } from './medications.ts';
import type { UnrecognisedOrder } from './resolve.ts';

export type Indicator = 'info' | 'warning' | 'critical';

/** drugref interaction severity → CDS Hooks indicator. */
export const INDICATOR_OF_SEVERITY: Record<string, Indicator> = { contraindicated: 'critical', major: 'warning', moderate: 'warning', minor: 'info' };
/** Prescription screening reason level → indicator (duplicate therapy is `caution`). */
export const INDICATOR_OF_LEVEL: Record<string, Indicator> = { contraindicated: 'critical', caution: 'warning', info: 'info' };

export const TOPIC_SYSTEM = 'urn:drugref:cds:topic';
export const OVERRIDE_SYSTEM = 'urn:drugref:cds:override-reason';
const ATC_SYSTEM = 'http://www.whocc.no/atc';
const RXNORM_SYSTEM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

/** Reasons a clinician may give for going ahead (CDS Hooks overrideReasons, display required). */
export const OVERRIDE_REASONS = [
  { system: OVERRIDE_SYSTEM, code: 'benefit-outweighs-risk', display: 'Benefit outweighs the risk' },
  { system: OVERRIDE_SYSTEM, code: 'monitoring-planned', display: 'Will monitor the patient' },
  { system: OVERRIDE_SYSTEM, code: 'already-tolerated', display: 'Combination already tolerated' },
] as const;

export interface CdsAction { type: 'create' | 'delete'; description: string; resource?: Record<string, unknown>; resourceId?: string }
export interface CdsSuggestion { label: string; uuid: string; isRecommended: boolean; actions: CdsAction[] }
export interface CdsCard {
  uuid: string;
  summary: string;
  detail: string;
  indicator: Indicator;
  source: { label: string; url?: string; topic: { system: string; code: string; display: string } };
  suggestions?: CdsSuggestion[];
  selectionBehavior?: 'at-most-one';
  overrideReasons?: ReadonlyArray<{ system: string; code: string; display: string }>;
}

/** A licence of the interaction table, as interaction_licences holds it. */
export interface Licence { id: string; name: string; url: string | null }

/** One drug of a finding: its label and where it stands in the request. */
export interface Party { label: string; role: 'draft' | 'pending' | 'active'; resourceId: string | null; drug: ResolvedReference }

const ROLE_TEXT = { draft: 'draft order', pending: 'other draft order', active: 'active medication' } as const;

/** At most 139 characters, cut at a word where possible. */
export function summaryOf(text: string): string {
  if (text.length < 140) return text;
  const cut = text.slice(0, 138);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 100))}…`;
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Replace with X" (delete the draft, create an order of X) and "remove the draft" suggestions. */
export function suggestionsFor(draft: Party, alternatives: readonly Alternative[]): CdsSuggestion[] {
  if (!draft.resourceId) return [];
  const remove: CdsAction = { type: 'delete', description: `Remove the draft order of ${draft.label}.`, resourceId: draft.resourceId };
  const replacements = alternatives.map((alt): CdsSuggestion => ({
    label: `Consider ${alt.name} instead of ${draft.label}`,
    uuid: randomUUID(),
    isRecommended: false,
    actions: [remove, {
      type: 'create',
      description: `Create a draft order of ${alt.name} (${alt.atcCode}); drugref's table holds no interaction of it with the other medications. Dose and form are for the prescriber.`,
      resource: {
        resourceType: 'MedicationRequest', status: 'draft', intent: 'order',
        medicationCodeableConcept: {
          coding: [{ system: ATC_SYSTEM, code: alt.atcCode, display: alt.name }, ...(alt.rxcui ? [{ system: RXNORM_SYSTEM, code: alt.rxcui, display: alt.name }] : [])],
          text: alt.name,
        },
      },
    }],
  }));
  return [...replacements, { label: `Remove the draft order of ${draft.label}`, uuid: randomUUID(), isRecommended: false, actions: [remove] }];
}

function withSuggestions(card: CdsCard, suggestions: CdsSuggestion[]): CdsCard {
  return suggestions.length ? { ...card, suggestions, selectionBehavior: 'at-most-one' } : card;
}

function licenceLines(rows: readonly InteractionRow[], licences: ReadonlyMap<string, Licence>): string[] {
  return rows.map((row) => {
    const licence = licences.get(row.licence);
    const name = licence ? (licence.url ? `[${licence.name}](${licence.url})` : licence.name) : row.licence;
    const kind = row.commercial ? 'mechanism and management, commercially licensed' : 'interaction';
    return `- ${capitalised(kind)}: ${name}. ${row.attributions.join(' ')}`.trim();
  });
}

/** The card of one interacting pair: its open row and, where delivered, the licensed companion. */
export function interactionCard(rows: readonly InteractionRow[], draft: Party, other: Party, licences: ReadonlyMap<string, Licence>, alternatives: readonly Alternative[]): CdsCard {
  const open = rows.find((r) => !r.commercial) ?? rows[0]!;
  const licensed = rows.find((r) => r.commercial);
  const severity = open.severity;
  const lead = severity === 'contraindicated' ? 'Contraindicated' : `${capitalised(severity)} interaction`;
  const detail = [
    `**${open.description || licensed?.description || 'Interaction'}**`,
    '',
    `- Severity: ${severity} (evidence: ${open.evidence})`,
    `- ${capitalised(draft.label)} (${ROLE_TEXT[draft.role]}, ATC ${open.atcCodes.find((c) => draft.drug.atcCodes.includes(c)) ?? draft.drug.atcCodes.join(', ')}) with ${other.label} (${ROLE_TEXT[other.role]})`,
    ...(licensed?.mechanism ? ['', `**Mechanism.** ${licensed.mechanism}`] : []),
    ...(licensed?.management ? ['', `**Management.** ${licensed.management}`] : []),
    '', '**Sources**', ...licenceLines(rows, licences),
  ].join('\n');
  const primary = licences.get(open.licence);
  return withSuggestions({
    uuid: randomUUID(),
    summary: summaryOf(`${lead}: ${draft.label} with ${other.label}`),
    detail,
    indicator: INDICATOR_OF_SEVERITY[severity] ?? 'warning',
    source: {
      label: `drugref interaction table (${[...new Set(rows.map((r) => r.licence))].join(', ')})`,
      ...(primary?.url ? { url: primary.url } : {}),
      topic: { system: TOPIC_SYSTEM, code: 'drug-interaction', display: 'Drug-drug interaction' },
    },
    overrideReasons: OVERRIDE_REASONS,
  }, suggestionsFor(draft, alternatives));
}

/** The card of a duplicate therapy (two drugs of one ATC level-4 group). */
export function duplicateCard(draft: Party, other: Party, group: string): CdsCard {
  return withSuggestions({
    uuid: randomUUID(),
    summary: summaryOf(`Duplicate therapy: ${draft.label} and ${other.label} are both in ATC group ${group}`),
    detail: [
      `**${capitalised(draft.label)}** (${ROLE_TEXT[draft.role]}) and **${other.label}** (${ROLE_TEXT[other.role]}) belong to the same therapeutic group, ATC ${group}.`,
      '', 'Check that both are intended.', '',
      '**Sources**', '- Grouping: WHO ATC classification (WHO Collaborating Centre for Drug Statistics Methodology), as held by drugref.',
    ].join('\n'),
    indicator: 'warning',
    source: { label: 'drugref (WHO ATC classification)', url: 'https://atcddd.fhi.no/', topic: { system: TOPIC_SYSTEM, code: 'duplicate-therapy', display: 'Duplicate therapy' } },
    overrideReasons: OVERRIDE_REASONS,
  }, suggestionsFor(draft, []));
}

/** One info card listing the orders none of whose codes drugref recognises (not an error). */
export function unrecognisedCard(orders: readonly UnrecognisedOrder[]): CdsCard {
  const lines = orders.slice(0, 20).map(({ order, reason }) => {
    const codes = order.codings.length ? order.codings.slice(0, 5).map((c) => `\`${codingText(c)}\``).join(', ') : 'no code';
    return `- ${capitalised(ROLE_TEXT[order.role])}${order.resourceId ? ` ${order.resourceId}` : ''}: ${codes} (${reason})`;
  });
  const n = orders.length;
  return {
    uuid: randomUUID(),
    summary: summaryOf(`${n} medication order${n === 1 ? '' : 's'} not recognised by drugref and not screened`),
    detail: ['These orders were **not** checked for interactions; their codes match nothing drugref knows.', '', ...lines,
      ...(orders.length > 20 ? [`- … and ${orders.length - 20} more`] : []),
      '', 'drugref reads RxNorm, ATC (level 5), GTIN, NDC, PZN, CIP, CIS and dm+d/SNOMED codes.'].join('\n'),
    indicator: 'info',
    source: { label: 'drugref', topic: { system: TOPIC_SYSTEM, code: 'unrecognised-codes', display: 'Medication codes not recognised' } },
  };
}
