/**
 * Swiss Spezialitätenliste (BAG, FOPH): `Preparations.xml` from the monthly XML publication,
 * in both schemas in use. Root `Preparations` (attribute ReleaseDate), one `Preparation` per
 * medicine (NameDe/Fr/It, DescriptionDe, AtcCode, SwissmedicNo5, OrgGenCode, FlagSB20 in the
 * older schema / FlagSB in the newer, FlagGGSL, GammeNumber/GammeName, Limitations,
 * Substances, Packs, ItCodes) and one `Pack` per package (attributes Pharmacode, PackId;
 * DescriptionDe, SwissmedicCategory, SwissmedicNo8, BagDossierNo, GTIN, PrevGTINcode, Limitations,
 * PointLimitations, Prices/ExFactoryPrice|PublicPrice/Price, Status/IntegrationDate).
 *
 * Keys (stable across monthly files): a product by the BAG's `ProductCommercial` attribute,
 * else its 5-digit Swissmedic number, else `dossier:<BagDossierNo>` of its first pack. A pack
 * by its GTIN; files without a GTIN element get it rebuilt as 7680 + SwissmedicNo8 + GS1 check
 * digit (how Swiss medicine GTINs are formed); a pack with neither (non-Swissmedic products
 * such as foods for special medical purposes) is keyed `phar:<Pharmacode>`, else
 * `dossier:<BagDossierNo>:<DescriptionDe>`. Such preparations and packs are kept.
 * Substances are named in Latin without UNIIs, so they get provisional name keys.
 * The file is streamed (see xml-stream.ts): memory holds one preparation at a time.
 */
import { completeGtin } from '../../../vocabulary/check-digits.ts';
import { atcLevel, normaliseGtin } from '../../../vocabulary/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import type { AdapterResult, Ingredient, PackEntry, Price, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import {
  RowError, isoFromDayFirst, leadingQuantity, parseDecimal, provisionalNameKey,
} from './common.ts';
import { coinsurancePercent, itCodes, limitationText, packLimitations, preparationLimitations } from './ch-sl-xml.ts';
import { attrOf, childOf, childrenOf, streamRecords, textOf } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

export const CH_SL_FILE = 'Preparations.xml';

export const CH_SL_SOURCE: SourceInfo = {
  id: 'ch-sl',
  name: 'Spezialitätenliste (BAG)',
  country: 'CH',
  // The BAG publishes the list on the first of every month.
  refresh_interval_hours: 24 * 32,
  url: 'https://www.spezialitätenliste.ch/',
};

interface Context {
  file: string;
  /** One row per Preparation element. */
  tally: RowTally;
  problems: RowProblem[];
  releaseDate: string | null;
  substances: Map<string, SubstanceEntry>;
  productKeys: Set<string>;
  packKeys: Set<string>;
  products: ProductEntry[];
}

/** A Preparation whose key (Swissmedic number, else its name key) an earlier one had: the first is kept. */
class DuplicatePreparation extends Error {}

function ingredients(prep: XmlElement, substances: Map<string, SubstanceEntry>): Ingredient[] {
  const out: Ingredient[] = [];
  for (const substance of childrenOf(childOf(prep, 'Substances'), 'Substance')) {
    const name = textOf(substance, 'DescriptionLa');
    if (name === '') continue;
    const key = provisionalNameKey(name);
    if (!substances.has(key)) substances.set(key, { unii: key, name, names: { la: name }, provisional: true });
    const value = parseDecimal(textOf(substance, 'Quantity'));
    const unit = textOf(substance, 'QuantityUnit');
    out.push(value === null ? { unii: key } : { unii: key, strength_value: value, ...(unit ? { strength_unit: unit } : {}) });
  }
  return out;
}

/** Ex-factory and public price of a pack; a RowError for a non-numeric price. */
function prices(pack: XmlElement): Price[] {
  const out: Price[] = [];
  for (const [element, kind] of [['ExFactoryPrice', 'ex_factory'], ['PublicPrice', 'public']] as const) {
    const node = childOf(childOf(pack, 'Prices'), element);
    const raw = textOf(node, 'Price');
    if (raw === '') continue;
    const amount = parseDecimal(raw);
    if (amount === null) throw new RowError(`${element} "${raw}" is not a number`);
    const validFrom = isoFromDayFirst(textOf(node, 'ValidFromDate'));
    out.push({ amount, currency: 'CHF', kind, ...(validFrom ? { valid_from: validFrom } : {}) });
  }
  return out;
}

/** 8-digit Swissmedic pack number; older files drop leading zeros (`585001`). */
function swissmedicNo8(pack: XmlElement): string | null {
  const raw = textOf(pack, 'SwissmedicNo8');
  return /^\d{6,8}$/.test(raw) && Number(raw) > 0 ? raw.padStart(8, '0') : null;
}

function pharmacodeOf(pack: XmlElement): string | null {
  const raw = attrOf(pack, 'Pharmacode').replace(/^0+/, '');
  return /^\d+$/.test(raw) ? raw : null;
}

