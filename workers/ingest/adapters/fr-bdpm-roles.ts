/**
 * What each BDPM file is, read from its first rows: the files have no header, but each has its
 * own column count and column shapes (a CIS of 8 digits, a CIP13 of 13, a CT dossier code, a
 * date `DD/MM/YYYY` or `YYYYMMDD`, an SMR level or an ASMR grade). Names only break ties:
 * mirrors rename them (`.csv`), the download page dates some
 * (`CIS_InfoImportantes_20261120093012_bdpm.txt`), and a release folder holds other members.
 */
import type { RoleRule } from './file-roles.ts';

export type Role =
  | 'CIS_bdpm' | 'CIS_CIP_bdpm' | 'CIS_COMPO_bdpm' | 'CIS_GENER_bdpm' | 'CIS_CPD_bdpm' | 'CIS_HAS_SMR_bdpm'
  | 'CIS_HAS_ASMR_bdpm' | 'HAS_LiensPageCT_bdpm' | 'CIS_MITM' | 'CIS_InfoImportantes' | 'CIS_CIP_Dispo_Spec';

/** Rows looked at to recognise a file. */
const HEAD_ROWS = 5;

/** The first complete rows of a head, as tab-separated fields (trailing empty fields kept). */
function headRows(text: string): string[][] {
  const lines = text.split(/\r?\n/);
  // The last piece may be a line cut at the end of the head: use it only when the head is short.
  const complete = lines.length > 1 ? lines.slice(0, -1) : lines;
  return complete.filter((l) => l.trim() !== '').slice(0, HEAD_ROWS).map((l) => l.replace(/\r$/, '').split('\t'));
}

const CIS = /^\d{8}$/;
const DAY_FIRST = /^\d{2}\/\d{2}\/\d{4}$/;
const COMPACT = /^\d{8}$/;
const DOSSIER = /^CT-\d+$/i;
const SMR = /^(?:Important|Modéré|Mod.r.|Faible|Insuffisant|Non précisé|Non pr.cis.|Commentaires)$/;
const ASMR = /^(?:I|II|III|IV|V|Commentaires.*)$/;

/**
 * 2 when the first row and most head rows fit `shape` (empty trailing fields beyond `columns`
 * ignored), else 0: one malformed row near the top does not change what the file is.
 */
function byShape(columns: number, shape: (f: string[]) => boolean, layout: { slack?: number; textLast?: boolean } = {}) {
  const fits = (f: string[]): boolean => {
    const fields = [...f];
    while (fields.length > columns && fields[fields.length - 1] === '') fields.pop();
    // A free text in the last column may itself hold a tab.
    const most = layout.textLast ? Infinity : columns;
    return fields.length >= columns - (layout.slack ?? 0) && fields.length <= most && shape(fields);
  };
  return (text: string): 0 | 2 => {
    const rows = headRows(text);
    if (rows.length === 0 || !fits(rows[0]!)) return 0;
    return rows.filter(fits).length * 2 > rows.length ? 2 : 0;
  };
}

/** The availability list (`CIS_CIP_Dispo_Spec`): CIS, CIP13 or empty, status 1–4; fr-ansm-supply reads it too. */
export const recogniseAvailability = byShape(8, (f) => CIS.test(f[0]!) && (f[1] === '' || /^\d{13}$/.test(f[1]!)) && /^[1-4]$/.test(f[2]!));

const names = (...n: string[]) => n.flatMap((x) => [`${x}.txt`, `${x}.csv`].map((s) => s.toLowerCase()));

/** The BDPM roles, in reading order (products first, then what annotates them). */
export const BDPM_RULES: ReadonlyArray<RoleRule<Role>> = [
  { role: 'CIS_bdpm', names: names('CIS_bdpm'), recognise: byShape(12, (f) => CIS.test(f[0]!) && DAY_FIRST.test(f[7]!.trim())) },
  { role: 'CIS_CIP_bdpm', names: names('CIS_CIP_bdpm'), recognise: byShape(13, (f) => CIS.test(f[0]!) && /^\d{7}$/.test(f[1]!) && /^\d{13}$/.test(f[6]!), { slack: 1 }) },
  { role: 'CIS_COMPO_bdpm', names: names('CIS_COMPO_bdpm'), recognise: byShape(8, (f) => CIS.test(f[0]!) && /^(?:SA|FT)$/.test(f[6]!)) },
  { role: 'CIS_GENER_bdpm', names: names('CIS_GENER_bdpm'), recognise: byShape(5, (f) => /^\d+$/.test(f[0]!) && CIS.test(f[2]!) && /^[0-4]$/.test(f[3]!)) },
  { role: 'CIS_CPD_bdpm', names: names('CIS_CPD_bdpm'), recognise: byShape(2, (f) => CIS.test(f[0]!) && f[1]!.trim() !== '') },
  { role: 'CIS_HAS_SMR_bdpm', names: names('CIS_HAS_SMR_bdpm'), recognise: byShape(6, (f) => CIS.test(f[0]!) && DOSSIER.test(f[1]!) && COMPACT.test(f[3]!) && SMR.test(f[4]!), { textLast: true }) },
  { role: 'CIS_HAS_ASMR_bdpm', names: names('CIS_HAS_ASMR_bdpm'), recognise: byShape(6, (f) => CIS.test(f[0]!) && DOSSIER.test(f[1]!) && COMPACT.test(f[3]!) && ASMR.test(f[4]!), { textLast: true }) },
  { role: 'HAS_LiensPageCT_bdpm', names: names('HAS_LiensPageCT_bdpm', 'CIS_HAS_LiensPageCT_bdpm'), recognise: byShape(2, (f) => DOSSIER.test(f[0]!) && /^https?:\/\//i.test(f[1]!)) },
  { role: 'CIS_MITM', names: names('CIS_MITM'), recognise: byShape(4, (f) => CIS.test(f[0]!) && /^[A-Z]\d{2}[A-Z]{0,2}\d{0,2}$/i.test(f[1]!)) },
  { role: 'CIS_InfoImportantes', names: names('CIS_InfoImportantes', 'CIS_InfoImportantes_bdpm'), recognise: byShape(4, (f) => CIS.test(f[0]!) && DAY_FIRST.test(f[1]!) && (f[2] === '' || DAY_FIRST.test(f[2]!)), { textLast: true }) },
  { role: 'CIS_CIP_Dispo_Spec', names: names('CIS_CIP_Dispo_Spec'), recognise: recogniseAvailability },
];
