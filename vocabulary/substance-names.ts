/**
 * Normalised INN names across the registers' languages (en, fr, de, it, es, la), so that
 * `CHLORHYDRATE DE METFORMINE` (BDPM), `Metformini hydrochloridum` (SL), `METFORMIN
 * HYDROCHLORIDE` (FDA) and `Metforminhydrochlorid` meet on one key, `metformin`.
 * Shared by the ingest worker (substance links, workers/ingest/write-links.ts) and the
 * resolvers. Everything is table-driven: a word is folded only when a table says so, and
 * only endings that are regular across the languages are folded (see docs/catalogue.md).
 */

/** One single substance read from a name: its moiety key and how it was reached. */
export interface InnName {
  /** Moiety key: salt, ester and hydrate words removed, language endings folded (`metformin`). */
  key: string;
  /** The key plus the salt words in canonical English, sorted (`metformin hydrochloride`). */
  full: string;
  /** True when salt, ester or hydrate words were removed to reach `key`. */
  saltFolded: boolean;
  /** True when a curated synonym (USAN/BAN → INN, e.g. acetaminophen → paracetamol) was applied. */
  curated: boolean;
}

type SaltKind = 'salt' | 'hydrate';

/** Canonical English salt/ester word → its spellings in en, fr, de, it, es and Latin (nominative and genitive). */
const SALT_WORDS: Record<string, string[]> = {
  hydrochloride: ['hydrochloride', 'chlorhydrate', 'hydrochlorid', 'cloridrato', 'hidrocloruro', 'clorhidrato', 'hydrochloridum', 'hydrochloricum', 'hcl',
    'monohydrochloride', 'monochlorhydrate', 'monohydrochlorid'],
  dihydrochloride: ['dihydrochloride', 'dichlorhydrate', 'dihydrochlorid', 'dicloridrato', 'dihidrocloruro', 'diclorhidrato', 'dihydrochloridum'],
  hydrobromide: ['hydrobromide', 'bromhydrate', 'hydrobromid', 'bromidrato', 'bromhidrato', 'hidrobromuro', 'hydrobromidum', 'hydrobromicum'],
  chloride: ['chloride', 'chlorure', 'chlorid', 'cloruro', 'chloridum'],
  bromide: ['bromide', 'bromure', 'bromid', 'bromuro', 'bromidum'],
  iodide: ['iodide', 'iodure', 'iodid', 'jodid', 'ioduro', 'yoduro', 'iodidum'],
  sodium: ['sodium', 'sodique', 'natrium', 'sodico', 'sodio', 'sodica', 'natricum', 'natrii', 'monosodium', 'monosodique'],
  disodium: ['disodium', 'disodique', 'dinatrium', 'disodico', 'dinatricum'],
  potassium: ['potassium', 'potassique', 'kalium', 'potassico', 'potasico', 'potasio', 'potassica', 'potasica', 'kalicum', 'kalii'],
  dipotassium: ['dipotassium', 'dipotassique', 'dikalium', 'dipotassico', 'dikalicum'],
  calcium: ['calcium', 'calcique', 'calcico', 'calcica', 'calcio', 'calcicum', 'calcii'],
  magnesium: ['magnesium', 'magnesique', 'magnesico', 'magnesio', 'magnesicum', 'magnesii'],
  maleate: ['maleate', 'maleat', 'maleato', 'maleas', 'hydrogenomaleate', 'hydrogenmaleat'],
  fumarate: ['fumarate', 'fumarat', 'fumarato', 'fumaras', 'hemifumarate', 'hemifumarat'],
  succinate: ['succinate', 'succinat', 'succinato', 'succinas', 'hemisuccinate'],
  tartrate: ['tartrate', 'tartrat', 'tartrato', 'tartras', 'bitartrate', 'hydrogenotartrate', 'hydrogentartrat'],
  citrate: ['citrate', 'citrat', 'citrato', 'citras', 'dihydrogenocitrate'],
  acetate: ['acetate', 'acetat', 'acetato', 'acetas'],
  sulfate: ['sulfate', 'sulphate', 'sulfat', 'solfato', 'sulfato', 'sulfas', 'sulfuricum', 'hydrogenosulfate', 'hydrogensulfat', 'bisulfate'],
  phosphate: ['phosphate', 'phosphat', 'fosfato', 'phosphas', 'phosphoricum', 'dihydrogenophosphate'],
  mesilate: ['mesilate', 'mesylate', 'mesilat', 'mesilato', 'mesilas', 'methanesulfonate'],
  besilate: ['besilate', 'besylate', 'besilat', 'besilato', 'besilas'],
  tosilate: ['tosilate', 'tosylate', 'tosilat', 'tosilato', 'tosilas'],
  lactate: ['lactate', 'lactat', 'laktat', 'lattato', 'lactato', 'lactas'],
  gluconate: ['gluconate', 'gluconat', 'gluconato', 'gluconas'],
  carbonate: ['carbonate', 'carbonat', 'carbonato', 'carbonas', 'hydrogenocarbonate', 'hydrogencarbonat', 'bicarbonate', 'bicarbonato'],
  oxide: ['oxide', 'oxyde', 'oxid', 'ossido', 'oxido', 'oxidum'],
  hydroxide: ['hydroxide', 'hydroxyde', 'hydroxid', 'idrossido', 'hidroxido', 'hydroxidum'],
  propionate: ['propionate', 'propionat', 'propionato', 'propionas'],
  dipropionate: ['dipropionate', 'dipropionat', 'dipropionato', 'dipropionas'],
  valerate: ['valerate', 'valerat', 'valerato', 'valeras'],
  butyrate: ['butyrate', 'butyrat', 'butirrato', 'butirato', 'butyras'],
  furoate: ['furoate', 'furoat', 'furoato', 'furoas'],
  embonate: ['embonate', 'pamoate', 'embonat', 'pamoat', 'embonato', 'pamoato', 'embonas'],
  hyclate: ['hyclate', 'hyclat', 'iclato', 'hyclas'],
  trometamol: ['trometamol', 'tromethamine', 'trometamolum', 'trometamine'],
  meglumine: ['meglumine', 'meglumin', 'meglumina', 'megluminum'],
  // Amino acids as salt formers (`acétylsalicylate de DL-lysine`, `Lysini acetylsalicylas`).
  lysine: ['lysine', 'lysin', 'lisina', 'lysinum', 'lysini'],
  arginine: ['arginine', 'arginin', 'arginina', 'argininum', 'arginini'],
};

