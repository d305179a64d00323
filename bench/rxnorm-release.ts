/**
 * A generated RxNorm full release (NLM Rich Release Format) of the real one's shape and size,
 * for the large-ingest bench and the streamed adapter's tests: `RXNCONSO.RRF` (18 pipe-terminated
 * fields: RXCUI|LAT|TS|LUI|STT|SUI|ISPREF|RXAUI|SAUI|SCUI|SDUI|SAB|TTY|CODE|STR|SRL|SUPPRESS|CVF|)
 * and `RXNSAT.RRF` (13: RXCUI|LUI|SUI|RXAUI|STYPE|CODE|ATUI|SATUI|ATN|SAB|ATV|SUPPRESS|CVF|),
 * no header, LF line ends, as NLM publishes them.
 *
 * For `n` drugs (SCD, SBD, GPCK, BPCK): about n / 10 ingredients (IN and PIN) with their MTHSPL
 * UNII atoms (valid check characters), four more atoms per drug (RxNorm synonyms, other sources),
 * and per drug six RxNorm-normalised NDCs among about 37 attributes (other sources' NDCs, the
 * strengths, SPL set ids ...). A few lines the adapter must report: a bad UNII, a line with
 * missing fields, an NDC that is not 11 digits, an NDC claimed by two drugs; a few suppressed
 * concepts and drugs without NDCs. The real release holds about 1 M RXNCONSO lines (a third of
 * them SAB=RXNORM) and 6 M RXNSAT lines, of which about 500 000 RxNorm NDCs.
 */
import { join } from 'node:path';
import { uniiCheckCharacter } from '../vocabulary/check-digits.ts';
import { writeLines } from './write-file.ts';

const FORMS = ['Oral Tablet', 'Oral Capsule', 'Injectable Solution', 'Topical Cream', 'Extended Release Oral Tablet'];
const OTHER_ATTRIBUTES = ['RXN_HUMAN_DRUG', 'RXN_STRENGTH', 'RXN_AVAILABLE_STRENGTH', 'RXTERM_FORM', 'RXN_BN_CARDINALITY', 'DCSA', 'SPL_SET_ID'];
const DRUG_TTYS = ['SCD', 'SCD', 'SBD', 'SCD', 'SBD', 'SCD', 'SBD', 'SCD', 'GPCK', 'BPCK'];

const unii = (j: number): string => {
  const body = `RX${String(j).padStart(7, '0')}`;
  return `${body}${uniiCheckCharacter(body)}`;
};
const ingredientRxcui = (j: number): string => String(100 + 7 * j);
const drugRxcui = (i: number): string => String(1_000_000 + i);
const ndc11 = (i: number, k: number): string => String(1_000_000 + 8 * i + k).padStart(11, '0');

/** An RXNCONSO line. */
function conso(rxcui: string, aui: number, sab: string, tty: string, code: string, str: string, suppress = 'N'): string {
  return [rxcui, 'ENG', '', '', '', '', '', String(aui), '', '', '', sab, tty, code, str, '', suppress, '4096', ''].join('|');
}

/** An RXNSAT line. */
function sat(rxcui: string, aui: number, atn: string, sab: string, atv: string): string {
  return [rxcui, '', '', String(aui), 'AUI', rxcui, '', '', atn, sab, atv, 'N', '4096', ''].join('|');
}

function* consoLines(n: number): Generator<string> {
  const ingredients = Math.max(1, Math.ceil(n / 10));
  for (let j = 0; j < ingredients; j += 1) {
    const name = `substance${j} ${j % 5 === 4 ? 'hydrochloride' : 'base'}`;
    yield conso(ingredientRxcui(j), 10 * j, 'RXNORM', j % 5 === 4 ? 'PIN' : 'IN', ingredientRxcui(j), name);
    // One in 500 has a second UNII that fails its check character (reported, then keyed by the valid one).
    yield conso(ingredientRxcui(j), 10 * j + 1, 'MTHSPL', 'SU', unii(j), name.toUpperCase());
    if (j % 500 === 499) yield conso(ingredientRxcui(j), 10 * j + 2, 'MTHSPL', 'SU', `${unii(j).slice(0, 9)}!`, name.toUpperCase());
    yield conso(ingredientRxcui(j), 10 * j + 3, 'MMSL', 'IN', `d${j}`, name);
  }
  for (let i = 0; i < n; i += 1) {
    const tty = DRUG_TTYS[i % DRUG_TTYS.length]!;
    const ingredient = `substance${i % ingredients} base ${5 * (1 + (i % 40))} MG ${FORMS[i % FORMS.length]}`;
    const str = tty === 'SBD' || tty === 'BPCK' ? `${ingredient} [Brand${i}]` : ingredient;
    const aui = 10_000_000 + 10 * i;
    if (i % 5000 === 4999) yield `${drugRxcui(i)}|ENG||broken line|`;
    // One drug in 1000 is suppressed (obsolete): left out with its NDCs.
    yield conso(drugRxcui(i), aui, 'RXNORM', tty, drugRxcui(i), str, i % 1000 === 500 ? 'O' : 'N');
    yield conso(drugRxcui(i), aui + 1, 'RXNORM', 'PSN', drugRxcui(i), str.toUpperCase());
    yield conso(drugRxcui(i), aui + 2, 'RXNORM', 'SY', drugRxcui(i), `${str} (synonym)`);
    yield conso(drugRxcui(i), aui + 3, 'MMSL', 'CD', `c${i}`, str);
    yield conso(drugRxcui(i), aui + 4, 'VANDF', 'CD', `v${i}`, str.toUpperCase());
  }
}

function* satLines(n: number): Generator<string> {
  for (let i = 0; i < n; i += 1) {
    const rxcui = drugRxcui(i);
    const aui = 10_000_000 + 10 * i;
    // One drug in 50 has no NDC (not a US pack).
    const ndcs = i % 50 === 49 ? 0 : 6;
    for (let k = 0; k < ndcs; k += 1) {
      const ndc = i % 4000 === 2000 && k === 0 ? 'not-an-ndc'
        // Every 3000th drug claims an NDC of the drug before it.
        : i % 3000 === 1501 && k === 1 ? ndc11(i - 1, 0) : ndc11(i, k);
      yield sat(rxcui, aui, 'NDC', 'RXNORM', ndc);
      yield sat(rxcui, aui + 4, 'NDC', 'VANDF', ndc);
      yield sat(rxcui, aui + 5, 'NDC', 'MTHSPL', `${ndc.slice(1, 5)}-${ndc.slice(5, 9)}-${ndc.slice(9)}`);
    }
    for (let k = 0; k < 37 - 3 * ndcs; k += 1) {
      const atn = OTHER_ATTRIBUTES[k % OTHER_ATTRIBUTES.length]!;
      yield sat(rxcui, aui, atn, k % 2 ? 'RXNORM' : 'MTHSPL', `${atn.toLowerCase()} value ${i}-${k}`);
    }
  }
}

/** Writes a release of `n` drugs into `dir`; returns the paths of RXNCONSO.RRF and RXNSAT.RRF. */
export async function writeRxnormRelease(dir: string, n: number): Promise<string[]> {
  const files = [join(dir, 'RXNCONSO.RRF'), join(dir, 'RXNSAT.RRF')];
  await writeLines(files[0]!, consoLines(n), '\n');
  await writeLines(files[1]!, satLines(n), '\n');
  return files;
}