/** The pack's natural key and GTIN (null when it has none); see the module comment. */
function packKey(pack: XmlElement): { key: string; gtin: string | null } {
  const given = textOf(pack, 'GTIN');
  if (given !== '') {
    const gtin = normaliseGtin(given);
    if (!gtin) throw new RowError(`GTIN "${given}" has a wrong check digit or length`);
    return { key: gtin, gtin };
  }
  const no8 = swissmedicNo8(pack);
  if (no8) {
    const gtin = completeGtin(`7680${no8}`);
    return { key: gtin, gtin };
  }
  const pharmacode = pharmacodeOf(pack);
  if (pharmacode) return { key: `phar:${pharmacode}`, gtin: null };
  const dossier = textOf(pack, 'BagDossierNo');
  const description = textOf(pack, 'DescriptionDe');
  if (dossier && description) return { key: `dossier:${dossier}:${description}`, gtin: null };
  throw new RowError('pack has no GTIN, SwissmedicNo8, Pharmacode or BagDossierNo with a description');
}

function slEntry(prep: XmlElement, pack: XmlElement, packPrices: Price[], ctx: Context): NonNullable<PackEntry['sl']> {
  const limitations = [...preparationLimitations(prep), ...packLimitations(pack)];
  const limitationBody = limitationText(limitations);
  const points = parseDecimal(textOf(childrenOf(childOf(pack, 'PointLimitations'), 'PointLimitation')[0], 'Points'));
  const sl: NonNullable<PackEntry['sl']> = {
    listed: true,
    coinsurance_percent: coinsurancePercent(prep, ctx.releaseDate),
    limitation: limitationBody === '' && points === null ? null : { text: limitationBody, ...(points === null ? {} : { points }) },
  };
  if (limitations.length > 0) sl.limitations = limitations;
  const publicPrice = packPrices.find((p) => p.kind === 'public');
  if (publicPrice) sl.public_price = publicPrice.amount;
  const exFactory = packPrices.find((p) => p.kind === 'ex_factory');
  if (exFactory) sl.ex_factory_price = exFactory.amount;
  const flag = textOf(prep, 'OrgGenCode');
  if (flag === 'G' || flag === 'O') sl.flag = flag;
  const since = isoFromDayFirst(textOf(childOf(pack, 'Status'), 'IntegrationDate'));
  if (since) sl.listed_since = since;
  return sl;
}

function buildPack(prep: XmlElement, pack: XmlElement, ctx: Context): PackEntry {
  const { key, gtin } = packKey(pack);
  if (ctx.packKeys.has(key)) throw new RowError(`pack ${key} appears twice`);
  const packPrices = prices(pack);
  const description = textOf(pack, 'DescriptionDe') || textOf(pack, 'DescriptionFr');
  const entry: PackEntry = { key, description, identifiers: [], marketing_status: 'active' };
  if (gtin) entry.identifiers.push({ system: 'gtin', code: gtin });
  // The newer schema names the GTIN a pack had before (PrevGTINcode); it keeps resolving.
  const previous = normaliseGtin(textOf(pack, 'PrevGTINcode'));
  if (previous && previous !== gtin) entry.identifiers.push({ system: 'gtin', code: previous, previous: true });
  const no8 = swissmedicNo8(pack);
  if (no8) entry.identifiers.push({ system: 'swissmedic_no', code: no8 });
  const pharmacode = pharmacodeOf(pack);
  if (pharmacode) entry.identifiers.push({ system: 'pharmacode', code: pharmacode });
  if (packPrices.length > 0) entry.prices = packPrices;
  entry.sl = slEntry(prep, pack, packPrices, ctx);
  const category = textOf(pack, 'SwissmedicCategory').toUpperCase();
  if (/^[A-E]$/.test(category)) entry.dispensing_category = category;
  const quantity = leadingQuantity(description);
  if (quantity) Object.assign(entry, quantity);
  ctx.packKeys.add(key);
  return entry;
}

function holderOf(prep: XmlElement): string {
  for (const pack of childrenOf(childOf(prep, 'Packs'), 'Pack')) {
    const partner = childrenOf(childOf(pack, 'Partners'), 'Partner').find((p) => textOf(p, 'PartnerType') === 'V');
    if (partner) return textOf(partner, 'Description');
  }
  return '';
}

