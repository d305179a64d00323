/**
 * Salt → base (moiety) mass, for strengths registers give of a salt. WHO DDDs refer to the
 * active moiety unless WHO notes otherwise, so `Metoprololi tartras (2:1)` 200 mg is
 * 200 × 2·267.36 / 684.81 = 156.1 mg of metoprolol. A salt is read from its name in Latin,
 * English, French, German or Italian: the counter-ion word (`tartras`, `hydrochloride`,
 * `chlorhydrate`, `natricum`), the ratio the SL writes (`(2:1)`) and the water of a hydrate
 * (`trihydricum`, `sesquihydrate`). The factor needs the moiety's molar mass: a short table
 * of common moieties below; for any other salt the name says it is one and the caller says
 * so instead of guessing.
 */

/** A salt read from a substance name. */
export interface SaltReading {
  /** Counter-ion word as written (`tartras`, `chlorhydrate`). */
  counterIon: string;
  /** Mass of base in the salt's mass; null when the moiety's molar mass is not known. */
  baseFraction: number | null;
}

interface CounterIon { key: string; words: RegExp; mass: number; kind: 'acid' | 'metal' }

// Molar masses (g/mol) from standard atomic weights. An acid adds its whole mass to the
// bases it salts; a metal takes the place of one hydrogen of each acidic moiety it salts.
const H = 1.008;
const WATER = 18.015;
const COUNTER_IONS: readonly CounterIon[] = [
  { key: 'hcl', words: /^(hydrochlorid(um|e)?|chlorhydrate|cloridrato|clorhidrato|hcl)$/, mass: 36.46, kind: 'acid' },
  { key: 'hbr', words: /^(hydrobromid(um|e)?|bromhydrate|bromidrato|bromhidrato|hbr)$/, mass: 80.91, kind: 'acid' },
  { key: 'hydrogensulfate', words: /^(hydrogenosulfas|hydrogenosulfate|hydrogensulfat|hydrogensulfate|bisulfate|idrogenosolfato)$/, mass: 98.08, kind: 'acid' },
  { key: 'sulfate', words: /^(sulfas|sulfate|sulphate|sulfat|solfato|sulfato)$/, mass: 98.08, kind: 'acid' },
  { key: 'tartrate', words: /^(tartras|tartrate|tartrat|tartrato)$/, mass: 150.09, kind: 'acid' },
  { key: 'succinate', words: /^(succinas|succinate|succinat|succinato)$/, mass: 118.09, kind: 'acid' },
  { key: 'fumarate', words: /^(fumaras|fumarate|fumarat|fumarato)$/, mass: 116.07, kind: 'acid' },
  { key: 'maleate', words: /^(maleas|maleate|maleat|maleato)$/, mass: 116.07, kind: 'acid' },
  { key: 'besilate', words: /^(besilas|besilate|besylate|besilat|besilato)$/, mass: 158.18, kind: 'acid' },
  { key: 'mesilate', words: /^(mesilas|mesilate|mesylate|mesilat|mesilato)$/, mass: 96.11, kind: 'acid' },
  { key: 'oxalate', words: /^(oxalas|oxalate|oxalat|ossalato)$/, mass: 90.03, kind: 'acid' },
  { key: 'citrate', words: /^(citras|citrate|citrat|citrato)$/, mass: 192.12, kind: 'acid' },
  { key: 'acetate', words: /^(acetas|acetate|acetat|acetato)$/, mass: 60.05, kind: 'acid' },
  { key: 'phosphate', words: /^(phosphas|phosphate|phosphat|fosfato)$/, mass: 98.0, kind: 'acid' },
  { key: 'sodium', words: /^(natricum|natrium|sodium|sodique|sodico|sodica)$/, mass: 22.99, kind: 'metal' },
  { key: 'potassium', words: /^(kalicum|kalium|potassium|potassique|potassico)$/, mass: 39.1, kind: 'metal' },
  { key: 'calcium', words: /^(calcicum|calcium|calcique|calcico)$/, mass: 40.08, kind: 'metal' },
  { key: 'magnesium', words: /^(magnesicum|magnesium|magnesien|magnesico)$/, mass: 24.31, kind: 'metal' },
];

const HYDRATES: ReadonlyArray<[RegExp, number]> = [
  [/^hemihydr/, 0.5], [/^monohydr/, 1], [/^sesquihydr/, 1.5], [/^dihydr/, 2], [/^trihydr/, 3], [/^tetrahydr/, 4],
  [/^pentahydr/, 5], [/^hexahydr/, 6], [/^heptahydr/, 7],
];

/** A moiety: its molar mass and, per salt it is marketed as, the moieties one salt unit holds. */
type Moiety = [stem: string, mass: number, salts: Readonly<Record<string, number>>];

