/**
 * French availability list as the BDPM publishes it (`CIS_CIP_Dispo_Spec.txt`, the ANSM's
 * shortage notices), as supply rows: the list is read as fr-availability.ts describes (each
 * code's current notice; older ones `superseded`). A notice naming a CIP13 is kept under the
 * pack's CIP13; one without under the CIS, so it reaches the product (as BASG restrictions
 * without PZN do).
 *
 * Status: 1 rupture de stock → unavailable; 2 tension d'approvisionnement → limited;
 * 3 arrêt de commercialisation → discontinued; 4 remise à disposition → available (since the
 * date supply came back). The list gives no reason and no expected end.
 */
import { RowTally } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import { FileRejectedError, decodeUtf8OrLatin, numberedLines } from './common.ts';
import type { InputFile } from './common.ts';
import { assignLoadedRoles, requireRole } from './file-roles.ts';
import { currentNotices } from './fr-availability.ts';
import { recogniseAvailability } from './fr-bdpm-roles.ts';
import type { SupplyParse } from './supply-rows.ts';

export const FR_ANSM_SUPPLY_FILE = 'CIS_CIP_Dispo_Spec.txt';

export async function parseFrAnsmSupply(files: InputFile[]): Promise<SupplyParse> {
  const roles = assignLoadedRoles(files, [{
    role: 'availability', names: [FR_ANSM_SUPPLY_FILE],
    // The same file fr-bdpm reads for the availability of its packs: recognised by the same rule.
    recognise: recogniseAvailability,
  }]);
  const file = requireRole(roles, 'availability', FR_ANSM_SUPPLY_FILE);
  const lines = numberedLines(decodeUtf8OrLatin(file.content));
  if (lines.length === 0) throw new FileRejectedError(file.name, 'empty: no availability row');
  const problems: RowProblem[] = [];
  const tally = new RowTally(file.name, problems);
  const notices = currentNotices(lines, tally);
  return {
    source: {
      id: 'fr-ansm-supply', name: 'ANSM disponibilité des médicaments (BDPM)', country: 'FR', refresh_interval_hours: 24,
      licence: 'BDPM open data (Licence Ouverte / Etalab), ANSM named as source', url: 'https://base-donnees-publique.medicaments.gouv.fr/telechargement.php',
    },
    rows: [...notices.values()].map((n) => n.row), problems, files: [tally.report('availability'), ...roles.unused], partial: false,
  };
}
