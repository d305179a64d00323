/**
 * Läkemedelsverket's NPL products joined with TLV's list inside one snapshot: a product of the
 * list with the same NPL-id gains NPL's facts (product class, sales stop, narcotic class, the
 * OTC status of each package matched by NPL pack id), and products and packages TLV does not
 * list (medicines outside the benefits, over-the-counter packs, licence products) are added,
 * keyed by their NPL ids. Both files describe one Swedish market, so they make one source.
 */
import type { PackEntry, ProductEntry } from '../snapshot.ts';
import { leadingQuantity } from './common.ts';
import type { NplPackage, NplProduct } from './se-npl-xml.ts';

/** NPL narcotic classes as the Swedish narcotics lists (förteckning II-V) they stand for; 0 means none. */
const NARCOTIC_LISTS: Record<string, string> = { 1: 'II', 3: 'III', 4: 'IV', 5: 'V' };

function narcoticList(product: NplProduct): string | undefined {
  if (product.narcoticClass === '' || product.narcoticClass === '0') return undefined;
  return NARCOTIC_LISTS[product.narcoticClass] ?? product.narcoticClass;
}

function newProduct(npl: NplProduct): ProductEntry {
  const product: ProductEntry = {
    key: npl.nplId,
    country: 'SE',
    product_name: [npl.name, npl.strength].filter(Boolean).join(' '),
    brand: npl.name,
    identifiers: [{ system: 'se_npl_id', code: npl.nplId }],
    ingredients: [],
    packs: [],
  };
  if (npl.strength !== '') product.attributes = { styrka: npl.strength };
  return product;
}

function newPack(npl: NplProduct, pkg: NplPackage): PackEntry {
  const pack: PackEntry = { key: pkg.packId, description: pkg.text || npl.name, identifiers: [{ system: 'se_npl_pack_id', code: pkg.packId }] };
  const units = leadingQuantity(pkg.text);
  if (units) Object.assign(pack, units);
  return pack;
}

/** Applies NPL's product-level facts to a product, and its packages to the product's packs. */
function applyProduct(product: ProductEntry, npl: NplProduct, packsById: Map<string, PackEntry>): void {
  if (!product.atc_code && npl.atc !== '') product.atc_code = npl.atc;
  const attributes: Record<string, string | number | boolean> = { ...product.attributes };
  if (npl.productClass !== '') attributes.npl_produktklass = npl.productClass;
  if (npl.formCode !== '') attributes.npl_lakemedelsform = npl.formCode;
  product.attributes = attributes;
  if (npl.salesStopped) product.marketing_status = 'withdrawn';
  const narcotic = narcoticList(npl);
  for (const pkg of npl.packages) {
    let pack = packsById.get(pkg.packId);
    if (!pack) {
      pack = newPack(npl, pkg);
      product.packs.push(pack);
      packsById.set(pkg.packId, pack);
    }
    pack.dispensing_category = pkg.otc ? 'receptfri' : 'receptbelagd';
    if (narcotic) pack.narcotic_list = narcotic;
    if (npl.salesStopped) pack.marketing_status = 'withdrawn';
  }
}

/** Joins NPL products into the products read from TLV's list (keyed by NPL-id where the list gives one). */
export function joinNplProducts(products: Map<string, ProductEntry>, npl: readonly NplProduct[]): void {
  const packsById = new Map<string, PackEntry>();
  for (const product of products.values()) {
    for (const pack of product.packs) {
      const id = pack.identifiers.find((i) => i.system === 'se_npl_pack_id')?.code;
      if (id) packsById.set(id, pack);
    }
  }
  for (const item of npl) {
    let product = products.get(item.nplId);
    if (!product) {
      product = newProduct(item);
      products.set(item.nplId, product);
    }
    applyProduct(product, item, packsById);
  }
}
