/**
 * POST /cds-services/{id}: one CDS Hooks call. The request is screened for identifying
 * content (again here, so every facade refuses alike), its medication orders are read and
 * resolved (medications.ts, resolve.ts), the drafts are screened against the other orders
 * and the active medications by drugref's own prescription screening (`validatePrescription`:
 * interaction table, duplicate therapy), and each finding becomes a card (cards.ts). Nothing
 * of the request is stored or logged; the answer's receipt attests it.
 */
import { validationError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import type { InteractionRow } from '../interactions/check.ts';
import { interactionMeta } from '../interactions/check.ts';
import type { DrugReference } from '../interactions/references.ts';
import { MAX_CURRENT, MAX_PROPOSED, validatePrescription } from '../prescriptions/validate.ts';
import { alternativesFor } from './alternatives.ts';
import type { Alternative } from './alternatives.ts';
import { duplicateCard, interactionCard, unrecognisedCard } from './cards.ts';
import type { CdsCard, Licence, Party } from './cards.ts';
import { orderedMedications } from './medications.ts';
import { resolveOrders } from './resolve.ts';
import type { ScreenedOrder } from './resolve.ts';
import { cdsService, MEDICATIONS_PREFETCH } from './services.ts';
import { screenCdsRequest } from './screen.ts';

type Json = Record<string, unknown>;
type Assessment = Awaited<ReturnType<typeof validatePrescription>>;

/** Interaction cards that look for alternatives (each costs two small queries). */
const MAX_ALTERNATIVE_SEARCHES = 5;

/** The answer before the facade shapes it: cards, the overall decision and provenance. */
export interface HookAnswer {
  cards: CdsCard[];
  decision: 'ok' | 'caution' | 'contraindicated';
  meta: unknown;
}

function checkRequest(hook: string, request: Json): string[] | undefined {
  if (request.hook !== hook) {
    throw validationError(`Invalid request: this service answers the ${hook} hook.`, [{ location: 'body', field: 'hook', message: `must be ${hook}` }]);
  }
  const context = request.context as Json;
  if (hook !== 'order-select') return undefined;
  if (!Array.isArray(context.selections)) {
    throw validationError('Invalid request: order-select needs context.selections.', [{ location: 'body', field: 'context.selections', message: 'is required for order-select' }]);
  }
  return context.selections as string[];
}

/** Flat reference lists for the screening, with the order behind each position. */
function screeningInputs(screened: readonly ScreenedOrder[]) {
  const drafts = screened.filter((s) => s.order.role === 'draft');
  const others = screened.filter((s) => s.order.role !== 'draft');
  const owners = [...drafts, ...others].flatMap((s) => s.refs.map(() => s));
  const proposed: DrugReference[] = drafts.flatMap((s) => s.refs);
  const current: DrugReference[] = others.flatMap((s) => s.refs);
  if (proposed.length > MAX_PROPOSED || current.length > MAX_CURRENT) {
    const field = proposed.length > MAX_PROPOSED ? 'context.draftOrders' : `prefetch.${MEDICATIONS_PREFETCH}`;
    throw validationError(`Invalid request: at most ${MAX_PROPOSED} drugs can be decided and ${MAX_CURRENT} current drugs screened in one call.`, [{ location: 'body', field, message: 'holds too many medications' }]);
  }
  return { proposed, current, owners };
}

async function licencesOf(ctx: RequestContext, rows: readonly InteractionRow[]): Promise<Map<string, Licence>> {
  const ids = [...new Set(rows.map((r) => r.licence))];
  if (!ids.length) return new Map();
  const { rows: found } = await ctx.db.query<Licence>('SELECT id, name, url FROM interaction_licences WHERE id = ANY($1)', [ids]);
  return new Map(found.map((l) => [l.id, l]));
}

/** Cards of one screening: interactions (with alternatives) first, then duplicate therapy. */
async function findingCards(ctx: RequestContext, assessment: Assessment, owners: readonly ScreenedOrder[]): Promise<CdsCard[]> {
  const P = assessment.proposed.length;
  const drugs = [...assessment.proposed, ...assessment.current.map((d) => ({ ...d, index: d.index + P }))];
  const party = (i: number): Party => ({ label: drugs[i]!.label ?? drugs[i]!.reference, role: owners[i]!.order.role, resourceId: owners[i]!.order.resourceId, drug: drugs[i]! });
  const groups = new Map<string, InteractionRow[]>();
  for (const row of assessment.interactions) groups.set(row.atcCodes.join('~'), [...(groups.get(row.atcCodes.join('~')) ?? []), row]);
  const licences = await licencesOf(ctx, assessment.interactions);
  const cards: CdsCard[] = [];
  let searches = 0;
  for (const rows of groups.values()) {
    const [left, right] = rows[0]!.inputs;
    const side = left.some((i) => i < P) ? 0 : 1;
    const d = (side === 0 ? left : right).find((i) => i < P)!;
    const o = (side === 0 ? right : left)[0]!;
    if (owners[d] === owners[o]) continue; // two ingredients of one RxNorm combination
    const otherCodes = drugs.filter((_, i) => owners[i] !== owners[d]).flatMap((x) => x.atcCodes);
    const alternatives: Alternative[] = searches++ < MAX_ALTERNATIVE_SEARCHES
      ? await alternativesFor(ctx.db, rows[0]!.atcCodes[side]!, drugs[d]!.substances.map((s) => s.unii), [...new Set(otherCodes)]) : [];
    cards.push(interactionCard(rows, party(d), party(o), licences, alternatives));
  }
  for (const reason of assessment.reasons.filter((r) => r.kind === 'duplicate_therapy')) {
    const m = /^(proposed|current)\[(\d+)\]$/.exec(reason.related ?? '');
    if (!m) continue;
    const o = m[1] === 'proposed' ? Number(m[2]) : Number(m[2]) + P;
    if (owners[reason.proposedIndex] === owners[o]) continue;
    cards.push(duplicateCard(party(reason.proposedIndex), party(o), reason.atcCode!.slice(0, 5)));
  }
  return cards;
}

function decisionOf(cards: readonly CdsCard[], unrecognised: number): HookAnswer['decision'] {
  if (cards.some((c) => c.indicator === 'critical')) return 'contraindicated';
  return cards.some((c) => c.indicator === 'warning') || unrecognised > 0 ? 'caution' : 'ok';
}

/** Answers one call of service `serviceId`. */
export async function answerHook(ctx: RequestContext, serviceId: string, request: unknown): Promise<HookAnswer> {
  screenCdsRequest(request, { id: serviceId });
  const service = cdsService(serviceId);
  if (!request || typeof request !== 'object' || typeof (request as Json).context !== 'object') {
    throw validationError('Invalid request: not a CDS Hooks request.', [{ location: 'body', field: 'context', message: 'is required' }]);
  }
  const body = request as Json;
  const selections = checkRequest(service.hook, body);
  const prefetch = (body.prefetch ?? {}) as Json;
  const orders = orderedMedications((body.context as Json).draftOrders, prefetch[MEDICATIONS_PREFETCH], selections);
  const { screened, unrecognised } = await resolveOrders(ctx, orders);
  const { proposed, current, owners } = screeningInputs(screened);
  const cards: CdsCard[] = [];
  let meta: unknown;
  if (proposed.length) {
    const assessment = await validatePrescription(ctx, proposed, current, {});
    cards.push(...await findingCards(ctx, assessment, owners));
    meta = assessment.meta;
  } else {
    meta = await interactionMeta(ctx);
  }
  if (unrecognised.length) cards.push(unrecognisedCard(unrecognised));
  return { cards, decision: decisionOf(cards, unrecognised.length), meta };
}
