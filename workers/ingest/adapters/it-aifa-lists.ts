/**
 * AIFA price lists given without the register (the *Lista di trasparenza* a user downloads each
 * month, a Classe A or H list): each list row describes its pack well enough to stand alone
 * (AIC, medicine name, pack text, holder, substance, for the transparency list also the ATC), so
 * its packs and products are built from the rows and priced as beside the register.
 *
 * They are the snapshot of their own source, `it-aifa-prezzi`, not of `it-aifa`: a snapshot
 * states its source whole, and a list holds the packs the SSN prices, a few thousand of the
 * register's 160 000. Ingested alone it therefore replaces the previous list and never deletes a
 * register pack; the catalogue's merge step joins its packs to the register's by AIC.
 */
import type { SourceInfo } from '../snapshot.ts';
import type { DelimitedRow } from './delimited-table.ts';
import { pickColumn } from './delimited-table.ts';
import type { RowTally } from '../row-outcome.ts';
import { REGISTER_COLUMNS as C } from './it-aifa-files.ts';
import type { PriceList } from './it-aifa-prices.ts';
import { addRegisterRow } from './it-aifa-register.ts';
import type { RegisterState } from './it-aifa-register.ts';

export const IT_AIFA_LISTS_SOURCE: SourceInfo = {
  id: 'it-aifa-prezzi',
  name: 'AIFA price lists (lista di trasparenza, Classe A and H) read without the register',
  country: 'IT',
  // AIFA publishes the transparency list monthly (on the 15th).
  refresh_interval_hours: 24 * 31,
  licence: 'CC BY 4.0 (AIFA open data)',
  url: 'https://www.aifa.gov.it/liste-di-trasparenza',
};

/** Register column → the list's column (header keys) a pack and product are built from. */
const TRANSPARENCY: Partial<Record<string, string>> = {
  [C.name]: 'farmaco', [C.description]: 'confezione', [C.holder]: 'ditta', [C.atc]: 'atc', [C.substances]: 'principio attivo',
};
const CLASS_LIST: Partial<Record<string, string>> = { [C.holder]: 'titolare aic', [C.substances]: 'principio attivo' };

/** A class list's `GLUCOPHAGE*30 cpr riv 500 mg`: the name before the star, the pack after it. */
function nameAndPack(text: string): { name: string; pack: string } {
  const star = text.indexOf('*');
  return star < 0 ? { name: text, pack: '' } : { name: text.slice(0, star).trim(), pack: text.slice(star + 1).trim() };
}

/** A list row as the register's columns name its cells, with the AIC already checked. */
function asRegisterRow(list: PriceList, aic: string, row: DelimitedRow, header: readonly string[]): DelimitedRow {
  const columns = list.role === 'transparency' ? TRANSPARENCY : CLASS_LIST;
  const named = list.role === 'transparency' ? null : nameAndPack(row.get('denominazione e confezione'));
  const get = (column: string): string => {
    if (column === C.aic) return aic;
    if (named && column === C.name) return named.name;
    if (named && column === C.description) return named.pack;
    const c = columns[column];
    return c && pickColumn(header, [c]) ? row.get(c) : '';
  };
  return { line: row.line, width: row.width, get };
}

/**
 * Packs and products of the lists' rows (lists in the order given; a pack two lists hold is
 * built from the first). The rows were checked by `readPriceList`; their prices are applied
 * afterwards as beside the register.
 */
export function packsOfLists(lists: ReadonlyArray<{ list: PriceList; header: readonly string[]; tally: RowTally }>, state: RegisterState): void {
  for (const { list, header, tally } of lists) {
    for (const [aic, row] of list.rows) {
      if (state.packs.has(aic)) continue;
      const skip = addRegisterRow(asRegisterRow(list, aic, row, header), 0, state);
      // A row without a medicine name describes no pack: it was kept for its price, now it is malformed.
      if (skip && 'malformed' in skip) { tally.unkeep({ malformed: { line: row.line, message: skip.malformed } }); list.rows.delete(aic); }
    }
  }
}
