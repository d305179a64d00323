/**
 * Medication codings → drug references the screening resolves, with the catalogue's own
 * reading of codes (`resolveReferences`: every candidate of every order in ONE round trip).
 * An order takes its most specific candidate that resolves. RxNorm codes the catalogue does
 * not hold (clinical and branded drugs: SCD, SBD) fall back to their ingredients from
 * RxNav (the rxnorm domain, cached), resolved in one more round trip. An order none of
 * whose codes resolves is reported, not screened.
 */
import { isApiError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { resolveReferences } from '../interactions/references.ts';
import type { DrugReference } from '../interactions/references.ts';
import { rxIngredients } from '../rxnorm/concept.ts';
import type { OrderedMedication } from './medications.ts';

/** An order and the references that stand for it (several for an RxNorm combination). */
export interface ScreenedOrder {
  order: OrderedMedication;
  refs: DrugReference[];
}

/** An order none of whose codes drugref recognises, and why. */
export interface UnrecognisedOrder {
  order: OrderedMedication;
  reason: string;
}

/** Most RxNav lookups one request may cause (each is cached; more are reported unrecognised). */
const MAX_RXNAV_LOOKUPS = 10;

async function firstResolved(ctx: RequestContext, orders: readonly OrderedMedication[]): Promise<Array<DrugReference | null>> {
  const flat = orders.flatMap((o, i) => o.candidates.map((ref) => ({ i, ref })));
  const resolved = flat.length ? await resolveReferences(ctx.db, flat.map((f) => f.ref)) : [];
  const best: Array<DrugReference | null> = orders.map(() => null);
  flat.forEach((f, k) => { if (best[f.i] === null && resolved[k]!.resolved) best[f.i] = f.ref; });
  return best;
}

/** Ingredient rxcuis of each RxNorm code, or the reason RxNav could not tell. */
async function ingredientsOf(ctx: RequestContext, rxcuis: readonly string[]): Promise<Map<string, string[] | string>> {
  const out = new Map<string, string[] | string>();
  await Promise.all([...new Set(rxcuis)].map(async (rxcui, n) => {
    if (n >= MAX_RXNAV_LOOKUPS) { out.set(rxcui, 'too many RxNorm codes to look up in one request'); return; }
    try {
      const terms = await rxIngredients(ctx, rxcui);
      out.set(rxcui, terms === null ? 'RxNorm does not know this code' : terms.map((t) => t.rxcui));
    } catch (err) {
      if (!isApiError(err) || ![502, 503].includes(err.status)) throw err;
      out.set(rxcui, 'RxNorm (RxNav) could not be asked just now');
    }
  }));
  return out;
}

/** Screened and unrecognised orders, in request order. */
export async function resolveOrders(ctx: RequestContext, orders: readonly OrderedMedication[]): Promise<{ screened: ScreenedOrder[]; unrecognised: UnrecognisedOrder[] }> {
  const best = await firstResolved(ctx, orders);
  const fallback = orders.filter((o, i) => best[i] === null && o.rxcuis.length > 0);
  const ingredients = await ingredientsOf(ctx, fallback.flatMap((o) => o.rxcuis));
  const ingredientRefs = [...new Set([...ingredients.values()].flatMap((v) => (Array.isArray(v) ? v : [])))].map((rxcui) => `rxcui:${rxcui}`);
  const resolvedIngredients = new Set((await resolveReferences(ctx.db, ingredientRefs)).filter((r) => r.resolved).map((r) => r.reference));
  const screened: ScreenedOrder[] = [];
  const unrecognised: UnrecognisedOrder[] = [];
  orders.forEach((order, i) => {
    if (best[i]) { screened.push({ order, refs: [best[i]!] }); return; }
    const looked = order.rxcuis.map((rxcui) => ingredients.get(rxcui));
    const refs = [...new Set(looked.flatMap((v) => (Array.isArray(v) ? v : [])).map((rxcui) => `rxcui:${rxcui}`))].filter((r) => resolvedIngredients.has(r));
    if (refs.length) { screened.push({ order, refs }); return; }
    const why = looked.find((v): v is string => typeof v === 'string');
    unrecognised.push({ order, reason: order.codings.length === 0 ? 'the order carries no medication code' : (why ?? 'no code matches a drug, substance or ATC code drugref knows') });
  });
  return { screened, unrecognised };
}
