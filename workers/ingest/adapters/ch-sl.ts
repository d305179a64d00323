/**
 * Swiss Spezialitätenliste (BAG, FOPH): `Preparations.xml` from the monthly XML publication.
 * Root `Preparations`, one `Preparation` per medicine (NameDe/Fr/It, DescriptionDe, AtcCode,
 * SwissmedicNo5, OrgGenCode, FlagSB / FlagSB20, Limitations, Substances, Packs, ItCodes) and
 * one `Pack` per package (DescriptionDe, SwissmedicNo8, GTIN, BagDossierNo, Limitations,
 * PointLimitations, Prices/ExFactoryPrice|PublicPrice/Price, Status/IntegrationDate).
 *
 * Keys: a product is keyed by the BAG's `ProductCommercial` attribute (falling back to the
 * Swissmedic number), a pack by its GTIN. Older files have no GTIN element; there the GTIN is
 * rebuilt as 7680 + SwissmedicNo8 + GS1 check digit, which is how Swiss medicine GTINs are formed.
 * Co-insurance: 10 % by default; 40 % when the preparation carries the higher-deductible flag
 * (`FlagSB`, in force since 2024; older files mark the same category with `FlagSB20`).
 * Substances are named in Latin without UNIIs, so they get provisional name keys.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { completeGtin } from '../../../resolvers/catalogue/check-digits.ts';
import { atcLevel, normaliseGtin } from '../../../resolvers/catalogue/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, Ingredient, PackEntry, Price, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import {
  FileRejectedError, ProblemLog, RowError, decodeText, isoFromDayFirst, leadingQuantity, parseDecimal, provisionalNameKey,
} from './common.ts';
import { child, children, elementLines, limitationText, text } from './ch-sl-xml.ts';
import type { Node } from './ch-sl-xml.ts';

export const CH_SL_FILE = 'Preparations.xml';

export const CH_SL_SOURCE: SourceInfo = {
  id: 'ch-sl',
  name: 'Spezialitätenliste (BAG)',
  country: 'CH',
  // The BAG publishes the list on the first of every month.
  refresh_interval_hours: 24 * 32,
  url: 'https://www.spezialitätenliste.ch/',
};

/** Elements that repeat and must always parse as arrays. */
const REPEATED = new Set(['Preparation', 'Pack', 'Limitation', 'PointLimitation', 'Substance', 'ItCode', 'Partner']);

/** Deductible when the higher co-insurance flag is set, and otherwise (KLV Art. 38a). */
const HIGHER_COINSURANCE = 40;
const DEFAULT_COINSURANCE = 10;

interface Context {
  file: string;
  log: ProblemLog;
  substances: Map<string, SubstanceEntry>;
  packLines: number[];
  packIndex: number;
}

function parseXml(file: string, xml: string): Node {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new FileRejectedError(file, `not well-formed XML at line ${valid.err.line}: ${valid.err.msg}`);
  const parser = new XMLParser({
    ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, parseAttributeValue: false,
    isArray: (name) => REPEATED.has(name),
  });
  const root = child(parser.parse(xml) as Node, 'Preparations');
  if (!root) throw new FileRejectedError(file, 'root element is not <Preparations>');
  return root;
}

function ingredients(prep: Node, substances: Map<string, SubstanceEntry>): Ingredient[] {
  const out: Ingredient[] = [];
  for (const substance of children(child(prep, 'Substances'), 'Substance')) {
    const name = text(substance, 'DescriptionLa');
    if (name === '') continue;
    const key = provisionalNameKey(name);
    if (!substances.has(key)) substances.set(key, { unii: key, name, names: { la: name }, provisional: true });
    const value = parseDecimal(text(substance, 'Quantity'));
    const unit = text(substance, 'QuantityUnit');
    out.push(value === null ? { unii: key } : { unii: key, strength_value: value, ...(unit ? { strength_unit: unit } : {}) });
  }
  return out;
}

/** Ex-factory and public price of a pack, or an error message for a non-numeric price. */
function prices(pack: Node): Price[] | string {
  const out: Price[] = [];
  for (const [element, kind] of [['ExFactoryPrice', 'ex_factory'], ['PublicPrice', 'public']] as const) {
    const node = child(child(pack, 'Prices'), element);
    const raw = text(node, 'Price');
    if (raw === '') continue;
    const amount = parseDecimal(raw);
    if (amount === null) return `${element} "${raw}" is not a number`;
    const validFrom = isoFromDayFirst(text(node, 'ValidFromDate'));
    out.push({ amount, currency: 'CHF', kind, ...(validFrom ? { valid_from: validFrom } : {}) });
  }
  return out;
}

/** Pack GTIN: the GTIN element, else rebuilt from SwissmedicNo8; a RowError when neither is usable. */
function packGtin(pack: Node): string {
  const given = text(pack, 'GTIN');
  const no8 = text(pack, 'SwissmedicNo8');
  const gtin = given !== '' ? normaliseGtin(given) : (/^\d{8}$/.test(no8) ? completeGtin(`7680${no8}`) : null);
  if (!gtin) throw new RowError(given !== '' ? `GTIN "${given}" has a wrong check digit or length` : 'pack has neither a GTIN nor an 8-digit SwissmedicNo8');
  return gtin;
}

