/**
 * The words registers use for what a pack holds, folded to a small set of units. Registers
 * write in German, French, Italian, Spanish and English, abbreviate (`Filmtabl`, `Durchstf`,
 * `Btl`, `CPR`), mark plurals in brackets (`comprimé(s)`, `Tablette(n)`) and qualify with a
 * comma (`TABLET, FILM COATED`, `VIAL, SINGLE-DOSE`); one rules table reads them all. It is
 * shared by the pack-size grammar (pack-size.ts), the ingest adapters and the markets resolver.
 */

/** Units a pack size is counted or measured in. */
export type PackUnit =
  | 'tablet' | 'capsule' | 'sachet' | 'suppository' | 'pessary' | 'patch' | 'dose' | 'lozenge' | 'piece'
  | 'vial' | 'ampoule' | 'syringe' | 'pen' | 'cartridge' | 'bottle' | 'tube' | 'blister' | 'box' | 'bag'
  | 'inhaler' | 'container' | 'kit' | 'ml' | 'g';

/** Measured units: a pack size in them is a volume or a mass, not a count. */
export type MeasureUnit = 'ml' | 'g';

/** How a unit word behaves in a pack text. */
export type UnitKind =
  /** A single dosage unit that holds nothing further (tablet, capsule, dose, piece). */
  | 'form'
  /** A single-dose container: counts like a form but can hold a volume (vial, syringe, sachet). */
  | 'unit_dose'
  /** An outer container (bottle, box, blister): counted, holds further levels. */
  | 'container'
  /** A volume or mass (ml, g). */
  | 'measure';

export interface UnitReading {
  unit: PackUnit;
  kind: UnitKind;
  /** Factor to the normalised unit (1 l = 1000 ml). */
  factor: number;
}

const KIND: Record<PackUnit, UnitKind> = {
  tablet: 'form', capsule: 'form', suppository: 'form', pessary: 'form', dose: 'form', lozenge: 'form', piece: 'form',
  patch: 'unit_dose', sachet: 'unit_dose', vial: 'unit_dose', ampoule: 'unit_dose', syringe: 'unit_dose', pen: 'unit_dose', cartridge: 'unit_dose',
  bottle: 'container', tube: 'container', blister: 'container', box: 'container', bag: 'container', inhaler: 'container',
  container: 'container', kit: 'container', ml: 'measure', g: 'measure',
};

/** Measures with their factor to ml or g. Milligrams are strengths, never pack sizes. */
const MEASURES: Record<string, [MeasureUnit, number]> = {
  ml: ['ml', 1], cc: ['ml', 1], millilitre: ['ml', 1], millilitres: ['ml', 1], milliliter: ['ml', 1], millilitri: ['ml', 1],
  mililitros: ['ml', 1], cl: ['ml', 10], dl: ['ml', 100], l: ['ml', 1000], liter: ['ml', 1000],
  litre: ['ml', 1000], litres: ['ml', 1000], litro: ['ml', 1000], litri: ['ml', 1000], litros: ['ml', 1000],
  g: ['g', 1], gr: ['g', 1], gm: ['g', 1], gram: ['g', 1], grams: ['g', 1], gramm: ['g', 1], gramme: ['g', 1],
  grammes: ['g', 1], grammi: ['g', 1], grammo: ['g', 1], gramo: ['g', 1], gramos: ['g', 1], kg: ['g', 1000],
};

