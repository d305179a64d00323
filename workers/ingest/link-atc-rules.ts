/**
 * The tables the ATC link pass (link-atc.ts) reads, passed to its one statement as a
 * parameter: how a product's route is recognised in the registers' words, which ATC groups
 * are for a local route, which WHO DDD route code a route has, when strength decides between
 * the codes of one substance, and how confident each basis is (docs/catalogue.md, "ATC codes
 * derived from substances").
 */
import { normaliseInnName } from '../../vocabulary/substance-names.ts';

/** Routes that act on the whole body: WHO classifies them in the systemic groups. */
export const SYSTEMIC_ROUTES = ['oral', 'parenteral', 'rectal', 'transdermal', 'sublingual', 'inhalation'] as const;

/**
 * Route classes and the words registers use for them (BDPM `orale`, `cutanée`; SL dose forms
 * `Filmtabl`, `Kaps`, `Salbe`; FDA `ORAL`, `TOPICAL`; dm+d `Cutaneous`), compared lower-cased
 * ASCII (an accented letter matches `.`). Tried in order on the route, then the dose form, then
 * the product name; `sous-cutanée` is parenteral before `cutan` is cutaneous.
 */
const ROUTE_PATTERNS: ReadonlyArray<{ cls: string; pattern: string; who: string | null }> = [
  { cls: 'ophthalmic', pattern: 'ophthalm|ophtalm|oftalm|collyre|augentr|conjunctiv', who: null },
  { cls: 'auricular', pattern: 'auricul|otique|ohrentr|\\bear\\b', who: null },
  { cls: 'nasal', pattern: 'nasal|nasen', who: 'N' },
  { cls: 'oromucosal', pattern: 'buccal|oromuc|dentaire|dental|gingiv|bain de bouche|mouthwash|mundsp|lutschtabl|pastille|collutoire', who: null },
  { cls: 'sublingual', pattern: 'sublingu', who: 'SL' },
  { cls: 'inhalation', pattern: 'inhal', who: 'Inhal' },
  { cls: 'parenteral', pattern: 'inject|intraven|intramusc|sous-cutan|subcutan|subkutan|parenter|perfusion|infusion|\\binj\\b|\\binf\\b', who: 'P' },
  { cls: 'transdermal', pattern: 'transderm|patch|pflaster', who: 'TD' },
  { cls: 'vaginal', pattern: 'vagin', who: 'V' },
  { cls: 'rectal', pattern: 'rectal|rektal|suppo|\\bsupp\\b|lavement', who: 'R' },
  { cls: 'cutaneous', pattern: 'cutan|kutan|topical|topique|cr.me|\\bcreme\\b|salbe|pommade|ointment|\\bgel\\b|lotion|shampoo', who: null },
  { cls: 'oral', pattern: 'oral|orale|buvable|comprim|\\bcpr\\b|tabl|tablet|capsul|caps|kaps|g.lule|sirop|syrup|sirup|drag|granul|sachet|suspension buv|trinkl|tropfen', who: 'O' },
];

/** ATC groups for a local route (longest prefix wins); every other group is `systemic`. */
const GROUP_ROUTES: ReadonlyArray<{ prefix: string; cls: string }> = [
  { prefix: 'A01', cls: 'oromucosal' }, { prefix: 'R02', cls: 'oromucosal' },
  { prefix: 'D', cls: 'cutaneous' }, { prefix: 'M02', cls: 'cutaneous' },
  // Dermatologicals for systemic use.
  { prefix: 'D01B', cls: 'systemic' }, { prefix: 'D05B', cls: 'systemic' }, { prefix: 'D10B', cls: 'systemic' },
  { prefix: 'S01', cls: 'ophthalmic' }, { prefix: 'S02', cls: 'auricular' }, { prefix: 'S03', cls: 'ophthalmic_auricular' },
  { prefix: 'R01A', cls: 'nasal' }, { prefix: 'G01', cls: 'vaginal' }, { prefix: 'C05A', cls: 'rectal_local' },
];

/**
 * Substances WHO lists under several codes of the same route, told apart by strength per unit
 * (mg of the moiety). Acetylsalicylic acid: low-dose platelet inhibitor tablets (B01AC06, up to
 * 160 mg) against analgesic strengths (N02BA01, from 300 mg); between them, unlinked.
 */
const STRENGTH_RULES: ReadonlyArray<{ name: string; code: string; cls: string; min_mg: number | null; max_mg: number | null }> = [
  { name: 'acetylsalicylic acid', code: 'B01AC06', cls: 'oral', min_mg: null, max_mg: 160 },
  { name: 'acetylsalicylic acid', code: 'N02BA01', cls: 'oral', min_mg: 300, max_mg: null },
];

/** Confidence of each basis: the register's own code is 1 (not stored; see docs/catalogue.md). */
export const BASIS_CONFIDENCE: Readonly<Record<string, number>> = {
  signature_medicine: 0.95, signature: 0.9, inn_name: 0.9, inn_translated: 0.85, inn_salt_folded: 0.8, combination: 0.8, strength_route: 0.7,
};

/** Every table above as the one jsonb parameter of the link statement. */
export function linkAtcRules(): string {
  return JSON.stringify({
    routes: ROUTE_PATTERNS.map((r, ord) => ({ ...r, ord })),
    groups: GROUP_ROUTES,
    systemic: SYSTEMIC_ROUTES,
    strength: STRENGTH_RULES.map((r) => ({ ...r, key: normaliseInnName(r.name)[0]!.key })),
    confidence: BASIS_CONFIDENCE,
  });
}