function slEntry(prep: Node, pack: Node, packPrices: Price[]): NonNullable<PackEntry['sl']> {
  const higher = text(prep, 'FlagSB') === 'Y' || text(prep, 'FlagSB20') === 'Y';
  const limitation = limitationText([child(prep, 'Limitations'), child(pack, 'Limitations')]);
  const points = parseDecimal(text(children(child(pack, 'PointLimitations'), 'PointLimitation')[0], 'Points'));
  const sl: NonNullable<PackEntry['sl']> = {
    listed: true,
    coinsurance_percent: higher ? HIGHER_COINSURANCE : DEFAULT_COINSURANCE,
    limitation: limitation === '' && points === null ? null : { text: limitation, ...(points === null ? {} : { points }) },
  };
  const publicPrice = packPrices.find((p) => p.kind === 'public');
  if (publicPrice) sl.public_price = publicPrice.amount;
  const exFactory = packPrices.find((p) => p.kind === 'ex_factory');
  if (exFactory) sl.ex_factory_price = exFactory.amount;
  const flag = text(prep, 'OrgGenCode');
  if (flag === 'G' || flag === 'O') sl.flag = flag;
  const since = isoFromDayFirst(text(child(pack, 'Status'), 'IntegrationDate'));
  if (since) sl.listed_since = since;
  return sl;
}

function buildPack(prep: Node, pack: Node): PackEntry {
  const gtin = packGtin(pack);
  const packPrices = prices(pack);
  if (typeof packPrices === 'string') throw new RowError(packPrices);
  const description = text(pack, 'DescriptionDe');
  const entry: PackEntry = { key: gtin, description, identifiers: [{ system: 'gtin', code: gtin }], marketing_status: 'active' };
  const no8 = text(pack, 'SwissmedicNo8');
  if (/^\d{8}$/.test(no8)) entry.identifiers.push({ system: 'swissmedic_no', code: no8 });
  const pharmacode = text(pack, '@_Pharmacode').replace(/^0+/, '');
  if (/^\d+$/.test(pharmacode)) entry.identifiers.push({ system: 'pharmacode', code: pharmacode });
  if (packPrices.length > 0) entry.prices = packPrices;
  entry.sl = slEntry(prep, pack, packPrices);
  const quantity = leadingQuantity(description);
  if (quantity) Object.assign(entry, quantity);
  return entry;
}

function holderOf(prep: Node): string {
  for (const pack of children(child(prep, 'Packs'), 'Pack')) {
    const partner = children(child(pack, 'Partners'), 'Partner').find((p) => text(p, 'PartnerType') === 'V');
    if (partner) return text(partner, 'Description');
  }
  return '';
}

function buildProduct(prep: Node, ctx: Context): ProductEntry | string {
  const name = text(prep, 'NameDe') || text(prep, 'NameFr');
  const no5 = text(prep, 'SwissmedicNo5');
  if (name === '') return 'preparation has no NameDe';
  if (!/^\d{1,5}$/.test(no5)) return `SwissmedicNo5 "${no5}" is not a Swissmedic number`;
  const swissmedic = no5.padStart(5, '0');
  const product: ProductEntry = {
    key: text(prep, '@_ProductCommercial') || swissmedic,
    country: 'CH',
    product_name: [name, text(prep, 'DescriptionDe')].filter(Boolean).join(' '),
    brand: name,
    identifiers: [{ system: 'swissmedic_no', code: swissmedic }],
    ingredients: ingredients(prep, ctx.substances),
    packs: [],
    marketing_status: 'active',
  };
  const atc = text(prep, 'AtcCode').toUpperCase();
  if (atcLevel(atc) !== null) product.atc_code = atc;
  const flag = text(prep, 'OrgGenCode');
  if (flag === 'G' || flag === 'O') product.generic = flag === 'G';
  if (holderOf(prep)) product.holder = holderOf(prep);
  return product;
}

function addPacks(prep: Node, product: ProductEntry, ctx: Context): void {
  for (const pack of children(child(prep, 'Packs'), 'Pack')) {
    const line = ctx.packLines[ctx.packIndex] ?? 0;
    ctx.packIndex += 1;
    try {
      product.packs.push(buildPack(prep, pack));
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      ctx.log.add(ctx.file, line, error.message);
    }
  }
}

/** Parses the SL's Preparations.xml; malformed preparations and packs are reported and skipped. */
export function parseChSl(file: string, content: Buffer): AdapterResult {
  const xml = decodeText(content);
  const root = parseXml(file, xml);
  const prepLines = elementLines(xml, 'Preparation');
  const ctx: Context = { file, log: new ProblemLog(), substances: new Map(), packLines: elementLines(xml, 'Pack'), packIndex: 0 };
  const products: ProductEntry[] = [];
  children(root, 'Preparation').forEach((prep, i) => {
    const product = buildProduct(prep, ctx);
    if (typeof product === 'string') {
      ctx.log.add(file, prepLines[i] ?? 0, product);
      ctx.packIndex += children(child(prep, 'Packs'), 'Pack').length;
      return;
    }
    addPacks(prep, product, ctx);
    products.push(product);
  });
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: CH_SL_SOURCE, substances: [...ctx.substances.values()], products },
    problems: ctx.log.problems,
  };
}
