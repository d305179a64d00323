/**
 * The AIFA open-data files the `it-aifa` adapter reads, told apart by their header row (file
 * names change: the Classe A list carries its date in the name, the register was once called
 * `confezioni.csv` with lower-case headers and is now `confezioni_fornitura.csv` in upper case):
 *
 * - register (`confezioni_fornitura.csv`): CODICE_AIC;COD_FARMACO;COD_CONFEZIONE;DENOMINAZIONE;
 *   DESCRIZIONE;CODICE_DITTA;RAGIONE_SOCIALE;STATO_AMMINISTRATIVO;TIPO_PROCEDURA;FORMA;CODICE_ATC;
 *   PA_ASSOCIATI;FORNITURA;LINK_FI;LINK_RCP (older: ...;PA_ASSOCIATI;LINK, no FORNITURA);
 * - active ingredients per pack (`PA_confezioni.csv`): CODICE_AIC;PRINCIPIO_ATTIVO;QUANTITA;UNITA_MISURA;
 * - Classe A / Classe H lists "per principio attivo": Principio Attivo;Descrizione Gruppo
 *   (Equivalenza);Denominazione e Confezione;Prezzo al pubblico €;[H: Prezzo Ex-factory €;Prezzo
 *   massimo di cessione €;]Titolare AIC;(Codice) AIC;Codice Gruppo Equivalenza;...;
 * - lista di trasparenza (`Lista_farmaci_equivalenti.csv`): Principio attivo;Confezione di
 *   riferimento;ATC;AIC;Farmaco;Confezione;Ditta;Prezzo riferimento SSN;Prezzo Pubblico <date>;
 *   Differenza;Nota;Codice gruppo equivalenza (CP1252, CRLF, prices `5,63 €`, AIC without its leading zero);
 * - Banca Dati Farmaci extract (`BDFN_MEDICINALE_SPOR_<ddmmyyyy>_tracciato.csv`, UTF-8 with BOM, 49
 *   columns, one row per pack × route × substance, SPOR term ids): CODICE_MEDICINALE;ID_PACKAGE;AIC;
 *   ...;DEN_TITOLARE;...;DENOM_MEDICINALE;...;DESCRIZIONE_VIA_SOMMIN;...;DESCRIZIONE_PA;OPERATORE;
 *   DOSAGGIO_QTA_MIN_NUM;...;DESCRIZ_CONFEZIONE;...;CODICE_ATC;FK_FASCIA_PTN;SIGLA_FORNITURA;...
 */
import { columnStartingWith } from './delimited-table.ts';

export type AifaRole = 'register' | 'bdfn' | 'ingredients' | 'class_a' | 'class_h' | 'transparency';

/** Header keys (lower case) of the register columns read; the older lower-case file uses the same names. */
export const REGISTER_COLUMNS = {
  aic: 'codice_aic', product: 'cod_farmaco', name: 'denominazione', description: 'descrizione',
  holder: 'ragione_sociale', status: 'stato_amministrativo', procedure: 'tipo_procedura', form: 'forma',
  atc: 'codice_atc', substances: 'pa_associati', supply: 'fornitura', leaflet: 'link_fi', spc: 'link_rcp', link: 'link',
} as const;

/** Header keys of the BDFN extract's columns read (its third column is `AIC`, with the leading zero). */
export const BDFN_COLUMNS = {
  aic: 'aic', product: 'codice_farmaco', name: 'denom_medicinale', description: 'descriz_confezione', holder: 'den_titolare',
  status: 'stato_amm_short_conf', procedure: 'desc_tipo_proced', form: 'descrizione_forma_farm', route: 'descrizione_via_sommin',
  substance: 'descrizione_pa', operator: 'operatore', min: 'dosaggio_qta_min_num', max: 'dosaggio_qta_max_num', unit: 'sigla_um_num',
  per: 'dosaggio_qta_min_den', perUnit: 'sigla_um_den', atc: 'codice_atc', band: 'fk_fascia_ptn', supply: 'sigla_fornitura',
  authorised: 'data_efficacia_autor', evCode: 'xevmpd',
} as const;

export const INGREDIENT_COLUMNS = { aic: 'codice_aic', substance: 'principio_attivo', quantity: ['quantita', 'quantità'], unit: ['unita_misura', 'unità_misura'] } as const;

/** AIC column of the class lists: `Codice AIC` in older issues, `AIC` now, `Codice\nAIC` in the H list. */
export const PRICE_LIST_AIC = ['aic', 'codice aic'];
export const PRICE_LIST_GROUP = 'codice gruppo equivalenza';
export const PUBLIC_PRICE_PREFIXES = ['prezzo al pubblico', 'prezzo pubblico'];
export const EX_FACTORY_PREFIXES = ['prezzo ex-factory', 'prezzo ex factory'];
export const TRANSFER_PRICE_PREFIXES = ['prezzo massimo di cessione'];
export const REFERENCE_PRICE = 'prezzo riferimento ssn';

/** The role a header says a file has, or null when it is none of the AIFA files. */
export function roleOfHeader(keys: readonly string[], fileName: string): AifaRole | null {
  if (keys.includes(REGISTER_COLUMNS.aic) && keys.includes(REGISTER_COLUMNS.name)) return 'register';
  if (keys.includes(BDFN_COLUMNS.aic) && keys.includes(BDFN_COLUMNS.name) && keys.includes(BDFN_COLUMNS.description)) return 'bdfn';
  if (keys.includes(INGREDIENT_COLUMNS.aic) && keys.includes(INGREDIENT_COLUMNS.substance)) return 'ingredients';
  const hasAic = PRICE_LIST_AIC.some((c) => keys.includes(c));
  if (hasAic && keys.includes(REFERENCE_PRICE)) return 'transparency';
  if (hasAic && columnStartingWith(keys, PUBLIC_PRICE_PREFIXES)) {
    // The H list adds the hospital prices; its file name says `Classe_H` as well.
    const hospital = columnStartingWith(keys, [...EX_FACTORY_PREFIXES, ...TRANSFER_PRICE_PREFIXES]) !== undefined;
    return hospital || /classe[\s_-]*h/i.test(fileName) ? 'class_h' : 'class_a';
  }
  return null;
}

const MONTHS: Record<string, string> = {
  gennaio: '01', febbraio: '02', marzo: '03', aprile: '04', maggio: '05', giugno: '06',
  luglio: '07', agosto: '08', settembre: '09', ottobre: '10', novembre: '11', dicembre: '12',
};

/** The date an Italian text names (`15 settembre 2026`, `28-02-2026`, `15/02/2026`) as ISO, or undefined. */
export function italianDate(text: string): string | undefined {
  const words = /(\d{1,2})\s+([a-z]+)\s+(\d{4})/i.exec(text);
  if (words && MONTHS[words[2]!.toLowerCase()]) return valid(words[3]!, MONTHS[words[2]!.toLowerCase()]!, words[1]!);
  const digits = /(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})/.exec(text);
  return digits ? valid(digits[3]!, digits[2]!, digits[1]!) : undefined;
}

function valid(year: string, month: string, day: string): string | undefined {
  const iso = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : undefined;
}