/** Salt formers that are cations: beside them an anion name (`clavulanate`) folds to its acid (`clavulanic acid`). */
const CATIONS = new Set(['sodium', 'disodium', 'potassium', 'dipotassium', 'calcium', 'magnesium', 'lysine', 'arginine', 'meglumine', 'trometamol']);

/** Racemate prefixes written before a salt former (`DL-lysine`): dropped with it. */
const SALT_PREFIXES = new Set(['dl', 'l', 'd']);

/** Water and "base" words: always dropped, never part of a key. */
const HYDRATE_WORDS = [
  'hydrate', 'monohydrate', 'dihydrate', 'trihydrate', 'tetrahydrate', 'pentahydrate', 'hexahydrate', 'hemihydrate', 'sesquihydrate',
  'hydrat', 'monohydrat', 'dihydrat', 'trihydrat', 'hemihydrat', 'sesquihydrat',
  'idrato', 'monoidrato', 'diidrato', 'triidrato', 'hidrato', 'monohidrato', 'dihidrato', 'trihidrato',
  'hydricum', 'monohydricum', 'dihydricum', 'trihydricum', 'hemihydricum', 'sesquihydricum',
  'hydricus', 'monohydricus', 'dihydricus', 'trihydricus', 'hemihydricus', 'sesquihydricus', 'anhydricus',
  'hydratee', 'monohydratee', 'dihydratee', 'trihydratee', 'hemihydratee', 'sesquihydratee',
  'anhydrous', 'anhydre', 'wasserfrei', 'anidro', 'anhidro', 'anhydricum', 'base',
];

/** Words that name an acid: the moiety key ends with `acid` whatever the language. */
const ACID_WORDS = new Set(['acid', 'acide', 'acido', 'acidum', 'saure']);

/** Connectors of the "salt de moiety" word order (fr, it, es) and of English "of". */
const STOP_WORDS = new Set(['de', 'du', 'des', 'di', 'del', 'della', 'of']);

const SALT_INDEX = new Map<string, { canonical: string; kind: SaltKind }>([
  ...Object.entries(SALT_WORDS).flatMap(([canonical, words]) => words.map((w) => [w, { canonical, kind: 'salt' as SaltKind }] as const)),
  ...HYDRATE_WORDS.map((w) => [w, { canonical: w, kind: 'hydrate' as SaltKind }] as const),
]);

