/**
 * Why a pack's price could not be normalised to a price per DDD: one stable code per cause,
 * so that a coverage report can count them, each with the sentence docs/markets.md shows.
 */
export const REASONS = {
  no_price: 'The pack has no price, or no exchange rate for its currency.',
  no_ddd: 'WHO gives no DDD for the ATC code.',
  route_unknown: 'The ATC code has DDDs of different amounts for several routes, and neither the route, the dose form, the product name nor the pack unit names one.',
  no_ddd_for_route: 'WHO gives no DDD for the route of the product (a local form such as a cream or eye drops, or a route the code has no DDD for).',
  pack_size_unknown: 'The pack states no count, volume or mass that can be read.',
  pack_unit_unknown: 'The pack counts units whose word is not recognised.',
  pack_count_unknown: 'The strength is per dosage unit, but the pack gives only a volume or mass.',
  pack_counts_containers: 'The strength is per dosage unit, but the pack counts containers (bottles, tubes, boxes).',
  pack_volume_unknown: 'The strength is a concentration, but the pack volume is unknown.',
  pack_mass_unknown: 'The strength is per gram, but the pack mass is unknown.',
  pack_doses_unknown: 'The strength is per dose, but the pack does not count doses.',
  strength_missing: 'The register gives no strength.',
  strength_unreadable: 'The strength or its unit cannot be read as a mass, units or mmol per unit, volume, mass or dose.',
  strength_release_rate: 'The strength is a release rate per hour (patches, pumps).',
  dimension_mismatch: 'The strength and the DDD are in different dimensions (mass, units, mmol).',
  ddd_unit_mismatch: 'The DDD counts a dosage form (tablets, ml) that the pack does not give.',
  salt_not_converted: 'The strength is of a salt and the DDD of its moiety; the register gives no moiety strength and the salt has no known conversion.',
  salt_basis_unknown: 'The register names a salt but does not say whether its strength is of the salt or of the moiety.',
  empty_pack: 'The pack holds no substance by this arithmetic.',
  combination: 'The product combines several substances: WHO counts its DDD per combination in unit doses, not per substance.',
} as const;

/** A reason code. */
export type ReasonCode = keyof typeof REASONS;

/** Every reason code, in the order docs/markets.md lists them. */
export const REASON_CODES = Object.keys(REASONS) as ReasonCode[];
