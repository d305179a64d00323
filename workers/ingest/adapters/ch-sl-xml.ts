/**
 * SL-specific reading of `Preparations.xml` elements: limitations (code, type, value,
 * niveau, text, validity) at preparation, IT-code and pack level, and the co-insurance rule.
 * Both schemas in use share these elements; the newer one only adds siblings.
 */
import type { SlLimitation } from '../snapshot.ts';
import { isoFromDayFirst, parseDecimal } from './common.ts';
import { attrOf, childOf, childrenOf, textOf } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

/**
 * Limitation texts are HTML fragments (`<br>` escaped in the XML, usually followed by a real
 * line break): one line break per `<br>`, other tags dropped, trailing spaces trimmed.
 */
export function plain(html: string): string {
  return html
    .replace(/[ \t]*<br\s*\/?>[ \t]*(\r?\n)?/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function limitation(node: XmlElement, level: SlLimitation['level']): SlLimitation | null {
  const body = plain(textOf(node, 'DescriptionDe') || textOf(node, 'DescriptionFr') || textOf(node, 'DescriptionIt'));
  const code = textOf(node, 'LimitationCode');
  if (body === '' && code === '') return null;
  const out: SlLimitation = { text: body, level };
  if (code) out.code = code;
  const type = textOf(node, 'LimitationType');
  if (type) out.type = type.toUpperCase();
  const value = parseDecimal(textOf(node, 'LimitationValue'));
  if (value !== null) out.value = value;
  const niveau = textOf(node, 'LimitationNiveau');
  if (niveau) out.niveau = niveau;
  const from = isoFromDayFirst(textOf(node, 'ValidFromDate'));
  if (from) out.valid_from = from;
  return out;
}

function fromContainer(container: XmlElement | undefined, level: SlLimitation['level']): SlLimitation[] {
  return childrenOf(container, 'Limitation').map((l) => limitation(l, level)).filter((l): l is SlLimitation => l !== null);
}

/**
 * Limitations that apply to the whole preparation: its own, then those of its IT codes
 * (the therapeutic-group limitations such as "Gesamthaft zugelassen: 40 Punkte").
 */
export function preparationLimitations(prep: XmlElement): SlLimitation[] {
  const own = fromContainer(childOf(prep, 'Limitations'), 'preparation');
  const itCodes = childrenOf(childOf(prep, 'ItCodes'), 'ItCode').flatMap((c) => fromContainer(childOf(c, 'Limitations'), 'preparation'));
  return [...own, ...itCodes];
}

/** Limitations attached to one pack. */
export function packLimitations(pack: XmlElement): SlLimitation[] {
  return fromContainer(childOf(pack, 'Limitations'), 'pack');
}

/** All limitation texts, blank-line separated (what readers of `sl.limitation.text` expect). */
export function limitationText(limitations: readonly SlLimitation[]): string {
  return limitations.map((l) => l.text).filter(Boolean).join('\n\n');
}

/** Default co-insurance share (KLV Art. 38a para. 1). */
const DEFAULT_COINSURANCE = 10;
/** The higher share for flagged preparations: 20 % until 2023, 40 % since 1 January 2024. */
const HIGHER_COINSURANCE_BEFORE_2024 = 20;
const HIGHER_COINSURANCE = 40;

/**
 * Co-insurance of a preparation. The flag marking the higher co-insurance is `FlagSB20` in
 * the older schema and `FlagSB` in the newer one (oddb2xml reads either as "deductible" and
 * writes 20 for Y, 10 for N); `Y` in either means the higher share. The flag names a
 * category, not a rate: the rate is the law's at the list's release date (20 % until the end
 * of 2023, 40 % from 2024), and the current 40 % when the file carries no release date.
 */
export function coinsurancePercent(prep: XmlElement, releaseDate: string | null): number {
  const higher = textOf(prep, 'FlagSB') === 'Y' || textOf(prep, 'FlagSB20') === 'Y';
  if (!higher) return DEFAULT_COINSURANCE;
  return releaseDate !== null && releaseDate < '2024-01-01' ? HIGHER_COINSURANCE_BEFORE_2024 : HIGHER_COINSURANCE;
}

/** IT codes of the preparation, most specific (longest) first: `07.02.40.`, `07.02.`, `07.`. */
export function itCodes(prep: XmlElement): Array<{ code: string; label: string }> {
  return childrenOf(childOf(prep, 'ItCodes'), 'ItCode')
    .map((c) => ({ code: attrOf(c, 'Code'), label: textOf(c, 'DescriptionDe') }))
    .filter((c) => c.code !== '')
    .sort((a, b) => b.code.length - a.code.length);
}
