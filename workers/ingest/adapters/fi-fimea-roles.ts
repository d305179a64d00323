/**
 * What each file of a Fimea release is, read from its header row. Fimea's basic register
 * (perusrekisteri) is a folder of `;`-separated Windows ANSI tables: the pack files
 * (`pakkaus1.txt` the current state, `pakkaus-m.txt` the packs under a temporary special
 * permit, `pakkaus_nolla.txt` the state the release started from), the active substances
 * (`laakeaine.txt`), the code tables (`atc.txt`, `laakemuoto.txt`, `maaraamisehto.txt`,
 * `sailytysastia.txt` ...) and the release note `saate.txt`. Beside them: Kela's price list and
 * Fimea's substitution list (`GS-ladattava.txt`: SUBSTITUUTIORYHMA, VNRNRO, pack size, name,
 * strength, form, holder, ATCKOODI, SELITES ...). A header may sit below title lines (Kela's
 * list), so the first lines of the file are searched.
 */
import { pickColumn } from './delimited-table.ts';
import type { IsHeader } from './delimited-table.ts';
import { isZip } from './delimited-text.ts';
import type { Match, RoleRule } from './file-roles.ts';
import { FIMEA_REQUIRED } from './fi-fimea-pack.ts';
import { KELA_COLUMNS, isKelaHeader } from './fi-kela.ts';
import { headerKey } from './sheet-table.ts';

export type FiRole = 'PAKKAUS' | 'LAAKEAINE' | 'Kela' | 'substitution' | 'ATC' | 'LAAKEMUOTO';

/** Header keys of the substitution group in Fimea's substitution list and Kela's lists. */
export const GROUP_COLUMNS = ['substituutioryhmä', 'substituutioryhmäkoodi', 'substituutioryhma', 'substituutioryhmakoodi', 'vaihtoryhmä'] as const;

const has = (keys: string[], ...names: string[]): boolean => names.every((n) => keys.includes(n));

/** The header predicate of each role, over header keys (lower case, blanks folded). */
export const FI_HEADERS: Record<FiRole, IsHeader> = {
  PAKKAUS: (keys) => FIMEA_REQUIRED.every((c) => keys.includes(c)),
  LAAKEAINE: (keys) => has(keys, 'pakkausnro', 'ainenimi'),
  Kela: isKelaHeader,
  // A Vnr and a substitution group without a price: the substitution list, not Kela's.
  substitution: (keys) => pickColumn(keys, KELA_COLUMNS.vnr) !== undefined && pickColumn(keys, GROUP_COLUMNS) !== undefined && !isKelaHeader(keys),
  ATC: (keys) => has(keys, 'atckoodi', 'selites') && !keys.includes('pakkausnro'),
  LAAKEMUOTO: (keys) => has(keys, 'laakemuototun', 'laakemuotonimi') && !keys.includes('pakkausnro'),
};

/** Lines searched for a header row (Kela's list puts a title and a blank line above it). */
const HEAD_LINES = 40;

function headerIn(text: string, isHeader: IsHeader): boolean {
  return text.split(/\r?\n/, HEAD_LINES).some((line) => isHeader(line.split(/[;\t]/).map((cell) => headerKey(cell.replace(/^"|"$/g, '')))));
}

function rule(role: FiRole, names: string[], many = false): RoleRule<FiRole> {
  return {
    role, names, many,
    recognise(text: string, head: Buffer): Match {
      // A workbook cannot be read from its first bytes: plausibly Kela's xlsx export, checked when read.
      if (isZip(head)) return role === 'Kela' ? 1 : 0;
      return headerIn(text, FI_HEADERS[role]) ? 2 : 0;
    },
  };
}

/** The roles of a release; several pack files (current and temporary-permit packs) are read together. */
export const FI_RULES: readonly RoleRule<FiRole>[] = [
  rule('PAKKAUS', ['pakkaus.txt', 'pakkaus1.txt', 'pakkaus-m.txt'], true),
  rule('LAAKEAINE', ['laakeaine.txt', 'laakeaine1.txt'], true),
  rule('Kela', ['kela_hinnat.txt'], true),
  rule('substitution', ['gs-ladattava.txt']),
  rule('ATC', ['atc.txt']),
  rule('LAAKEMUOTO', ['laakemuoto.txt']),
];

/** Members of a release drugref knows and does not read, by undated name, with why. */
export const FI_KNOWN_UNUSED: Readonly<Record<string, string>> = {
  'saate.txt': 'release note (run date and batch of the release), no register rows',
  'maaraamisehto.txt': 'prescribing conditions by code (EHTOKOODI): texts drugref does not hold',
  'maaraaikaisetmaaraamisehto.txt': 'prescribing conditions of temporary permits: texts drugref does not hold',
  'sailytysastia.txt': 'container codes (ASTIATUN): drugref keeps the pack size as written',
};

/**
 * The pack file of the state the release started from (`pakkaus_nolla.txt`, `pakkaus0.txt`):
 * the same layout as the current one, so only its name tells them apart; read with the current
 * file it would bring back packs the current state no longer lists.
 */
export function isStartingState(undatedName: string): boolean {
  return ['pakkaus_nolla.txt', 'pakkaus0.txt', 'pakkaus_0.txt'].includes(undatedName);
}
