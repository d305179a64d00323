/**
 * FDA Structured Product Labeling (SPL) product data: an HL7 v3 SPL document
 * (`<document xmlns="urn:hl7-org:v3">`, as DailyMed distributes them, one XML per label version).
 * The product data elements sit in `section/subject/manufacturedProduct`: the product NDC
 * (code system 2.16.840.1.113883.6.69), name, dosage form, active ingredients with their UNII
 * (2.16.840.1.113883.4.9), active moiety and strength quantity, the packages with their NDCs
 * (`asContent/containerPackagedProduct`, nested outwards), the route, the approval (application
 * number and marketing category) and the marketing act (status and dates).
 *
 * Source `us-spl`: a product per manufacturedProduct keyed by its product NDC (`0904-5853`), a
 * pack per package NDC keyed by ndc11 (so it merges with the directory's packs). Inactive
 * ingredients (IACT) are dropped: the catalogue lists active substances. Kit parts are not
 * separate products. Several documents may be given in one ingest; together they are the source.
 * DailyMed's SPL zips hold the document beside the label's pictures (`*.jpg`): given the unpacked
 * zip, the documents are told by their root element and the other members named unused.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { EXCLUDED, RowTally, unusedFile } from '../row-outcome.ts';
import { FileRejectedError, ProblemLog, RowError } from './common.ts';
import type { InputFile } from './common.ts';
import { HEAD_BYTES, assignLoadedRoles, headText, rootElement } from './file-roles.ts';
import type { RoleAssignment, RoleRule } from './file-roles.ts';
import { readSplProduct } from './us-spl-product.ts';
import type { SplContext } from './us-spl-product.ts';
import { childOf, streamXmlRecords, textOf } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

export const SPL_FILE = 'spl.xml';
const HL7_V3 = 'urn:hl7-org:v3';

export const SPL_SOURCE: SourceInfo = {
  id: 'us-spl',
  name: 'FDA Structured Product Labeling (DailyMed SPL product data)',
  country: 'US',
  refresh_interval_hours: 24 * 8,
  licence: 'Public domain (US government work; DailyMed)',
  url: 'https://dailymed.nlm.nih.gov/dailymed/spl-resources.cfm',
};

export interface SplOptions {
  /** Date against which marketing end dates decide `withdrawn`; defaults to now. */
  asOf?: Date;
}

interface Shared {
  products: Map<string, ProductEntry>;
  packKeys: Set<string>;
  substances: Map<string, SubstanceEntry>;
  log: ProblemLog;
  asOf: Date;
}

/** The labeler: `author/assignedEntity/representedOrganization/name`. */
function labelerOf(author: XmlElement): string {
  return textOf(childOf(childOf(author, 'assignedEntity'), 'representedOrganization'), 'name');
}

/** A document's product and the line of its record. */
export interface SplRecord {
  product: ProductEntry;
  line: number;
}

/**
 * Repeats across the documents of one ingest: a product NDC seen before excludes the product as
 * a duplicate (counted in `tally`, the first is kept); a package NDC seen before drops that
 * package from a kept product (reported with the product's line). Returns whether the product is kept.
 */
export function keepFirst(record: SplRecord, seen: { products: Set<string> | Map<string, unknown>; packKeys: Set<string> }, log: ProblemLog, file: string, tally: RowTally): boolean {
  const { product, line } = record;
  if (seen.products.has(product.key)) { tally.exclude(EXCLUDED.duplicate); return false; }
  tally.keep();
  product.packs = product.packs.filter((pack) => {
    if (!seen.packKeys.has(pack.key)) { seen.packKeys.add(pack.key); return true; }
    log.add(file, line, `duplicate package NDC ${pack.key}; skipped`);
    return false;
  });
  return true;
}

/**
 * Hands over the products of one SPL document, in order, each with its document's set id,
 * type and labeler; malformed products are reported to `log` and left out. Returns how many
 * product records the document has.
 */
