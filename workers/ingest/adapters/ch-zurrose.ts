/**
 * Zur Rose article master `transfer.dat` (Switzerland): fixed width, ISO-8859-1 (read as
 * Windows-1252, of which it is a subset in every printable byte), CRLF, one 97-character
 * record per line. The layout is the one oddb2xml both reads (ZurroseExtractor) and writes
 * (Builder#build_dat, `DAT_LEN`), offsets 0-based:
 *
 *   0 RECA 2  record type `11`          60 PRMO 6  ex-factory price, Rappen
 *   2 CMUT 1  mutation code (3 = out of trade)  66 PRPU 6  public price, Rappen
 *   3 PHAR 7  pharmacode, zero-padded    72 CKZL 1  1 SL, 2 LPPV, 3 not reimbursed
 *  10 ABEZ 50 description (German)      73 CLAG 1  1 = cold chain
 *  74 CBGG 1  narcotic flag (non-zero)  75 CIKS 1  Swissmedic category A-E (0 or blank: none)
 *  76 ITHE 7  index therapeuticus        83 CEAN 13 GTIN (all zeros: none)
 *  96 CMWS 1  VAT code (1 normal, 2 reduced)
 *
 * Each article is its own product and pack, keyed by GTIN, else `pharmacode:<n>`. A repeated
 * pharmacode keeps its FIRST line (as oddb2xml does); later lines are counted as skipped. A
 * second pharmacode with a GTIN already seen is added to that pack as another pharmacode
 * identifier. Veterinary lines ("ad us. vet.", "(vet)") are kept with `veterinary: true`.
 */
import { normaliseGtin } from '../../../resolvers/catalogue/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, PackEntry, Price, ProductEntry, SourceInfo } from '../snapshot.ts';
import { FileRejectedError, ProblemLog, decodeText, leadingQuantity } from './common.ts';
import { VETERINARY_NAME } from './ch-refdata.ts';

export const CH_ZURROSE_FILE = 'transfer.dat';

export const CH_ZURROSE_SOURCE: SourceInfo = {
  id: 'ch-zurrose',
  name: 'Zur Rose article master (transfer.dat)',
  country: 'CH',
  refresh_interval_hours: 48,
  url: 'https://www.zurrose.ch/',
};

const LINE_LENGTH = 97;

const INSURANCE_LISTING: Record<string, string> = { 1: 'SL', 2: 'LPPV', 3: 'none' };

/** One well-formed line. */
interface DatLine {
  line: number;
  outOfTrade: boolean;
  pharmacode: string;
  description: string;
  exFactoryCents: number;
  publicCents: number;
  listing: string;
  coldChain: boolean;
  narcotic: boolean;
  category: string;
  itCode: string;
  gtin: string | null;
  vat: string;
}

const field = (text: string, start: number, length: number): string => text.slice(start, start + length);

/** Checks the fixed fields; returns the first malformed one's message, or null. */
function malformed(text: string): string | null {
  if (text.length < LINE_LENGTH || text.slice(LINE_LENGTH).trim() !== '') return `line has ${text.length} characters, expected ${LINE_LENGTH}`;
  const checks: Array<[string, number, number, RegExp]> = [
    ['record type', 0, 2, /^11$/], ['mutation code', 2, 1, /^\d$/], ['pharmacode', 3, 7, /^\d{7}$/],
    ['ex-factory price', 60, 6, /^\d{6}$/], ['public price', 66, 6, /^\d{6}$/], ['reimbursement code', 72, 1, /^[\d ]$/],
    ['storage code', 73, 1, /^[\d ]$/], ['narcotic code', 74, 1, /^[\d ]$/], ['Swissmedic category', 75, 1, /^[A-E0 ]$/],
    ['index therapeuticus', 76, 7, /^[\d ]{7}$/], ['GTIN', 83, 13, /^\d{13}$/], ['VAT code', 96, 1, /^\d$/],
  ];
  for (const [name, start, length, pattern] of checks) {
    const value = field(text, start, length);
    if (!pattern.test(value)) return `${name} "${value}" at column ${start + 1} is malformed`;
  }
  if (/^0+$/.test(field(text, 3, 7))) return 'pharmacode is zero';
  return null;
}