/** German writes salts into the word (`Metforminhydrochlorid`, `Amlodipinbesilat`): these suffixes are split off. */
const GERMAN_SUFFIXES = [...SALT_INDEX.keys()]
  .filter((w) => /(id|at|um|in|rat)$/.test(w) && !/(ide|ate)$/.test(w))
  .sort((a, b) => b.length - a.length);

/** Minimum length of a word left before a German salt suffix. */
const MIN_STEM = 4;

/**
 * Curated synonyms where registers use different names for one INN (USAN, BAN and
 * old names → INN). Keys and values are raw names, normalised when the module loads.
 */
const CURATED_SYNONYMS: ReadonlyArray<[string, string]> = [
  ['acetaminophen', 'paracetamol'], ['albuterol', 'salbutamol'], ['levalbuterol', 'levosalbutamol'],
  ['glyburide', 'glibenclamide'], ['meperidine', 'pethidine'], ['rifampin', 'rifampicin'],
  ['cyclosporine', 'ciclosporin'], ['mesalamine', 'mesalazine'], ['dipyrone', 'metamizole'],
  ['isoproterenol', 'isoprenaline'], ['adrenaline', 'epinephrine'], ['noradrenaline', 'norepinephrine'],
  ['frusemide', 'furosemide'], ['lignocaine', 'lidocaine'], ['cholecalciferol', 'colecalciferol'],
  ['beclomethasone', 'beclometasone'], ['phenobarbitone', 'phenobarbital'], ['amoxycillin', 'amoxicillin'],
  ['cephalexin', 'cefalexin'], ['aspirin', 'acetylsalicylic acid'], ['salicylic acid acetate', 'acetylsalicylic acid'],
  ['nitroglycerin', 'glyceryl trinitrate'], ['methotrimeprazine', 'levomepromazine'], ['bendrofluazide', 'bendroflumethiazide'],
  ['valproate', 'valproic acid'],
];

/** Accents folded, lower case, ß → ss, ligatures opened. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/ß/g, 'ss').replace(/æ/g, 'ae').replace(/œ/g, 'oe').replace(/[\u2019`´]/g, "'");
}

// Connectors of combinations: `et` (fr), `und` (de), `and` (en), `e` (it), `y` (es), `/`, `+`, `;`, `, `.
const COMBINATION_SPLIT = /\s*[+/;&]\s*|\s*,\s+(?:(?:and|et|und|e|y)\s+)?|\s+(?:and|et|und|e|y)\s+/;

/** The components of a combination name (`paracétamol et codéine` → two); one for a single substance. */
export function splitCombination(raw: string): string[] {
  return protectStereo(foldText(raw)).split(COMBINATION_SPLIT).map((p) => p.trim()).filter((p) => p !== '');
}

/** Latin and language endings folded where regular: -ii → -ium, -um, genitive -i, anion -as → -at, -ique → -ic, one final a/e/o. */
function foldEnding(word: string): string {
  let w = word;
  if (/ii$/.test(w)) w = `${w.slice(0, -2)}ium`;
  else if (/[^i]um$/.test(w) && w.length > 5) w = w.slice(0, -2);
  else if (/[^aeiou]i$/.test(w) && w.length > 5) w = w.slice(0, -1);
  else if (/as$/.test(w) && w.length > 5) w = `${w.slice(0, -2)}at`;
  w = w.replace(/ique$/, 'ic');
  // Spellings that differ between languages (morphine/morfina, thyroxine/tiroxina, amoxicillin/amoxicilina).
  w = w.replace(/ph/g, 'f').replace(/th/g, 't').replace(/y/g, 'i').replace(/([bcdfglmnprst])\1/g, '$1');
  if (w.length >= 5 && (/[^aeiou][aeo]$/.test(w) || /in[aeo]$/.test(w))) w = w.slice(0, -1);
  return w;
}

/** `metforminhydrochlorid` → `metformin hydrochlorid`; `acetylsalicylsaure` → `acetylsalicylic acid`. */
function splitGermanCompound(token: string): string[] {
  if (SALT_INDEX.has(token) || ACID_WORDS.has(token)) return [token];
  const acid = /^(.{2,}?)(?:in)?saure$/.exec(token);
  if (acid) return [`${acid[1]}ic`, 'saure'];
  for (const suffix of GERMAN_SUFFIXES) {
    if (token.endsWith(suffix) && token.length - suffix.length >= MIN_STEM) return [token.slice(0, -suffix.length), suffix];
  }
  return [token];
}