export function readSplDocument(
  file: InputFile, context: { asOf: Date; substances: Map<string, SubstanceEntry>; log: ProblemLog; tally?: RowTally }, onProduct: (record: SplRecord) => void,
): number {
  let labeler = '';
  const attributes: Record<string, string> = {};
  const elements: Array<{ element: XmlElement; line: number }> = [];
  streamXmlRecords(file.name, file.content, {
    onOpen(name, ancestors, attrs) {
      if (ancestors.length === 0 && (name !== 'document' || attrs.xmlns !== HL7_V3)) {
        throw new FileRejectedError(file.name, `not an HL7 v3 SPL document: root <${name}> is not <document xmlns="${HL7_V3}">`);
      }
      if (ancestors.length === 1 && name === 'setId' && attrs.root) attributes.spl_set_id = attrs.root;
      if (ancestors.length === 1 && name === 'code' && attrs.displayName) attributes.document_type = attrs.displayName;
    },
    isRecord: (name, ancestors) => (name === 'author' && ancestors.length === 1)
      || (name === 'manufacturedProduct' && ancestors[ancestors.length - 1] === 'subject'),
    onRecord(element, line) {
      if (element.name === 'author') labeler ||= labelerOf(element);
      else elements.push({ element, line });
    },
  });
  // Products come after the author in SPL, but the labeler is applied once the document is read.
  for (const { element, line } of elements) {
    const spl: SplContext = { asOf: context.asOf, substances: context.substances, warn: (m) => context.log.add(file.name, line, m) };
    try {
      const product = readSplProduct(element, spl, labeler);
      product.attributes = { ...attributes, ...product.attributes };
      onProduct({ product, line });
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      if (context.tally) context.tally.malformedRow(line, error.message);
      else context.log.add(file.name, line, error.message);
    }
  }
  return elements.length;
}

/** The role an SPL document is reported under: each manufacturedProduct is one of its rows. */
export const SPL_ROLE = 'SPL document';

/** An SPL document by its start: the root `<document>` in the HL7 v3 namespace. */
function splHead(text: string): boolean {
  return rootElement(text) === 'document' && /<document\b[^>]*\sxmlns\s*=\s*["']urn:hl7-org:v3["']/.test(text);
}

export const SPL_RULES: readonly RoleRule<typeof SPL_ROLE>[] = [{ role: SPL_ROLE, many: true, recognise: (text) => (splHead(text) ? 2 : 0) }];

const IMAGE = /\.(?:jpe?g|png|gif|tiff?|bmp)$/i;

/** Why a member is not read: a label picture of the SPL zip, or a file whose root is no SPL document. */
function whyNotSpl(file: InputFile, head: Buffer): string {
  if (IMAGE.test(file.name)) return 'an image of the label (DailyMed ships the pictures beside the SPL document)';
  return `not an HL7 v3 SPL document: root <${rootElement(headText(head)) ?? 'none'}> is not <document xmlns="${HL7_V3}">`;
}

/**
 * The SPL documents among the files, and the other members named unused; with no document at
 * all the files are refused, naming why the first is none. `head` gives a file's first bytes.
 */
export function splDocuments(
  files: readonly InputFile[], assignment: RoleAssignment<typeof SPL_ROLE>, head: (file: InputFile) => Buffer,
): { documents: InputFile[]; unused: Map<InputFile, FileReport> } {
  if (files.length === 0) throw new FileRejectedError(SPL_FILE, 'no SPL document given');
  const documents = assignment.byRole.get(SPL_ROLE) ?? [];
  const others = files.filter((f) => !documents.includes(f));
  if (documents.length === 0) throw new FileRejectedError(files[0]!.name, whyNotSpl(files[0]!, head(files[0]!)));
  return { documents, unused: new Map(others.map((f) => [f, unusedFile(f.name, whyNotSpl(f, head(f)))])) };
}

function readDocument(file: InputFile, shared: Shared): FileReport {
  const tally = new RowTally(file.name, shared.log.problems);
  readSplDocument(file, { ...shared, tally }, (record) => {
    if (keepFirst(record, shared, shared.log, file.name, tally)) shared.products.set(record.product.key, record.product);
  });
  return tally.report(SPL_ROLE);
}

/**
 * Parses SPL documents into products and substances. Each manufacturedProduct is kept,
 * malformed (reported with its line and why) or excluded as a duplicate of a product NDC read before.
 */
export function parseUsSpl(files: InputFile[], options: SplOptions = {}): AdapterResult {
  const { documents, unused } = splDocuments(files, assignLoadedRoles(files, SPL_RULES), (f) => f.content.subarray(0, HEAD_BYTES));
  const shared: Shared = { products: new Map(), packKeys: new Set(), substances: new Map(), log: new ProblemLog(), asOf: options.asOf ?? new Date() };
  const read = new Map(documents.map((f) => [f, readDocument(f, shared)]));
  const reports = files.map((f) => read.get(f) ?? unused.get(f)!);
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: SPL_SOURCE, substances: [...shared.substances.values()], products: [...shared.products.values()] },
    problems: shared.log.problems,
    files: reports,
  };
}
