/**
 * The HPRA lists of human medicines: the authorised list (`latestHumanlist.xml`, earlier
 * `latestHMlist.xml`) and the withdrawn list (`withdrawnHumanlist.xml`), one `Product` element
 * per licence under a `Products` root (namespace https://assets.hpra.ie/products//xml/Human;
 * older releases named the root otherwise). Which list a file is comes from its content: the
 * withdrawn list's records carry `<RegistrationStatus>WI` and a `<WithdrawalDate>`. Read with
 * saxes record by record (xml-records.ts), so a list declared in Windows-1252 reads as well as
 * UTF-8; each record becomes a product (ie-hpra-rows.ts). The lists carry no packs or prices.
 *
 * Each list alone is a partial document: it updates the licences it holds and deletes nothing,
 * since a licence leaving the authorised list moves to the withdrawn one. Both lists together
 * state the whole register, and a licence neither holds is deleted.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { RowTally } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import { FileRejectedError } from './common.ts';
import type { InputFile } from './common.ts';
import { assignRoles, rootElement } from './file-roles.ts';
import type { RoleRule } from './file-roles.ts';
import { readIeProduct } from './ie-hpra-rows.ts';
import { streamXmlRecords } from './xml-records.ts';

export const IE_HPRA_FILE = 'latestHumanlist.xml';
export const IE_HPRA_WITHDRAWN_FILE = 'withdrawnHumanlist.xml';

export const IE_HPRA_SOURCE: SourceInfo = {
  id: 'ie-hpra',
  name: 'HPRA human medicines list',
  country: 'IE',
  // The HPRA republishes the list as licences change; two weeks without a sync is stale.
  refresh_interval_hours: 24 * 14,
  licence: 'Information provided courtesy of the Health Products Regulatory Authority (HPRA) under CC BY 4.0',
  url: 'https://www.hpra.ie/homepage/medicines/medicines-information/find-a-medicine',
};

type Role = 'authorised' | 'withdrawn';

/** An HPRA list by content: `Product` records with a licence element; the withdrawn list by its WI status or withdrawal dates. */
function listMatch(text: string, withdrawnList: boolean): 0 | 1 | 2 {
  if (!rootElement(text) || !/<(?:\w+:)?Product>/.test(text)) return 0;
  if (!/<(?:\w+:)?(?:LicenceNumber|LicenseNumber|PANumber|AuthorisationNumber)>/.test(text)) return 0;
  const withdrawn = /<(?:\w+:)?RegistrationStatus>WI</.test(text) || /<(?:\w+:)?WithdrawalDate>/.test(text);
  return withdrawn === withdrawnList ? 2 : 0;
}

const RULES: readonly RoleRule<Role>[] = [
  { role: 'authorised', recognise: (text) => listMatch(text, false), names: ['latesthumanlist.xml', 'latesthmlist.xml'] },
  { role: 'withdrawn', recognise: (text) => listMatch(text, true), names: ['withdrawnhumanlist.xml', 'withdrawnhmlist.xml'] },
];

/** Role names in the file reports. */
const ROLE_NAMES: Record<Role, string> = { authorised: 'Human medicines list', withdrawn: 'Withdrawn human medicines list' };

/** Reads one list into `products` (the authorised list first, so its licences win), counting each record's outcome. */
function readList(file: InputFile, role: Role, products: Map<string, ProductEntry>, substances: Map<string, SubstanceEntry>, problems: RowProblem[]): FileReport {
  const tally = new RowTally(file.name, problems);
  const lines = new Map<string, number>();
  const root = streamXmlRecords(file.name, file.content, {
    isRecord: (name) => name === 'Product',
    onRecord(record, line) {
      const product = readIeProduct(record, substances);
      if (typeof product === 'string') return tally.malformedRow(line, product);
      // The same licence twice in one list: the first is kept. One the authorised list holds
      // and the withdrawn list repeats (a licence withdrawn and granted again) stays authorised.
      if (lines.has(product.key)) return tally.exclude('duplicate');
      if (products.has(product.key)) return tally.exclude('listed_as_authorised');
      lines.set(product.key, line);
      products.set(product.key, product);
      tally.keep();
    },
  });
  // An empty list would say nothing of the register: refused rather than read as "no licences".
  if (tally.kept === 0) throw new FileRejectedError(file.name, `no usable <Product> records under <${root}>`);
  return tally.report(ROLE_NAMES[role]);
}

/**
 * Parses the lists given: one or both, told apart by content; files of neither kind are named
 * as unused. Records that cannot be used are reported with their line.
 */
export async function parseIeHpra(files: readonly InputFile[]): Promise<AdapterResult> {
  const { byRole, unused } = await assignRoles(files, RULES);
  const roles = (['authorised', 'withdrawn'] as const).filter((r) => byRole.has(r));
  if (roles.length === 0) {
    throw new FileRejectedError(files[0]?.name ?? IE_HPRA_FILE, 'not an HPRA human medicines list: no <Product> records with a <LicenceNumber>');
  }
  const problems: RowProblem[] = [];
  const substances = new Map<string, SubstanceEntry>();
  const products = new Map<string, ProductEntry>();
  const reports = new Map<InputFile, FileReport>();
  for (const role of roles) reports.set(byRole.get(role)![0]!, readList(byRole.get(role)![0]!, role, products, substances, problems));
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT, source: IE_HPRA_SOURCE, substances: [...substances.values()], products: [...products.values()],
      ...(roles.length < 2 ? { partial: true } : {}),
    },
    problems,
    files: files.map((f) => reports.get(f) ?? unused.find((u) => u.file === f.name)!),
  };
}