/** A stereo descriptor in parentheses (`(R)-`, `(+)-`, `(±)`): it names another substance, so it stays in the key. */
const STEREO = /^(?:[rsez]|rs|[+\-±]|\+\/-)(?:,\s*(?:[rsez]|rs|[+\-±]|\+\/-))*$/;

/** `(+)-` → ` stereoplus `, before `+` and `/` can split the name as a combination. */
function protectStereo(text: string): string {
  return text.replace(/\(([^)]*)\)/g, (whole, inner: string) => {
    const t = inner.trim();
    if (!STEREO.test(t)) return whole;
    return ` stereo${t.replace(/\+\/-|±/g, 'rac').replace(/\+/g, 'plus').replace(/-/g, 'minus').replace(/[^a-z]/g, '')} `;
  });
}

/**
 * Tokens of one component. A parenthesis is kept when it holds salt words (`METFORMINE
 * (CHLORHYDRATE DE)`); other qualifiers (`(RDNA ORIGIN)`) are dropped. Stereo descriptors
 * were made words by `protectStereo`.
 */
function tokensOf(component: string): string[] {
  const kept = component.replace(/\(([^)]*)\)/g, (_, inner: string) => {
    const text = inner.trim();
    const words = text.split(/[\s-]+/).filter(Boolean);
    return words.every((w) => SALT_INDEX.has(w) || STOP_WORDS.has(w)) ? ` ${text} ` : ' ';
  });
  return kept.replace(/\b[dl]'/g, ' ').replace(/[^a-z0-9']+/g, ' ').replace(/'/g, '').trim()
    .split(' ').filter(Boolean).flatMap(splitGermanCompound);
}

const CURATED = new Map<string, string>();

function normaliseComponent(component: string, useCurated: boolean): InnName | null {
  const moiety: string[] = [];
  const salts: string[] = [];
  let acid = false;
  let dropped = false;
  const tokens = tokensOf(component);
  for (const [i, token] of tokens.entries()) {
    const salt = SALT_INDEX.get(token);
    if (SALT_PREFIXES.has(token) && SALT_INDEX.get(tokens[i + 1] ?? '')?.kind === 'salt') continue;
    if (salt?.kind === 'hydrate') dropped = true;
    else if (salt) salts.push(salt.canonical);
    else if (ACID_WORDS.has(token)) acid = true;
    else if (!STOP_WORDS.has(token)) moiety.push(foldEnding(token));
  }
  if (acid && moiety.length > 0) moiety.push('acid');
  // `clavulanate potassium`, `Kalii clavulanas`: the anion of a cation salt is its acid.
  else if (moiety.length === 1 && /[^aeiou]at$/.test(moiety[0]!) && salts.some((w) => CATIONS.has(w))) moiety[0] = `${moiety[0]!.slice(0, -2)}ic acid`;
  // Only salt words (`sodium chloride`, `oxyde de magnésium`): the salt is the substance.
  if (moiety.length === 0) {
    if (salts.length === 0) return null;
    const key = [...salts].sort().join(' ');
    return { key, full: key, saltFolded: dropped, curated: false };
  }
  let key = moiety.join(' ');
  const synonym = useCurated ? CURATED.get(key) : undefined;
  if (synonym) key = synonym;
  const full = [key, ...[...salts].sort()].join(' ');
  return { key, full, saltFolded: dropped || salts.length > 0, curated: synonym !== undefined };
}

for (const [from, to] of CURATED_SYNONYMS) {
  const a = normaliseComponent(foldText(from), false);
  const b = normaliseComponent(foldText(to), false);
  if (a && b && a.key !== b.key) CURATED.set(a.key, b.key);
}

/**
 * The single substances a register's name stands for: one entry per combination
 * component (`Metformin und Sitagliptin` → two), none for a blank name.
 */
export function normaliseInnName(raw: string): InnName[] {
  return splitCombination(raw).map((c) => normaliseComponent(c, true)).filter((n): n is InnName => n !== null);
}

/** The moiety key of a single-substance name; null for a blank or combination name. */
export function innKey(raw: string): string | null {
  const names = normaliseInnName(raw);
  return names.length === 1 ? names[0]!.key : null;
}
