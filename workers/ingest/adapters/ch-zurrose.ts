/**
 * Zur Rose article master `transfer.dat` (Switzerland): fixed width, ISO-8859-1 (read as
 * Windows-1252, of which it is a subset in every printable byte), CRLF, one 97-character
 * record per line. The layout is the one oddb2xml both reads (ZurroseExtractor) and writes
 * (Builder#build_dat, `DAT_LEN`), columns 1-based start/length as the IGM record description
 * gives them (`001-002 RECA`):
 *
 *   1 RECA 2  record type `11`          61 PRMO 6  ex-factory price, Rappen
 *   3 CMUT 1  mutation code (3 = out of trade)  67 PRPU 6  public price, Rappen
 *   4 PHAR 7  pharmacode, zero-padded    73 CKZL 1  1 SL, 2 LPPV, 3 not reimbursed
 *  11 ABEZ 50 description (German)      74 CLAG 1  1 = cold chain
 *  75 CBGG 1  narcotic flag (non-zero)  76 CIKS 1  Swissmedic category A-E (0 or blank: none)
 *  77 ITHE 7  index therapeuticus        84 CEAN 13 GTIN (all zeros: none)
 *  97 CMWS 1  VAT code (1 normal, 2 reduced)
 *
 * Each article is its own product and pack, keyed by GTIN, else `pharmacode:<n>`. A repeated
 * pharmacode keeps its FIRST line (as oddb2xml does); later lines are excluded as duplicates. A
 * second pharmacode with a GTIN already seen is added to that pack as another pharmacode
 * identifier. Veterinary lines ("ad us. vet.", "(vet)") are kept with `veterinary: true`.
 */
import { normaliseGtin } from '../../../vocabulary/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, PackEntry, Price, ProductEntry, SourceInfo } from '../snapshot.ts';
import { FileRejectedError, decodeText, leadingQuantity } from './common.ts';
import { fixedLayout, fixedLines, lineProblem, recordOf } from './fixed-width.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import { VETERINARY_NAME } from './ch-refdata.ts';

export const CH_ZURROSE_FILE = 'transfer.dat';

export const CH_ZURROSE_SOURCE: SourceInfo = {
  id: 'ch-zurrose',
  name: 'Zur Rose article master (transfer.dat)',
  country: 'CH',
  refresh_interval_hours: 48,
  url: 'https://www.zurrose.ch/',
};

const INSURANCE_LISTING: Record<string, string> = { 1: 'SL', 2: 'LPPV', 3: 'none' };

/** The record layout (1-based start, length, shape of the untrimmed value). */
const TRANSFER = fixedLayout('transfer.dat', {
  RECA: [1, 2, /^11$/], CMUT: [3, 1, /^\d$/], PHAR: [4, 7, /^\d{7}$/], ABEZ: [11, 50], PRMO: [61, 6, /^\d{6}$/],
  PRPU: [67, 6, /^\d{6}$/], CKZL: [73, 1, /^[\d ]$/], CLAG: [74, 1, /^[\d ]$/], CBGG: [75, 1, /^[\d ]$/],
  CIKS: [76, 1, /^[A-E0 ]$/], ITHE: [77, 7, /^[\d ]{7}$/], CEAN: [84, 13, /^\d{13}$/], CMWS: [97, 1, /^\d$/],
}, { recordLength: 97, minLength: 97 });

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

/** A line's fields, or the reason it is malformed. */
function parseLine(text: string, line: number): DatLine | string {
  const problem = lineProblem(text, TRANSFER);
  if (problem) return problem;
  const r = recordOf(text, line, TRANSFER);
  if (/^0+$/.test(r.get('PHAR'))) return 'pharmacode is zero';
  const rawGtin = r.get('CEAN');
  const gtin = /^0+$/.test(rawGtin) ? null : normaliseGtin(rawGtin);
  if (gtin === null && !/^0+$/.test(rawGtin)) return `GTIN "${rawGtin}" has a wrong check digit`;
  const description = r.get('ABEZ');
  if (description === '') return 'description is empty';
  const category = r.get('CIKS');
  const itCode = r.get('ITHE');
  return {
    line,
    outOfTrade: r.get('CMUT') === '3',
    pharmacode: String(Number(r.get('PHAR'))),
    description,
    exFactoryCents: Number(r.get('PRMO')),
    publicCents: Number(r.get('PRPU')),
    listing: INSURANCE_LISTING[r.get('CKZL')] ?? '',
    coldChain: r.get('CLAG') === '1',
    narcotic: /[1-9]/.test(r.get('CBGG')),
    category: /[A-E]/.test(category) ? category : '',
    itCode: /^0*$/.test(itCode) ? '' : itCode,
    gtin,
    vat: r.get('CMWS'),
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

/**
 * Parses transfer.dat line by line: each line kept, malformed (with its line and why), or
 * excluded as a duplicate of an earlier line with the same pharmacode.
 */
export function parseChZurrose(file: string, content: Buffer): AdapterResult {
  const tally = new RowTally(file);
  const products: ProductEntry[] = [];
  const pharmacodes = new Set<string>();
  const byGtin = new Map<string, PackEntry>();
  for (const { line, text } of fixedLines(decodeText(content, 'windows-1252'))) {
    const d = parseLine(text, line);
    if (typeof d === 'string') { tally.malformedRow(line, d); continue; }
    // oddb2xml's own test file repeats articles (and one pharmacode under two names): the first line stands.
    if (pharmacodes.has(d.pharmacode)) { tally.exclude(EXCLUDED.duplicate); continue; }
    pharmacodes.add(d.pharmacode);
    tally.keep();
    const same = d.gtin ? byGtin.get(d.gtin) : undefined;
    if (same) {
      same.identifiers.push({ system: 'pharmacode', code: d.pharmacode });
      continue;
    }
    const product = buildProduct(d);
    if (d.gtin) byGtin.set(d.gtin, product.packs[0]!);
    products.push(product);
  }
  // Not one line in the layout: another file, or an empty one that would delete the source on ingest.
  if (tally.kept === 0) throw new FileRejectedError(file, `no line in the transfer.dat layout (${tally.read} lines read)`);
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: CH_ZURROSE_SOURCE, products },
    problems: tally.problems,
    files: [tally.report('article master (fixed width)')],
  };
}
