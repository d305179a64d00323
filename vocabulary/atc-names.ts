/**
 * WHO's level-5 ATC names read as substances: `apixaban` is one substance, `valsartan and
 * amlodipine` a combination of two, `amoxicillin and beta-lactamase inhibitor` a combination
 * whose second part is a class (any of its members), `insulin (human)` a substance with a
 * qualifier that a bare `insulin` must not meet, and `paracetamol, combinations excl.
 * psycholeptics` no substance at all. Keys come from `normaliseInnName`, the normaliser the
 * registers' substance names go through, so both sides meet on one key in every language.
 * The ingest worker stores these rows (`atc_names`) and links products by them
 * (workers/ingest/link-atc.ts); interaction checks resolve names through them.
 */
import { foldText, normaliseInnName, splitCombination } from './substance-names.ts';

/** One part of a WHO name: the keys any of which fills it (one key, or a class's members). */
export interface AtcNameSlot {
  slot: number;
  keys: string[];
}

/** A level-5 ATC name read as a substance or a combination. */
export interface AtcNameReading {
  code: string;
  kind: 'single' | 'combination';
  slots: AtcNameSlot[];
  /** The name lower-cased to letters, digits and single spaces: an exact register name equals it. */
  plain: string;
  /** True when WHO qualifies the name (`insulin (human)`): the qualifier is part of the key. */
  qualified: boolean;
}

/** Words that make a WHO name a group rather than a substance (`..., combinations`, `various`). */
const GROUP_WORDS = /\b(?:combinations?|excl|incl|various|others?|plain|preparations?|products?|agents?|extracts?)\b/;

/**
 * Classes WHO names in combination codes, with the INNs that fill them (J01CR02
 * `amoxicillin and beta-lactamase inhibitor`, N04BA02 `levodopa and decarboxylase inhibitor`).
 */
const CLASS_MEMBERS: Record<string, string[]> = {
  'beta-lactamase inhibitor': ['clavulanic acid', 'sulbactam', 'tazobactam', 'avibactam', 'relebactam', 'vaborbactam'],
  'decarboxylase inhibitor': ['carbidopa', 'benserazide'],
};

const CLASS_KEYS = new Map(Object.entries(CLASS_MEMBERS).map(([name, members]) => [
  foldText(name).replace(/[^a-z]+/g, ' ').trim(),
  members.map((m) => normaliseInnName(m)[0]!.key),
]));

/** `Metoprolol Tartrate (2:1)` → `metoprolol tartrate 2 1`: how an exact name compares, in SQL too. */
export function plainName(raw: string): string {
  return raw.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

/** A qualifier in parentheses that is neither a salt nor a stereo descriptor nor a ratio: `(human)`, `(pork)`. */
function qualifierOf(name: string): string | null {
  const inner = /\(([^)]*)\)/.exec(name)?.[1]?.trim();
  if (!inner || /^[\d\s:.,/]+$/.test(inner) || /^(?:[rsez]|rs|[+\-±]|\+\/-)$/i.test(inner)) return null;
  // Salt words in parentheses are part of the substance name and normalise as such.
  const asSalt = normaliseInnName(`x (${inner})`);
  return asSalt[0]?.full !== 'x' ? null : inner;
}

function slotKeys(component: string): string[] | null {
  const asClass = CLASS_KEYS.get(component.replace(/[^a-z]+/g, ' ').trim());
  if (asClass) return asClass;
  const names = normaliseInnName(component);
  return names.length === 1 ? [names[0]!.key] : null;
}

/** The substance(s) a level-5 ATC name stands for; null for a group name or a name of another level. */
export function readAtcName(code: string, name: string): AtcNameReading | null {
  // Vaccines (J07) are named by antigen and preparation, never by a register's substance names.
  if (code.length !== 7 || code.startsWith('J07')) return null;
  const folded = foldText(name);
  if (GROUP_WORDS.test(folded) || /\bor\b/.test(folded)) return null;
  const qualifier = qualifierOf(name);
  if (qualifier !== null) {
    const names = normaliseInnName(`${name.replace(/\([^)]*\)/g, ' ')} ${qualifier}`);
    if (names.length !== 1) return null;
    return { code, kind: 'single', slots: [{ slot: 0, keys: [names[0]!.key] }], plain: plainName(name), qualified: true };
  }
  const parts = splitCombination(name);
  const slots: AtcNameSlot[] = [];
  for (const [slot, part] of parts.entries()) {
    const keys = slotKeys(part);
    if (!keys) return null;
    slots.push({ slot, keys });
  }
  if (slots.length === 0) return null;
  return { code, kind: slots.length === 1 ? 'single' : 'combination', slots, plain: plainName(name), qualified: false };
}
