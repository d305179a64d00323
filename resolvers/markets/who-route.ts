/**
 * The WHO DDD route (`O`, `P`, `R`, `TD`, ...) of a product as registers describe it, and
 * the DDDs of its ATC code that apply: the route in any language or case (`ORAL`, `orale`,
 * `zum Einnehmen`, `intraveineuse`), else the dose form field, else the form named in the
 * product name (the Swiss SL states neither route nor form: `Lopresor Divitabs 200 mg`),
 * else the pack unit, else the only route the ATC code has a DDD for. Where every route of
 * the code has the same DDD, the route is not needed at all.
 */
import { routeOfDoseForm, routesOfDoseForms } from '../../vocabulary/dose-form-route.ts';
import type { PackUnit } from '../../vocabulary/pack-units.ts';
import type { ReasonCode } from './reasons.ts';

/** Routes and forms with no systemic DDD (skin, eye, ear): recognised, so no DDD is guessed. */
const LOCAL = 'local';

const ROUTE_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/sublingu|sublingal/, 'SL'],
  [/transderm|transdermi/, 'TD'],
  [/inhal|pulmon|respirat/, 'Inhal'],
  [/nasal|nasale/, 'N'],
  [/rect|rekt/, 'R'],
  [/vagin/, 'V'],
  [/parenter|intraven|endoven|intramusc|subcut|sous.cutan|sottocut|subkutan|\binj|infus|perfus|\bi\.?[vm]\.?\b|\bs\.?c\.?\b/, 'P'],
  [/oral|per os|einnehm|bucc|\bp\.?o\.?\b|orale/, 'O'],
  // After P and TD, which own `sous-cutanée`, `subkutan` and `transdermal`.
  [/cutan|dermal|topi|kutan|ophthalm|ophtalm|ocul|okul|auricul|otic|conjonct|intravitr/, LOCAL],
];

const UNIT_ROUTE: Partial<Record<PackUnit, string>> = {
  tablet: 'O', capsule: 'O', sachet: 'O', lozenge: 'O', suppository: 'R', pessary: 'V', patch: 'TD',
  vial: 'P', ampoule: 'P', syringe: 'P', pen: 'P', cartridge: 'P', inhaler: 'Inhal',
};

/** What a register says about how a product is taken. */
export interface RouteClues {
  /** The register's route field (`ORAL`, `orale;intraveineuse`, `Oral`). */
  route: string | null;
  /** The register's dose form field (`comprimé pelliculé`, `FTA`, `TABLET, FILM COATED`). */
  doseForm: string | null;
  /** The product name, read for a form word when neither field says anything. */
  name?: string | null;
  /** The pack's counted unit (tablet, vial ...). */
  unit: PackUnit | null;
}

/** One DDD of an ATC code. */
export interface RoutedDdd { value: number; unit: string; route: string; note?: string | null }

function plain(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

function routeWords(text: string | null): string[] {
  if (!text) return [];
  return text.split(/[;,/]| and | et | und /).map(plain)
    .map((part) => ROUTE_WORDS.find(([re]) => re.test(part))?.[1]).filter((r): r is string => r !== undefined);
}

/**
 * The WHO route codes to try for a product, best first, among those with a DDD; null when
 * nothing the register says names a route and the code has DDDs for several routes.
 */
export function whoRoutes(clues: RouteClues, available: readonly string[]): string[] | null {
  const has = (r: string): boolean => available.includes(r);
  // A route or form that is recognised decides, even when its DDD is missing.
  const fromRoute = routeWords(clues.route);
  if (fromRoute.length) return [...new Set(fromRoute.filter(has))];
  const fromForm = routesOfDoseForms(clues.doseForm);
  if (fromForm.length) return fromForm.filter(has);
  const fromName = routeOfDoseForm(clues.name);
  if (fromName) return has(fromName) ? [fromName] : [];
  const fromUnit = clues.unit ? UNIT_ROUTE[clues.unit] : undefined;
  if (fromUnit) return has(fromUnit) ? [fromUnit] : [];
  const distinct = [...new Set(available)];
  return distinct.length === 1 ? distinct : null;
}

/** True when every route of the code has the same DDDs (amount and unit). */
function sameEverywhere(ddds: readonly RoutedDdd[]): boolean {
  const byRoute = new Map<string, string[]>();
  for (const d of ddds) byRoute.set(d.route, [...(byRoute.get(d.route) ?? []), `${Number(d.value)} ${d.unit}`]);
  const lists = [...byRoute.values()].map((l) => l.sort().join('|'));
  return lists.length > 0 && lists.every((l) => l === lists[0]);
}

/** The DDDs that apply to a product (one route's, best route first), or why none does. */
export function dddsForProduct(clues: RouteClues, ddds: readonly RoutedDdd[]): { ddds: RoutedDdd[] } | { reason: ReasonCode } {
  if (ddds.length === 0) return { reason: 'no_ddd' };
  const routes = whoRoutes(clues, ddds.map((d) => d.route));
  if (routes === null) {
    // `Metoprololi tartras` 14 Stk: no route word anywhere, but O and P both have 0.15 g.
    if (!sameEverywhere(ddds)) return { reason: 'route_unknown' };
    const first = ddds[0]!.route;
    return { ddds: ddds.filter((d) => d.route === first) };
  }
  const chosen = routes.flatMap((route) => ddds.filter((d) => d.route === route));
  return chosen.length ? { ddds: chosen } : { reason: 'no_ddd_for_route' };
}
