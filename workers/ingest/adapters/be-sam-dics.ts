/**
 * SAM v2 content as the DICS web service (protocol v5, urn:be:fgov:ehealth:dics:protocol:v5)
 * answers it: a SOAP envelope whose body holds `FindAmpResponse`, `FindVmpResponse`,
 * `FindCompanyResponse` or `FindReimbursementResponse` around the same SAM entities as the
 * export, in the consultation layout (be-sam-read.ts). An answer holds the entities the query
 * matched, so it updates those and deletes nothing else (snapshot `partial`). A SOAP fault (the
 * service's "no results found", business error 1008) holds nothing: named with its code and
 * message beside other answers, refused when nothing else is given.
 */
import { FileRejectedError } from './common.ts';
import type { InputFile } from './common.ts';
import { rootElement } from './file-roles.ts';
import type { RoleRule } from './file-roles.ts';
import { RowTally } from '../row-outcome.ts';
import type { FileReport, RowProblem } from '../row-outcome.ts';
import { attr, firstText, textOf } from './be-sam-read.ts';
import { xmlFileRecords } from './xml-file-records.ts';
import type { XmlElement } from './xml-records.ts';

/** The roles of the SAM files: the two exports and the four DICS answers, and a fault. */
export type SamRole = 'AMP' | 'RMB' | 'DICS AMP' | 'DICS VMP' | 'DICS company' | 'DICS reimbursement' | 'DICS fault';

/** The DICS answer element of each answer role. */
export const DICS_ANSWERS: Partial<Record<SamRole, string>> = {
  'DICS AMP': 'FindAmpResponse', 'DICS VMP': 'FindVmpResponse', 'DICS company': 'FindCompanyResponse', 'DICS reimbursement': 'FindReimbursementResponse',
};

/** The record element of each answer. */
export const DICS_RECORDS: Record<string, string> = {
  FindAmpResponse: 'Amp', FindVmpResponse: 'Vmp', FindCompanyResponse: 'Company', FindReimbursementResponse: 'ReimbursementContext',
};

/** A DICS answer: a SOAP envelope whose body opens with `answer` (any prefix). */
function dicsAnswer(text: string, answer: string): 0 | 2 {
  return rootElement(text) === 'Envelope' && new RegExp(`<(?:[\\w.-]+:)?${answer}[\\s>/]`).test(text) ? 2 : 0;
}

/** Roles by content: the export's root element, the answer element of a DICS envelope. */
export const SAM_RULES: readonly RoleRule<SamRole>[] = [
  { role: 'AMP', recognise: (text) => (rootElement(text) === 'ExportActualMedicines' ? 2 : 0), names: ['amp.xml'] },
  { role: 'RMB', recognise: (text) => (rootElement(text) === 'ExportReimbursements' ? 2 : 0), names: ['rmb.xml'] },
  ...Object.entries(DICS_ANSWERS).map(([role, answer]) => ({ role: role as SamRole, recognise: (text: string) => dicsAnswer(text, answer!), many: true })),
  { role: 'DICS fault', recognise: (text) => (rootElement(text) === 'Envelope' && /<(?:[\w.-]+:)?Fault[\s>]/.test(text) ? 2 : 0), many: true },
];

/** What a SOAP fault says: the service's business error code and message, else its fault string. */
export async function faultOf(file: InputFile): Promise<string> {
  let why = 'a SOAP fault';
  for await (const fault of xmlFileRecords(file, { onRoot: () => {}, isRecord: (name) => name === 'Fault' })) {
    const error = fault.children.find((c) => c.name === 'detail')?.children.find((c) => c.name === 'BusinessError');
    why = error ? `business error ${textOf(error, 'Code')}: ${textOf(error, 'Message')}` : textOf(fault, 'faultstring') || why;
  }
  return `the DICS service answered with a fault, not SAM content (${why})`;
}

/** The record elements of a DICS answer, in document order; the envelope is checked first. */
export function dicsRecords(file: InputFile, answer: string): AsyncGenerator<XmlElement> {
  const record = DICS_RECORDS[answer]!;
  return xmlFileRecords(file, {
    onRoot(name) {
      if (name !== 'Envelope') throw new FileRejectedError(file.name, `not a DICS answer (root <${name}>, expected a SOAP <Envelope> holding <${answer}>)`);
    },
    isRecord: (name, ancestors) => name === record && ancestors.at(-1) === answer,
  });
}

/** Names by code from answers whose records carry a code attribute and a name: companies (actor number → denomination), VMPs (code → name). */
export async function readDicsNames(files: readonly InputFile[], answer: 'FindCompanyResponse' | 'FindVmpResponse', problems: RowProblem[],
  into: Map<string, string>): Promise<FileReport[]> {
  const reports: FileReport[] = [];
  for (const file of files) {
    const tally = new RowTally(file.name, problems);
    for await (const record of dicsRecords(file, answer)) {
      const code = answer === 'FindCompanyResponse' ? attr(record, 'actorNr') : attr(record, 'code');
      const name = answer === 'FindCompanyResponse' ? textOf(record, 'Denomination') : firstText(record.children.find((c) => c.name === 'Name'));
      if (code === '' || name === '') { tally.malformedRow(record.line, `${DICS_RECORDS[answer]} without a code and a name`); continue; }
      if (into.has(code)) { tally.exclude('duplicate'); continue; }
      into.set(code, name);
      tally.keep();
    }
    reports.push(tally.report(answer === 'FindCompanyResponse' ? 'DICS company' : 'DICS VMP'));
  }
  return reports;
}
