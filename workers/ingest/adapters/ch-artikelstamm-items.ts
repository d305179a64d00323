/**
 * One Artikelstamm v5 `ITEM` (an article: a pack with GTIN, pharmacode, prices, SL data)
 * to a PackEntry. Split from ch-artikelstamm.ts, which assembles products and limitations.
 */
import { normaliseGtin } from '../../../vocabulary/codes.ts';
import type { PackEntry, Price } from '../snapshot.ts';
import { RowError, parseDecimal } from './common.ts';
import { attrOf, childOf, textOf } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

/** An ITEM read into its pack and the facts the product needs. */
export interface ItemRead {
  pack: PackEntry;
  /** PRODNO of a pharma article; null for non-pharma articles (PHARMATYPE N or no PRODNO). */
  prodno: string | null;
  name: string;
  holder: string;
  genericType: string;
}

/** Pharmacode without leading zeros (the v5 files write `0177804`). */
function pharmacodeOf(item: XmlElement): string | null {
  const raw = textOf(item, 'PHAR');
  if (raw === '') return null;
  if (!/^\d+$/.test(raw)) throw new RowError(`PHAR "${raw}" is not a pharmacode`);
  const code = raw.replace(/^0+/, '');
  return code === '' ? null : code;
}

function gtinOf(item: XmlElement): string | null {
  const raw = textOf(item, 'GTIN');
  if (raw === '') return null;
  const gtin = /^\d+$/.test(raw) ? normaliseGtin(raw) : null;
  if (!gtin) throw new RowError(`GTIN "${raw}" is not a valid GTIN`);
  return gtin;
}

function prices(item: XmlElement): Price[] {
  const out: Price[] = [];
  for (const [element, kind] of [['PEXF', 'ex_factory'], ['PPUB', 'public']] as const) {
    const raw = textOf(item, element);
    if (raw === '') continue;
    const amount = parseDecimal(raw);
    if (amount === null) throw new RowError(`${element} "${raw}" is not a number`);
    // Some generators write 0 for "no price"; a zero price is never a real one.
    if (amount > 0) out.push({ amount, currency: 'CHF', kind });
  }
  return out;
}

function slEntry(item: XmlElement, packPrices: Price[]): PackEntry['sl'] {
  const sl: NonNullable<PackEntry['sl']> = { listed: true };
  const publicPrice = packPrices.find((p) => p.kind === 'public');
  if (publicPrice) sl.public_price = publicPrice.amount;
  const exFactory = packPrices.find((p) => p.kind === 'ex_factory');
  if (exFactory) sl.ex_factory_price = exFactory.amount;
  const deductible = parseDecimal(textOf(item, 'DEDUCTIBLE'));
  // DEDUCTIBLE is the co-insurance share in percent (10, 20 before 2024, 40 since).
  if (deductible !== null) sl.coinsurance_percent = deductible;
  const flag = textOf(item, 'GENERIC_TYPE');
  if (flag === 'G' || flag === 'O') sl.flag = flag;
  const points = parseDecimal(textOf(item, 'LIMITATION_PTS'));
  if (points !== null) sl.limitation = { text: '', points };
  return sl;
}

function identifiers(gtin: string | null, pharmacode: string | null): PackEntry['identifiers'] {
  const out: PackEntry['identifiers'] = [];
  if (gtin) out.push({ system: 'gtin', code: gtin });
  // Swiss medicine GTINs are 7680 + the 8-digit Swissmedic pack number + check digit.
  if (gtin && gtin.length === 13 && gtin.startsWith('7680')) out.push({ system: 'swissmedic_no', code: gtin.slice(4, 12) });
  if (pharmacode) out.push({ system: 'pharmacode', code: pharmacode });
  return out;
}

/** Reads one ITEM; a RowError for an unusable code or price. */
export function readItem(item: XmlElement): ItemRead {
  const gtin = gtinOf(item);
  const pharmacode = pharmacodeOf(item);
  if (!gtin && !pharmacode) throw new RowError('ITEM has neither a GTIN nor a pharmacode');
  const description = textOf(item, 'DSCR') || textOf(item, 'DSCRF');
  const pack: PackEntry = {
    key: gtin ?? `phar:${pharmacode!}`,
    description,
    identifiers: identifiers(gtin, pharmacode),
    marketing_status: textOf(item, 'SALECD') === 'I' ? 'withdrawn' : 'active',
  };
  const packPrices = prices(item);
  if (packPrices.length > 0) pack.prices = packPrices;
  const size = parseDecimal(textOf(item, 'PKG_SIZE'));
  if (size !== null && size > 0) {
    pack.units = size;
    const unit = textOf(item, 'MEASURE');
    if (unit) pack.unit = unit;
  }
  const category = textOf(item, 'IKSCAT').toUpperCase();
  if (/^[A-E]$/.test(category)) pack.dispensing_category = category;
  if (textOf(item, 'SL_ENTRY') === 'true') pack.sl = slEntry(item, packPrices);
  const prodno = textOf(item, 'PRODNO');
  const pharma = attrOf(item, 'PHARMATYPE') !== 'N' && prodno !== '';
  return {
    pack, prodno: pharma ? prodno : null, name: description, holder: textOf(childOf(item, 'COMP'), 'NAME'), genericType: textOf(item, 'GENERIC_TYPE'),
  };
}
