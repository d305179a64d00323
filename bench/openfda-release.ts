/**
 * A generated openFDA drug/ndc bulk download (`drug-ndc-0001-of-0001.json`) of the real one's
 * shape, for the large-ingest bench and the streamed adapter's tests: `{ meta, results: [...] }`
 * pretty-printed as openFDA publishes it (or minified, every record on one line), records with
 * one to three active ingredients, openfda UNIIs, RxCUIs and pharmacologic classes, two packages
 * each, accented labeler names, and a few records the adapter must report (a product_ndc that
 * is not an NDC, a repeated product, an element that is not valid JSON).
 * The real download holds about 130 000 records (about 1 GB pretty-printed).
 */
import { uniiCheckCharacter } from '../vocabulary/check-digits.ts';
import { writePieces } from './write-file.ts';

const INGREDIENTS = ['IBUPROFEN', 'ACETAMINOPHEN', 'CAFFEINE', 'ASPIRIN', 'METFORMIN HYDROCHLORIDE', 'LISINOPRIL', 'ATORVASTATIN CALCIUM'];
const CLASSES = ['Nonsteroidal Anti-inflammatory Drug [EPC]', 'Analgesic [EPC]', 'Central Nervous System Stimulant [EPC]'];

/** A UNII with a valid check character for ingredient `i`. */
function unii(i: number): string {
  const body = `UNII${String(i).padStart(5, '0')}`;
  return `${body}${uniiCheckCharacter(body)}`;
}

/** Record `i` of the download, as an object (or the text of a malformed element). */
function record(i: number): Record<string, unknown> | string {
  if (i % 2500 === 1249) return '{"product_ndc": "0904-0001", "brand_name": "Broken" "finished": true}';
  const labeler = String(10000 + Math.floor(i / 9000));
  const code = String(1000 + (i % 9000));
  const ndc = i % 3000 === 2999 ? 'not-an-ndc' : `${labeler}-${code}`;
  const count = 1 + (i % 3);
  const names = Array.from({ length: count }, (_, k) => INGREDIENTS[(i + k) % INGREDIENTS.length]!);
  // Every 4000th record repeats the product before it.
  const id = i % 4000 === 3999 ? `${labeler}-${String(1000 + ((i - 1) % 9000))}_${i - 1}` : `${ndc}_${i}`;
  return {
    product_ndc: ndc, product_id: id, generic_name: names.join(' AND ').toLowerCase(), brand_name: `Brand ${i}`,
    labeler_name: `Laboratoires Santé ${i % 50}`, dosage_form: 'TABLET, FILM COATED', route: ['ORAL'], product_type: 'HUMAN OTC DRUG',
    marketing_category: i % 2 ? 'ANDA' : 'NDA', application_number: `ANDA${String(i).padStart(6, '0')}`, marketing_start_date: '20100115',
    active_ingredients: names.map((name, k) => ({ name, strength: `${(k + 1) * 100} mg/1` })), finished: i % 10 !== 0,
    packaging: ['61', '40'].map((pkg) => ({ package_ndc: `${ndc}-${pkg}`, description: `100 TABLET in 1 BOTTLE (${ndc}-${pkg})`, marketing_start_date: '20100115', sample: false })),
    listing_expiration_date: '20261231',
    openfda: {
      manufacturer_name: [`Laboratoires Santé ${i % 50}`], rxcui: [String(300000 + (i % 7000))], spl_set_id: [`set-${i}`],
      unii: names.map((n) => unii(INGREDIENTS.indexOf(n))), pharm_class_epc: [CLASSES[i % CLASSES.length]!],
    },
  };
}

/** The download's text in pieces: pretty-printed (two-space indent) or minified. */
export function* openFdaDownload(n: number, minified = false): Generator<string> {
  const indent = (text: string): string => (minified ? text : text.replace(/\n/g, '\n    '));
  const meta = { disclaimer: 'Do not rely on openFDA to make decisions regarding medical care.', last_updated: '2026-11-20', results: { skip: 0, limit: n, total: n } };
  yield minified ? `{"meta":${JSON.stringify(meta)},"results":[` : `{\n  "meta": ${JSON.stringify(meta, null, 2).replace(/\n/g, '\n  ')},\n  "results": [\n`;
  for (let i = 0; i < n; i += 1) {
    const r = record(i);
    const text = typeof r === 'string' ? r : JSON.stringify(r, null, minified ? undefined : 2);
    yield `${minified ? '' : '    '}${indent(text)}${i + 1 < n ? ',' : ''}${minified ? '' : '\n'}`;
  }
  yield minified ? ']}' : '  ]\n}\n';
}

/** Writes a download of `n` records to `path`. */
export async function writeOpenFdaDownload(path: string, n: number, minified = false): Promise<void> {
  await writePieces(path, openFdaDownload(n, minified));
}
