/**
 * Registry of source adapters, so the CLI can run `drugref ingest <adapter> <file...>`: each
 * entry names the files it reads and parses them into a normalised snapshot plus row problems.
 * A structurally wrong or missing file throws FileRejectedError and nothing is ingested.
 */
import type { AdapterResult } from '../snapshot.ts';
import { CH_SL_FILE, parseChSl } from './ch-sl.ts';
import { FileRejectedError, findFile } from './common.ts';
import type { InputFile } from './common.ts';
import { FDA_PACKAGE_FILE, FDA_PRODUCT_FILE, parseFdaNdc } from './fda-ndc.ts';
import { BDPM_CIP_FILE, BDPM_CIS_FILE, BDPM_COMPO_FILE, BDPM_MITM_FILE, parseFrBdpm } from './fr-bdpm.ts';
import { parseJsonSnapshot } from './json-snapshot.ts';
import { WHO_ATC_FILE, parseWhoAtc } from './who-atc.ts';

export { FileRejectedError } from './common.ts';
export type { InputFile } from './common.ts';

export interface SourceAdapter {
  /** Name used on the command line and as the source id where the adapter fixes one. */
  id: string;
  description: string;
  /** File names the adapter expects (base names); single-file adapters accept any name. */
  files: string[];
  /** Optional extra files the adapter reads when given. */
  optionalFiles?: string[];
  parse(files: InputFile[]): AdapterResult;
}

/** The only file of a single-file adapter, whatever it is called. */
function single(files: InputFile[], expected: string): InputFile {
  const file = findFile(files, expected) ?? (files.length === 1 ? files[0] : undefined);
  if (!file) throw new FileRejectedError(expected, `expected exactly one file (${expected}), got ${files.length}`);
  return file;
}

export const ADAPTERS: readonly SourceAdapter[] = [
  {
    id: 'who-atc',
    description: 'WHO ATC/DDD index as CSV (atc_code,atc_name,ddd,uom,adm_r,note)',
    files: [WHO_ATC_FILE],
    parse: (files) => {
      const file = single(files, WHO_ATC_FILE);
      return parseWhoAtc(file.name, file.content);
    },
  },
  {
    id: 'fda-ndc',
    description: 'US FDA NDC directory (product.txt and package.txt, tab separated)',
    files: [FDA_PRODUCT_FILE, FDA_PACKAGE_FILE],
    parse: (files) => parseFdaNdc(files),
  },
  {
    id: 'fr-bdpm',
    description: 'French BDPM export (CIS_bdpm.txt, CIS_CIP_bdpm.txt; Windows-1252, tab separated)',
    files: [BDPM_CIS_FILE, BDPM_CIP_FILE],
    optionalFiles: [BDPM_COMPO_FILE, BDPM_MITM_FILE],
    parse: (files) => parseFrBdpm(files),
  },
  {
    id: 'ch-sl',
    description: 'Swiss Spezialitätenliste (BAG) Preparations.xml',
    files: [CH_SL_FILE],
    parse: (files) => {
      const file = single(files, CH_SL_FILE);
      return parseChSl(file.name, file.content);
    },
  },
  {
    id: 'snapshot',
    description: 'A JSON file in the normalised drugref-snapshot/1 format (docs/snapshot-format.md)',
    files: ['snapshot.json'],
    parse: (files) => {
      const file = single(files, 'snapshot.json');
      return parseJsonSnapshot(file.name, file.content);
    },
  },
];

/** The adapter registered under `id`, or undefined. */
export function findAdapter(id: string): SourceAdapter | undefined {
  return ADAPTERS.find((a) => a.id === id);
}
