/**
 * POST /v1/prescriptions/validate: screens proposed drugs against current medications and
 * coarse, non-identifying context (age band, sex, pregnancy, eGFR band, conditions,
 * allergies). Reasons: interactions (the service's own table, licensed texts included since
 * the route needs interactions:write), allergy and class-allergy hits, pregnancy, renal,
 * condition, age and sex cautions, and duplicate therapy (same ATC level 4). The decision is
 * the worst reason: `contraindicated`, `caution`, or `ok`. Nothing of the body is stored.
 */
import { validationError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { interactionMeta, interactionsOf } from '../interactions/check.ts';
import type { InteractionRow } from '../interactions/check.ts';
import { resolveReferences } from '../interactions/references.ts';
import type { DrugReference, ResolvedReference } from '../interactions/references.ts';
import { AGE_RULES, CONDITION_RULES, PREGNANCY_RULES, RENAL_RULES, SEX_RULES } from './cautions.ts';
import type { CautionRule, Level } from './cautions.ts';
import { refusePhi } from './phi.ts';

export const MAX_PROPOSED = 10;
export const MAX_CURRENT = 50;

export interface ScreeningContext {
  ageBand?: string;
  sex?: string;
  pregnancy?: string;
  egfrBand?: string;
  conditions?: string[];
  allergies?: DrugReference[];
}

export interface Reason {
  kind: 'interaction' | 'allergy' | 'class_allergy' | 'pregnancy' | 'renal' | 'condition' | 'age' | 'sex' | 'duplicate_therapy' | 'unresolved';
  level: Level | 'info';
  /** Index in `proposed` of the drug the reason is about. */
  proposedIndex: number;
  atcCode: string | null;
  message: string;
  /** What the drug met: an ATC code, a current-medication index, an allergy index ... */
  related: string | null;
}

const LEVEL_OF_SEVERITY: Record<string, Reason['level']> = { contraindicated: 'contraindicated', major: 'caution', moderate: 'caution', minor: 'info' };

/** Allergy and class-allergy hits; cross-reactive groups beyond ATC level 4 are listed here. */
const CROSS_REACTIVE: Array<{ allergy: string; drug: string; level: Level; message: string }> = [
  { allergy: 'J01C', drug: 'J01C', level: 'contraindicated', message: 'Penicillin allergy: all penicillins cross-react.' },
  { allergy: 'J01C', drug: 'J01D', level: 'caution', message: 'Penicillin allergy: cephalosporins cross-react in a small proportion (higher with similar side chains, e.g. amoxicillin and cefalexin).' },
  { allergy: 'N02BA01', drug: 'M01A', level: 'caution', message: 'Aspirin hypersensitivity: NSAIDs can cross-react (NSAID-exacerbated respiratory disease, urticaria).' },
  { allergy: 'B01AC06', drug: 'M01A', level: 'caution', message: 'Aspirin hypersensitivity: NSAIDs can cross-react (NSAID-exacerbated respiratory disease, urticaria).' },
];

function allergyReasons(proposed: ResolvedReference, allergies: readonly ResolvedReference[]): Reason[] {
  const out: Reason[] = [];
  const base = { proposedIndex: proposed.index } as const;
  for (const allergy of allergies) {
    const related = `allergies[${allergy.index}]`;
    const sameMoiety = proposed.substances.some((s) => allergy.substances.some((a) => a.unii === s.unii));
    if (sameMoiety) { out.push({ ...base, kind: 'allergy', level: 'contraindicated', atcCode: proposed.atcCodes[0] ?? null, message: `Documented allergy to ${allergy.label ?? allergy.reference}.`, related }); continue; }
    for (const code of proposed.atcCodes) {
      const hit = allergy.atcCodes.find((a) => (a.length < 7 ? code.startsWith(a) : a.slice(0, 5) === code.slice(0, 5)));
      if (hit) { out.push({ ...base, kind: 'class_allergy', level: 'contraindicated', atcCode: code, message: `Allergy to ${allergy.label ?? hit} (same class ${hit.length < 7 ? hit : hit.slice(0, 5)}).`, related }); continue; }
      const cross = CROSS_REACTIVE.find((c) => code.startsWith(c.drug) && allergy.atcCodes.some((a) => a.startsWith(c.allergy) || c.allergy.startsWith(a)));
      if (cross) out.push({ ...base, kind: 'class_allergy', level: cross.level, atcCode: code, message: cross.message, related });
    }
  }
  return out;
}

function ruleReasons(kind: Reason['kind'], drug: ResolvedReference, rules: readonly CautionRule[]): Reason[] {
  return drug.atcCodes.flatMap((code) => rules.filter((r) => code.startsWith(r.atc))
    .map((r): Reason => ({ kind, level: r.level, proposedIndex: drug.index, atcCode: code, message: r.message, related: r.atc })));
}

function contextReasons(drug: ResolvedReference, c: ScreeningContext): Reason[] {
  return [
    ...(c.pregnancy === 'pregnant' ? ruleReasons('pregnancy', drug, PREGNANCY_RULES) : []),
    ...(c.egfrBand ? ruleReasons('renal', drug, RENAL_RULES.filter((r) => r.bands.includes(c.egfrBand as never))) : []),
    ...ruleReasons('condition', drug, CONDITION_RULES.filter((r) => c.conditions?.includes(r.condition))),
    ...(c.ageBand ? ruleReasons('age', drug, AGE_RULES.filter((r) => r.bands.includes(c.ageBand as never))) : []),
    ...(c.sex ? ruleReasons('sex', drug, SEX_RULES.filter((r) => r.sex === c.sex)) : []),
  ];
}

/** Same ATC level 4 between a proposed drug and any other drug (current, or another proposed). */
function duplicateReasons(drug: ResolvedReference, others: readonly ResolvedReference[], proposedCount: number): Reason[] {
  const out: Reason[] = [];
  for (const other of others) {
    if (other.index === drug.index || (other.index < proposedCount && other.index < drug.index)) continue;
    const shared = drug.atcCodes.find((code) => other.atcCodes.some((o) => o.slice(0, 5) === code.slice(0, 5)));
    if (!shared) continue;
    const related = other.index < proposedCount ? `proposed[${other.index}]` : `current[${other.index - proposedCount}]`;
    out.push({ kind: 'duplicate_therapy', level: 'caution', proposedIndex: drug.index, atcCode: shared,
      message: `Duplicate therapy: ${other.label ?? other.reference} is in the same ATC group ${shared.slice(0, 5)}.`, related });
  }
  return out;
}

function interactionReasons(rows: readonly InteractionRow[], proposedCount: number): Reason[] {
  return rows.filter((r) => !r.commercial).flatMap((row) => {
    const [left, right] = row.inputs;
    const side = left.find((i) => i < proposedCount) !== undefined ? 0 : 1;
    const proposedIndex = (side === 0 ? left : right).find((i) => i < proposedCount)!;
    const other = (side === 0 ? right : left)[0]!;
    return [{ kind: 'interaction' as const, level: LEVEL_OF_SEVERITY[row.severity] ?? 'caution', proposedIndex, atcCode: row.atcCodes[side]!,
      message: row.description, related: other < proposedCount ? `proposed[${other}]` : `current[${other - proposedCount}]` }];
  });
}

function decisionOf(reasons: readonly Reason[]): 'ok' | 'caution' | 'contraindicated' {
  if (reasons.some((r) => r.level === 'contraindicated')) return 'contraindicated';
  return reasons.some((r) => r.level === 'caution') ? 'caution' : 'ok';
}

function checkSizes(proposed: unknown[], current: unknown[]): void {
  if (proposed.length < 1 || proposed.length > MAX_PROPOSED || current.length > MAX_CURRENT) {
    throw validationError(`Invalid request: proposed needs 1 to ${MAX_PROPOSED} drugs and current at most ${MAX_CURRENT}.`, [
      { location: 'body', field: proposed.length < 1 || proposed.length > MAX_PROPOSED ? 'proposed' : 'current', message: 'has the wrong number of items' },
    ]);
  }
}

/** Screens a prescription; the body was already screened for identifying fields by the route. */
export async function validatePrescription(ctx: RequestContext, proposed: DrugReference[], current: DrugReference[] = [], context: ScreeningContext = {}) {
  refusePhi({ proposed, current, context });
  checkSizes(proposed, current);
  const [drugs, allergies] = await Promise.all([
    resolveReferences(ctx.db, [...proposed, ...current]),
    resolveReferences(ctx.db, context.allergies ?? [], { allowClasses: true }),
  ]);
  const { rows } = await interactionsOf(ctx, drugs, { meter: false });
  const relevant = rows.filter((r) => r.inputs.some((side) => side.some((i) => i < proposed.length)));
  const proposedDrugs = drugs.slice(0, proposed.length);
  const reasons: Reason[] = [
    ...interactionReasons(relevant, proposed.length),
    ...proposedDrugs.flatMap((d) => [...allergyReasons(d, allergies), ...contextReasons(d, context), ...duplicateReasons(d, drugs, proposed.length)]),
    ...drugs.filter((d) => !d.resolved).map((d): Reason => ({ kind: 'unresolved', level: 'caution', proposedIndex: d.index < proposed.length ? d.index : -1, atcCode: null,
      message: `${d.index < proposed.length ? `proposed[${d.index}]` : `current[${d.index - proposed.length}]`} could not be resolved and was not screened.`, related: null })),
    ...allergies.filter((a) => !a.resolved).map((a): Reason => ({ kind: 'unresolved', level: 'caution', proposedIndex: -1, atcCode: null,
      message: `allergies[${a.index}] could not be resolved, so it was not checked.`, related: `allergies[${a.index}]` })),
  ];
  return {
    decision: decisionOf(reasons),
    reasons,
    proposed: proposedDrugs,
    current: drugs.slice(proposed.length).map((d) => ({ ...d, index: d.index - proposed.length })),
    allergies,
    interactions: relevant,
    meta: await interactionMeta(ctx),
  };
}