/** A line's fields, or the reason it is malformed. */
function parseLine(text: string, line: number): DatLine | string {
  const problem = malformed(text);
  if (problem) return problem;
  const rawGtin = field(text, 83, 13);
  const gtin = /^0+$/.test(rawGtin) ? null : normaliseGtin(rawGtin);
  if (gtin === null && !/^0+$/.test(rawGtin)) return `GTIN "${rawGtin}" has a wrong check digit`;
  const description = field(text, 10, 50).trim();
  if (description === '') return 'description is empty';
  const category = field(text, 75, 1);
  const itCode = field(text, 76, 7).trim();
  return {
    line,
    outOfTrade: field(text, 2, 1) === '3',
    pharmacode: String(Number(field(text, 3, 7))),
    description,
    exFactoryCents: Number(field(text, 60, 6)),
    publicCents: Number(field(text, 66, 6)),
    listing: INSURANCE_LISTING[field(text, 72, 1)] ?? '',
    coldChain: field(text, 73, 1) === '1',
    narcotic: /[1-9]/.test(field(text, 74, 1)),
    category: /[A-E]/.test(category) ? category : '',
    itCode: /^0*$/.test(itCode) ? '' : itCode,
    gtin,
    vat: field(text, 96, 1),
  };
}

function prices(d: DatLine): Price[] {
  const out: Price[] = [];
  // A zero price is how the file says "no price" (non-pharma articles often have no ex-factory price).
  if (d.exFactoryCents > 0) out.push({ amount: d.exFactoryCents / 100, currency: 'CHF', kind: 'ex_factory' });
  if (d.publicCents > 0) out.push({ amount: d.publicCents / 100, currency: 'CHF', kind: 'public' });
  return out;
}

function buildProduct(d: DatLine): ProductEntry {
  const key = d.gtin ?? `pharmacode:${d.pharmacode}`;
  const pack: PackEntry = {
    key,
    description: d.description,
    identifiers: [...(d.gtin ? [{ system: 'gtin' as const, code: d.gtin }] : []), { system: 'pharmacode', code: d.pharmacode }],
    marketing_status: d.outOfTrade ? 'withdrawn' : 'active',
  };
  const packPrices = prices(d);
  if (packPrices.length > 0) pack.prices = packPrices;
  if (d.category !== '') pack.dispensing_category = d.category;
  const quantity = leadingQuantity(d.description);
  if (quantity) Object.assign(pack, quantity);
  const attributes: Record<string, string | boolean> = { vat_code: d.vat };
  if (d.listing !== '') attributes.insurance_listing = d.listing;
  if (d.coldChain) attributes.cold_chain = true;
  if (d.narcotic) attributes.narcotic = true;
  if (d.itCode !== '') attributes.index_therapeuticus = d.itCode;
  const product: ProductEntry = {
    key, country: 'CH', product_name: d.description, identifiers: [], ingredients: [], packs: [pack],
    marketing_status: pack.marketing_status ?? 'active', attributes,
  };
  if (VETERINARY_NAME.test(d.description)) product.veterinary = true;
  return product;
}

/** Parses transfer.dat line by line; malformed lines are reported with their number and skipped. */
export function parseChZurrose(file: string, content: Buffer): AdapterResult {
  const log = new ProblemLog();
  const products: ProductEntry[] = [];
  const pharmacodes = new Set<string>();
  const byGtin = new Map<string, PackEntry>();
  let read = 0;
  let kept = 0;
  decodeText(content, 'windows-1252').split('\n').forEach((raw, i) => {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') return;
    read += 1;
    const d = parseLine(text, i + 1);
    if (typeof d === 'string') {
      log.add(file, i + 1, d);
      return;
    }
    if (pharmacodes.has(d.pharmacode)) return;
    pharmacodes.add(d.pharmacode);
    kept += 1;
    const same = d.gtin ? byGtin.get(d.gtin) : undefined;
    if (same) {
      same.identifiers.push({ system: 'pharmacode', code: d.pharmacode });
      return;
    }
    const product = buildProduct(d);
    if (d.gtin) byGtin.set(d.gtin, product.packs[0]!);
    products.push(product);
  });
  // Not one line in the layout: another file, or an empty one that would delete the source on ingest.
  if (kept === 0) throw new FileRejectedError(file, `no line in the transfer.dat layout (${read} lines read)`);
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: CH_ZURROSE_SOURCE, products },
    problems: log.problems,
    files: [{ file, role: 'article master (fixed width)', read, kept, skipped: read - kept }],
  };
}
