/**
 * Product-line names of the generated catalogue as national registers show them: generics
 * named after the substance in the register's language and their company (`Ibuprofen
 * Sandoz`, `Ibuprofen-ratiopharm`, `IBUPROFENE BIOGARAN`), brands built on the
 * substance's stem (`Ibuflam`, `Ibudolor`) or invented, and holders with the country's
 * legal form. So a three-letter typeahead such as `ibu` meets thousands of products, as in
 * a real multi-country catalogue.
 */
import type { Jurisdiction } from '../../workers/ingest/snapshot.ts';
import type { Rng } from '../demo/prng.ts';

/** Generic manufacturers (short names used in product names). */
const GENERIC_COMPANIES = [
  'Sandoz', 'Mepha', 'Teva', 'ratiopharm', 'Zentiva', 'Viatris', 'Accord', 'Stada', 'Hexal', 'Aliud', 'Actavis', 'Biogaran',
  'Arrow', 'EG', 'Krka', 'Aurobindo', 'Cipla', 'Sun', 'Orion', 'Medical Valley', 'Bluefish', '1A Pharma', 'Heumann',
  'Spirig', 'Streuli', 'Helvepharm', 'Cinfa', 'Normon', 'Kern', 'Mylan', 'Apotex', 'Glenmark', 'Zydus', 'Lupin', 'Amneal',
  'Almus', 'Doc Generici', 'Pensa', 'Tecnigen', 'Aristo', 'Basics', 'Puren', 'AbZ', 'Axapharm', 'Vitabalans',
  'Ranbaxy', 'Torrent', 'Alter', 'Generis', 'Ratio', 'Noridem', 'Fresenius', 'Hikma', 'Baxter', 'Xiromed',
] as const;

/** Originator companies. */
const ORIGINATORS = [
  'Novartis', 'Roche', 'Pfizer', 'Sanofi', 'Bayer', 'AstraZeneca', 'GlaxoSmithKline', 'Merck Sharp & Dohme', 'Boehringer Ingelheim',
  'Takeda', 'Novo Nordisk', 'Lundbeck', 'Servier', 'Pierre Fabre', 'Menarini', 'Chiesi', 'Recordati', 'Grünenthal', 'Ipsen',
  'UCB', 'Janssen-Cilag', 'Eli Lilly', 'Bristol-Myers Squibb', 'AbbVie', 'Amgen', 'Gilead', 'Astellas', 'Daiichi Sankyo',
  'Otsuka', 'Eisai', 'Almirall', 'Ferrer', 'Esteve', 'Angelini', 'Zambon', 'Berlin-Chemie', 'Dr. Falk', 'Vifor', 'Galderma', 'Orifarm',
] as const;

const LEGAL_FORM: Record<Jurisdiction, string> = {
  CH: 'AG', DE: 'GmbH', AT: 'GmbH', FR: 'SAS', IT: 'S.p.A.', ES: 'S.A.', PT: 'Lda.', BE: 'NV', NL: 'B.V.', DK: 'A/S',
  SE: 'AB', NO: 'AS', FI: 'Oy', IE: 'Limited', GB: 'Ltd', US: 'Inc.',
};

const BRAND_SUFFIXES = [
  'flam', 'dolor', 'max', 'tab', 'med', 'fen', 'gen', 'rex', 'on', 'al', 'in', 'ex', 'ol', 'an', 'ium', 'ect', 'ora',
  'vit', 'pharm', 'cor', 'card', 'mune', 'pront', 'sal', 'zin', 'lan', 'tin', 'top', 'fort', 'mite', 'plus', 'duo',
  'retard', 'uno', 'let', 'il', 'ane', 'ek', 'os', 'ix',
] as const;

const SYLLABLES = [
  'ze', 'no', 'ra', 'vi', 'lo', 'ta', 'mi', 'ko', 'su', 'pe', 'da', 'ri', 'fo', 'ne', 'xa', 'qui', 'bre', 'dro', 'fla', 'gli',
  'pra', 'tre', 'vel', 'cor', 'mar', 'sel', 'tor', 'ven', 'zol', 'lis',
] as const;

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The substance's name in the register's language (`ibuprofène`, `Ibuprofen`, `acetaminophen`). */
export function localSubstanceName(name: string, names: Record<string, string> | undefined, lang: string): string {
  const key = lang === 'us' ? 'usan' : lang;
  return names?.[key] ?? name;
}

/** The name of one product line and its holder. */
export interface LineName {
  /** Brand, or the generic's name stem without strength and form. */
  name: string;
  holder: string;
  generic: boolean;
}

/** A generic (about 60 % of lines, as in national registers) or a brand of the substance. */
export function lineName(r: Rng, country: Jurisdiction, substance: string): LineName {
  const generic = r.next() < 0.6;
  if (generic) {
    const company = GENERIC_COMPANIES[r.int(0, GENERIC_COMPANIES.length - 1)]!;
    const holder = `${company} ${LEGAL_FORM[country]}`;
    const base = capitalise(substance.split(/[\s/]/)[0]!);
    if (country === 'FR') return { name: `${base} ${company}`.toUpperCase(), holder, generic };
    if ((country === 'DE' || country === 'AT') && r.next() < 0.5) return { name: `${base}-${company.toLowerCase()}`, holder, generic };
    return { name: `${base} ${company}`, holder, generic };
  }
  const holder = `${ORIGINATORS[r.int(0, ORIGINATORS.length - 1)]} ${LEGAL_FORM[country]}`;
  let name: string;
  if (r.next() < 0.5) {
    const letters = substance.normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase();
    name = capitalise(letters.slice(0, r.int(3, 5)) + BRAND_SUFFIXES[r.int(0, BRAND_SUFFIXES.length - 1)]!);
  } else {
    const count = r.int(2, 3);
    name = capitalise(Array.from({ length: count }, () => SYLLABLES[r.int(0, SYLLABLES.length - 1)]).join(''));
  }
  return { name: country === 'FR' ? name.toUpperCase() : name, holder, generic };
}
