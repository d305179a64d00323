/**
 * Supply status of a pack as national shortage publications state it, on one scale for every
 * country, and the markets drugref treats as neighbours when it looks for the same medicine
 * across a border (docs/supply.md).
 */

/**
 * - available: the publisher reports the pack as supplied normally (a restriction ended);
 * - limited: supplied, but not fully (controlled distribution, contingents, imported units);
 * - unavailable: not supplied now;
 * - discontinued: the holder stops supplying it for good.
 */
export const SUPPLY_STATUSES = ['available', 'limited', 'unavailable', 'discontinued'] as const;
export type SupplyStatus = (typeof SUPPLY_STATUSES)[number];

/** Worse is higher: a product rolls its packs up to the highest. */
export function supplySeverity(status: SupplyStatus): number {
  return SUPPLY_STATUSES.indexOf(status);
}

/** True when the status keeps a user from getting the pack as usual. */
export function isShort(status: SupplyStatus | null | undefined): boolean {
  return status !== null && status !== undefined && status !== 'available';
}

/** The worst of some statuses, or null when none is given. */
export function worstStatus(statuses: Iterable<SupplyStatus | null | undefined>): SupplyStatus | null {
  let worst: SupplyStatus | null = null;
  for (const s of statuses) if (s && (worst === null || supplySeverity(s) > supplySeverity(worst))) worst = s;
  return worst;
}

/**
 * Land borders between the catalogue's jurisdictions (and the short sea crossings pharmacies
 * import over: DK–SE, IE–GB). Where a pack is short, the same medicine is looked for here first.
 */
export const NEIGHBOURS: Readonly<Record<string, readonly string[]>> = {
  AT: ['DE', 'CH', 'IT'],
  BE: ['FR', 'NL', 'DE'],
  CH: ['DE', 'FR', 'IT', 'AT'],
  DE: ['AT', 'CH', 'FR', 'NL', 'BE', 'DK'],
  DK: ['DE', 'SE'],
  ES: ['PT', 'FR'],
  FI: ['SE', 'NO'],
  FR: ['BE', 'DE', 'CH', 'IT', 'ES'],
  GB: ['IE'],
  IE: ['GB'],
  IT: ['FR', 'CH', 'AT'],
  NL: ['BE', 'DE'],
  NO: ['SE', 'FI'],
  PT: ['ES'],
  SE: ['NO', 'FI', 'DK'],
  US: [],
};