/** Register facts without a field of their own, by documented name (empty ones left out). */
function attributes(prep: XmlElement): Record<string, string> {
  const codes = itCodes(prep);
  const dossiers = new Set(childrenOf(childOf(prep, 'Packs'), 'Pack').map((p) => textOf(p, 'BagDossierNo')).filter(Boolean));
  const out: Record<string, string> = {
    sl_it_code: codes[0]?.code ?? '',
    sl_it_code_label: codes[0]?.label ?? '',
    sl_it_codes: codes.map((c) => c.code).join(' '),
    sl_org_gen_code: textOf(prep, 'OrgGenCode'),
    sl_flag_sb: textOf(prep, 'FlagSB'),
    sl_flag_sb20: textOf(prep, 'FlagSB20'),
    sl_flag_ggsl: textOf(prep, 'FlagGGSL'),
    sl_gamme_number: textOf(prep, 'GammeNumber'),
    sl_gamme_name: textOf(prep, 'GammeName'),
    sl_price_model: textOf(prep, 'Preismodell'),
    sl_vat_in_exf: textOf(prep, 'VatInEXF'),
    sl_comment_de: textOf(prep, 'CommentDe'),
    bag_dossier_no: dossiers.size === 1 ? [...dossiers][0]! : '',
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== ''));
}

function productKey(prep: XmlElement, swissmedic: string | null): string {
  const commercial = attrOf(prep, 'ProductCommercial');
  if (commercial) return commercial;
  if (swissmedic) return swissmedic;
  const dossier = childrenOf(childOf(prep, 'Packs'), 'Pack').map((p) => textOf(p, 'BagDossierNo')).find(Boolean);
  if (dossier) return `dossier:${dossier}`;
  throw new RowError('preparation has no ProductCommercial, SwissmedicNo5 or BagDossierNo');
}

function buildProduct(prep: XmlElement, ctx: Context): ProductEntry {
  const name = textOf(prep, 'NameDe') || textOf(prep, 'NameFr') || textOf(prep, 'NameIt');
  if (name === '') throw new RowError('preparation has no NameDe');
  const no5 = textOf(prep, 'SwissmedicNo5');
  if (no5 !== '' && !/^\d{1,5}$/.test(no5)) throw new RowError(`SwissmedicNo5 "${no5}" is not a Swissmedic number`);
  // oddb2xml documents SwissmedicNo5 0 for preparations without a Swissmedic authorisation.
  const swissmedic = no5 !== '' && Number(no5) > 0 ? no5.padStart(5, '0') : null;
  const key = productKey(prep, swissmedic);
  if (ctx.productKeys.has(key)) throw new DuplicatePreparation(key);
  const product: ProductEntry = {
    key,
    country: 'CH',
    product_name: [name, textOf(prep, 'DescriptionDe')].filter(Boolean).join(' '),
    brand: name,
    identifiers: swissmedic ? [{ system: 'swissmedic_no', code: swissmedic }] : [],
    ingredients: ingredients(prep, ctx.substances),
    packs: [],
    marketing_status: 'active',
  };
  const atc = textOf(prep, 'AtcCode').toUpperCase();
  if (atcLevel(atc) !== null) product.atc_code = atc;
  const flag = textOf(prep, 'OrgGenCode');
  if (flag === 'G' || flag === 'O') product.generic = flag === 'G';
  const holder = holderOf(prep);
  if (holder) product.holder = holder;
  const attrs = attributes(prep);
  if (Object.keys(attrs).length > 0) product.attributes = attrs;
  ctx.productKeys.add(key);
  return product;
}

function addPacks(prep: XmlElement, product: ProductEntry, ctx: Context): void {
  for (const pack of childrenOf(childOf(prep, 'Packs'), 'Pack')) {
    try {
      product.packs.push(buildPack(prep, pack, ctx));
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      // A pack is part of its preparation's row: reported with its line, the preparation kept.
      ctx.problems.push({ file: ctx.file, line: pack.line, message: error.message });
    }
  }
  // The product's category when every pack has the same one.
  const categories = new Set(product.packs.map((p) => p.dispensing_category));
  const [only] = categories;
  if (categories.size === 1 && only) product.dispensing_category = only;
}

function onPreparation(prep: XmlElement, line: number, ctx: Context): void {
  try {
    const product = buildProduct(prep, ctx);
    addPacks(prep, product, ctx);
    ctx.products.push(product);
    ctx.tally.keep();
  } catch (error) {
    if (error instanceof DuplicatePreparation) ctx.tally.exclude(EXCLUDED.duplicate);
    else if (error instanceof RowError) ctx.tally.malformedRow(line, error.message);
    else throw error;
  }
}

/** Parses the SL's Preparations.xml; malformed preparations and packs are reported and skipped. */
export function parseChSl(file: string, content: Buffer): AdapterResult {
  const problems: RowProblem[] = [];
  const ctx: Context = {
    file, tally: new RowTally(file, problems), problems, releaseDate: null, substances: new Map(), productKeys: new Set(), packKeys: new Set(), products: [],
  };
  streamRecords(file, content, {
    roots: ['Preparations'],
    records: ['Preparation'],
    onRoot: (attrs) => { ctx.releaseDate = isoFromDayFirst(attrs.ReleaseDate ?? ''); },
    onRecord: (_path, prep, line) => onPreparation(prep, line, ctx),
  });
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: CH_SL_SOURCE, substances: [...ctx.substances.values()], products: ctx.products },
    problems,
    files: [ctx.tally.report('Preparations')],
  };
}