// Keyed by the stem every language's name starts with (`metoprolol`, `Metoprololi`,
// `métoprolol`). The salts are the ones these moieties are marketed as, with their usual
// stoichiometry (metoprolol tartrate is 2:1 even where a register does not write `(2:1)`).
const MOIETIES: readonly Moiety[] = [
  ['metoprolol', 267.36, { tartrate: 2, succinate: 2 }], ['amlodipin', 408.88, { besilate: 1, maleate: 1 }],
  ['metformin', 129.16, { hcl: 1 }], ['sertralin', 306.23, { hcl: 1 }], ['diclofenac', 296.15, { sodium: 1, potassium: 1 }],
  ['losartan', 422.91, { potassium: 1 }], ['bisoprolol', 325.44, { fumarate: 2 }], ['venlafaxin', 277.4, { hcl: 1 }],
  ['tramadol', 263.38, { hcl: 1 }], ['clopidogrel', 321.82, { hydrogensulfate: 1 }], ['escitalopram', 324.39, { oxalate: 1 }],
  ['citalopram', 324.39, { hbr: 1, hcl: 1 }], ['atorvastatin', 558.64, { calcium: 2 }], ['rosuvastatin', 481.54, { calcium: 2 }],
  ['pantoprazol', 383.37, { sodium: 1 }], ['esomeprazol', 345.42, { magnesium: 2 }], ['quetiapin', 383.51, { fumarate: 2 }],
  ['propranolol', 259.34, { hcl: 1 }], ['amitriptylin', 277.4, { hcl: 1 }], ['morphin', 285.34, { sulfate: 2, hcl: 1 }],
  ['oxycodon', 315.37, { hcl: 1 }], ['fluoxetin', 309.33, { hcl: 1 }], ['paroxetin', 329.37, { hcl: 1, mesilate: 1 }],
  ['donepezil', 379.49, { hcl: 1 }], ['memantin', 179.26, { hcl: 1 }], ['enalapril', 376.45, { maleate: 1 }],
  ['verapamil', 454.6, { hcl: 1 }], ['diltiazem', 414.52, { hcl: 1 }], ['omeprazol', 345.42, { magnesium: 2, sodium: 1 }],
  ['duloxetin', 297.42, { hcl: 1 }], ['ranitidin', 314.4, { hcl: 1 }], ['tamsulosin', 408.51, { hcl: 1 }],
  ['doxazosin', 451.48, { mesilate: 1 }], ['fexofenadin', 501.67, { hcl: 1 }], ['montelukast', 586.18, { sodium: 1 }],
  ['ondansetron', 293.37, { hcl: 1 }],
];

/** Elements that are themselves the substance of a mineral salt (`Calcii carbonas`, `Kalii chloridum`). */
const MINERALS = /^(natri|kali|calci|magnesi|ferr|zinc|lithi|alumin|sodi|potassi|iron)/;

const MOIETY_FIRST = /\s\(?(ut|as|als|sous forme d[e']|come|equivalent to|entsprechend)\s/;

function fold(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** The salt a substance name denotes, or null when it names the moiety itself or a mineral. */
export function readSalt(name: string | null | undefined): SaltReading | null {
  if (!name) return null;
  const folded = fold(name);
  // `Amlodipinum ut Amlodipini besilas`, `amlodipine (as besilate)`, `amlodipine sous forme de
  // bésilate`, `Amlodipin (als Besilat)`: the strength is of the moiety named first.
  if (MOIETY_FIRST.test(folded)) return null;
  const words = folded.split(/[^a-z0-9:]+/).filter(Boolean);
  const at = words.findIndex((w) => COUNTER_IONS.some((c) => c.words.test(w)));
  if (at < 0) return null;
  const ion = COUNTER_IONS.find((c) => c.words.test(words[at]!))!;
  const others = words.filter((w, i) => i !== at && !HYDRATES.some(([re]) => re.test(w)) && !/^(\d+:\d+|anhydric\w*|anhydr\w*|de|d|di|of)$/.test(w));
  const moietyWord = others[0];
  // `Kalium citrat`, `Calcii carbonas`: a mineral salt is itself the substance.
  if (!moietyWord || others.some((w) => MINERALS.test(w) || COUNTER_IONS.some((c) => c.words.test(w)))) return null;
  const counterIon = name.split(/[\s,()]+/).find((w) => ion.words.test(fold(w))) ?? words[at]!;
  const moiety = MOIETIES.find(([stem]) => moietyWord.startsWith(stem));
  const usual = moiety?.[2][ion.key];
  if (!moiety || usual === undefined) return { counterIon, baseFraction: null };
  // `(2:1)`: two moieties to one counter-ion, as the SL writes it; else the usual salt.
  const ratio = /\((\d+)\s*:\s*(\d+)\)/.exec(folded);
  const [bases, ions] = ratio ? [Number(ratio[1]), Number(ratio[2])] : [usual, 1];
  const water = words.reduce((n, w) => n + (HYDRATES.find(([re]) => re.test(w))?.[1] ?? 0), 0);
  const base = bases * moiety[1];
  const salt = ion.kind === 'acid' ? base + ions * ion.mass : bases * (moiety[1] - H) + ions * ion.mass;
  return { counterIon, baseFraction: base / (salt + water * WATER) };
}

/**
 * Whether WHO's DDD note says the DDD is of this salt (`Refers to metoprolol tartrate`,
 * `expressed as levothyroxine sodium`): then the salt's strength counts as written.
 */
export function dddRefersToSalt(note: string | null | undefined, salt: SaltReading): boolean {
  if (!note) return false;
  const words = fold(note).split(/[^a-z]+/);
  const ion = COUNTER_IONS.find((c) => c.words.test(fold(salt.counterIon)));
  return ion !== undefined && words.some((w) => ion.words.test(w));
}
