/**
 * The HAS files of the BDPM: `CIS_HAS_SMR_bdpm.txt` and `CIS_HAS_ASMR_bdpm.txt` (CIS, HAS
 * dossier code `CT-nnnn`, reason for the assessment, date YYYYMMDD, SMR value such as
 * `Important`/`Modéré`/`Faible`/`Insuffisant` or ASMR value `I`…`V`, opinion text with HTML
 * fragments) and `HAS_LiensPageCT_bdpm.txt` (dossier code, URL of the Transparency
 * Committee's page), which gives each assessment its `url`.
 *
 * Quirks: the opinion text holds `<br>`/`<b>` tags and entities, and a few opinions hold a
 * line break or a tab, so a line that does not start with a number and a tab continues the
 * text of the row right before it (a 7-digit CIS stays a row of its own, reported).
 * Opinions of CIS codes no longer in CIS_bdpm (older medicines, about a sixth of the rows)
 * are out of scope: counted as skipped, not reported as malformed.
 */
import type { ProductEntry } from '../snapshot.ts';
import type { InputFile } from './common.ts';
import type { RowTally } from '../row-outcome.ts';
import {
  CIS, NO_PRODUCT, bdpmDate, checkFirstRow, fileLines, htmlToText, rowFields, rowsWithContinuations,
} from './fr-bdpm-rows.ts';

type Assessment = NonNullable<ProductEntry['assessments']>[number];

const HAS_COLUMNS = 6;
const CT_COLUMNS = 2;
const DOSSIER = /^CT-\d+$/i;

function readAssessment(kind: 'smr' | 'asmr', fields: string[]): { cis: string; assessment: Assessment } | string {
  if (fields.length !== HAS_COLUMNS) return `expected ${HAS_COLUMNS} tab-separated fields, got ${fields.length}`;
  const [cis, dossier, reason, date, value, text] = fields as [string, string, string, string, string, string];
  if (!CIS.test(cis)) return `CIS code "${cis}" is not 8 digits`;
  const iso = bdpmDate(date);
  if (!iso) return `opinion date "${date}" is not YYYYMMDD`;
  if (!value) return `${kind.toUpperCase()} value is empty`;
  const assessment: Assessment = { kind, value, date: iso };
  const plain = htmlToText(text);
  if (plain) assessment.text = plain;
  if (dossier) assessment.code = dossier.toUpperCase();
  if (reason) assessment.reason = reason;
  return { cis, assessment };
}

/** Newest first, then by kind and dossier, so a re-ordered export hashes the same. */
function byDate(a: Assessment, b: Assessment): number {
  return (b.date ?? '').localeCompare(a.date ?? '') || a.kind.localeCompare(b.kind) || (a.code ?? '').localeCompare(b.code ?? '')
    || a.value.localeCompare(b.value);
}

/** Adds the SMR or ASMR opinions of one HAS file to the products. */
export function applyAssessments(
  kind: 'smr' | 'asmr', file: InputFile, products: Map<string, ProductEntry>, tally: RowTally,
): void {
  const lines = fileLines(file);
  const role = kind === 'smr' ? 'CIS_HAS_SMR_bdpm' : 'CIS_HAS_ASMR_bdpm';
  checkFirstRow(file.name, lines, role, (f) => f.length === HAS_COLUMNS && CIS.test(f[0]!), HAS_COLUMNS);
  const touched = new Set<ProductEntry>();
  for (const { line, fields } of rowsWithContinuations(lines, HAS_COLUMNS, /^\d+\t/)) {
    const read = readAssessment(kind, fields);
    if (typeof read === 'string') {
      tally.malformedRow(line, read);
      continue;
    }
    const product = products.get(read.cis);
    if (!product) {
      tally.exclude(NO_PRODUCT);
      continue;
    }
    tally.keep();
    const list = product.assessments ?? (product.assessments = []);
    list.push(read.assessment);
    touched.add(product);
  }
  for (const product of touched) product.assessments!.sort(byDate);
}

/** Reads HAS_LiensPageCT_bdpm.txt: dossier code → URL of the Transparency Committee page. */
export function readCtLinks(file: InputFile, tally: RowTally): Map<string, string> {
  const lines = fileLines(file);
  checkFirstRow(file.name, lines, 'HAS_LiensPageCT_bdpm', (f) => f.length === CT_COLUMNS && DOSSIER.test(f[0]!), CT_COLUMNS);
  const links = new Map<string, string>();
  for (const { line, text } of lines) {
    const [dossier = '', url = '', ...rest] = rowFields(text, CT_COLUMNS);
    const ok = rest.length === 0 && DOSSIER.test(dossier) && /^https?:\/\/\S+$/i.test(url);
    if (!ok) tally.malformedRow(line, `expected a dossier code CT-nnnn and a URL, got "${dossier}" and "${url}"`);
    else {
      links.set(dossier.toUpperCase(), url);
      tally.keep();
    }
  }
  return links;
}

/** Gives each assessment the URL of its dossier's Transparency Committee page. */
export function linkAssessments(products: Iterable<ProductEntry>, links: Map<string, string>): void {
  for (const product of products) {
    for (const assessment of product.assessments ?? []) {
      const url = assessment.code ? links.get(assessment.code) : undefined;
      if (url) assessment.url = url;
    }
  }
}