// Order matters: the first rule that matches a folded word wins, so compounds come before
// the words they contain (`Lutschtabletten` is a tablet, `Infusionsbeutel` a bag).
const RULES: ReadonlyArray<[RegExp, PackUnit]> = [
  [/tabl|^tab$|^tabs$|compr|^cpr$|^cp$|tablet|caplet|dragee|^drag$/, 'tablet'],
  [/kaps|caps|gelule|^cps$|^cap$/, 'capsule'],
  [/supp|zapfchen|suppositor|supositorio|^supposte?$/, 'suppository'],
  [/^ovul[aoe]s?$|pessar/, 'pessary'],
  [/transderm|pflaster|^patch(es)?$|cerott|^parches?$|^tts$/, 'patch'],
  [/^(dos|dose|doses|dosen|dosis|dosi|dosierungen|einzeldos\w*|hub|hube|spruhstoss\w*|sprays?|aerosol|puffs?|actuations?|applications?|inhalations?|insufflations?|pulverisations?|erogazioni|pulsaciones)$/, 'dose'],
  [/lutsch|pastill|lozenge|troche|^gommes?$|^gums?$/, 'lozenge'],
  [/infusionsbeutel|^bags?$|^poches?$|^sacca$|^sacche$|^bolsas?$/, 'bag'],
  [/^(sachets?|sach|beutel|btl|bustin[ae]|sobres?|packets?|sticks?|stickpack\w*)$/, 'sachet'],
  [/^amp$|^ampul|^ampoul|^ampolla|^fial[ae]$/, 'ampoule'],
  [/durchst|^dstf$|^vials?$|^viales$|flaconcin/, 'vial'],
  [/spritze|fertspr|seringue|syringe|siring|jeringa|^spr$|^ser$/, 'syringe'],
  [/^pens?$|fertpen|fertigpen|^stylos?$|^penn[ae]$|^plumas?$|injektor/, 'pen'],
  [/cartridge|patrone|cartouche|cartucc|cartucho|karpule|penfill/, 'cartridge'],
  [/flasche|^fl$|^flac$|^flacons?$|bottle|^flacon[ei]$|^frascos?$|^vasetto$/, 'bottle'],
  [/^tuben?$|^tubes?$|^tb$|^tub[oi]$/, 'tube'],
  [/blister|plaquette|^plaq$|^strips?$/, 'blister'],
  [/inhaler|inhalateur|inhalator|diskus|turbuhaler|^canisters?$/, 'inhaler'],
  [/^kits?$/, 'kit'],
  // German package form codes (KBV/IFA Darreichungsform) that German price lists give as
  // the pack unit (`20` `FTA`): each counts one form. Codes that are also words (`red`,
  // `tra`, `pas`, `sta`) are left out.
  [/^(fta|bta|ret|rta|mta|kta|lta|smt|tmr|fmr|uta|tka|tle|tse|tvw|rut|dra|drm|kda|fda)$/, 'tablet'],
  [/^(hkp|kap|wka|wkm|hkm|kmr|kmp|rek|hvw|zka)$/, 'capsule'],
  [/^(sup|ssu|ksu|esu|kss|kks)$/, 'suppository'],
  [/^(ovu|vov|vsu|vta)$/, 'pessary'],
  [/^(pfl|pft|tsy)$/, 'patch'],
  [/^(lut|lup)$/, 'lozenge'],
  [/^(beu)$/, 'sachet'],
  [/^(ifa)$/, 'ampoule'],
  [/^(dfl|ifl|ini)$/, 'vial'],
  [/^(fer|ife|sri)$/, 'syringe'],
  [/^(stk|st|stck|stuck|stueck|pce|pces|pcs|pc|piece|pieces|pz|pezzi|ea|each|unites?|unita)$/, 'piece'],
  // Finnish `kpl` (kappaletta): Fimea's unit of counted packs.
  [/^kpl$/, 'piece'],
  // Portuguese `unidade(s)` (Infomed: `Blister - 60 unidade(s)`), Spanish `unidades`.
  [/^(unidade|unidades|unidad)$/, 'piece'],
  [/^(boites?|box|boxes|cases?|cartons?|schachtel|packung|packungen|scatol[ae]|astucci?o|estuche|caja|envases?|confezion[ei]|packs?|kartons?)$/, 'box'],
  [/^(containers?|recipients?|behaltnis|behalter|contenitor[ei]|pots?|jars?|dispositifs?|applicators?|applicateurs?|pouch|pouches|cups?|cans?|dispensers?|devices?)$/, 'container'],
];

/** Lower case, accents and bracketed plural endings removed: `Comprimé(s)` → `comprime`. */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/\([a-z]{1,3}\)/g, '').replace(/[.'’]+$/g, '').replace(/^[.'’]+/, '').trim();
}

/** Reads one word as a unit; null when it names none (`thermoformée`, `PVC`, `verre`). */
export function readUnitWord(word: string): UnitReading | null {
  const folded = foldWord(word);
  if (folded === '') return null;
  const measure = MEASURES[folded];
  if (measure) return { unit: measure[0], kind: 'measure', factor: measure[1] };
  const rule = RULES.find(([re]) => re.test(folded));
  return rule ? { unit: rule[1], kind: KIND[rule[1]], factor: 1 } : null;
}

/**
 * Normalised unit of a register's unit phrase (`TABLET, FILM COATED` → tablet, `Kapsel(n)`
 * → capsule, `seringue(s) préremplie(s)` → syringe, `tablets` → tablet): the first word that
 * names a unit; `AEROSOL, METERED` counts doses. Null when no word names one.
 */
export function normalisePackUnit(phrase: string | null | undefined): UnitReading | null {
  if (!phrase) return null;
  if (/metered|dosier/i.test(phrase)) return { unit: 'dose', kind: 'form', factor: 1 };
  for (const word of phrase.split(/[\s,;/]+/)) {
    const reading = readUnitWord(word);
    if (reading) return reading;
  }
  return null;
}

/** Kind of a normalised unit. */
export function unitKind(unit: PackUnit): UnitKind {
  return KIND[unit];
}
