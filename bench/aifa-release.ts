/**
 * `npx tsx bench/aifa-release.ts [--lines N] [--quoted SHARE] [--keep PATH]`: what the it-aifa
 * adapter's streamed read costs on a full-size AIFA register, with no database.
 *
 * Writes a generated `confezioni_fornitura.csv` of N packs (default 100 000; AIFA's has about
 * 160 000) shaped like AIFA's: `;` separated, CRLF, UTF-8, sorted by AIC with 1–6 packs per
 * AIC6, the 15 columns of the published header, pack descriptions of the real register's kind
 * (`500 MG COMPRESSE RIVESTITE CON FILM- 30 COMPRESSE`), and a share SHARE (default 0.3) of
 * lines that quote fields (the description with doubled quotes inside, the company name), as
 * AIFA writes a field holding a `;` or a quote. Then opens it as `drugref ingest it-aifa` does
 * (`open`: a checking pass and the pass yielding products) and prints seconds, rows per second
 * and peak RSS; then the CPU time of splitting the file's lines alone (`splitLines`, csv-parse
 * once per batch of 1 000 as the adapter does, best of 3) against a plain split, to tell what
 * csv-parse costs of the whole. Run it with `--quoted 1` for the worst case, every line quoted.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { splitLines } from '../workers/ingest/adapters/delimited-text.ts';
import { fileInput } from '../workers/ingest/adapters/line-stream.ts';
import { openItAifa } from '../workers/ingest/adapters/it-aifa-stream.ts';
import { aicCheckDigit } from '../vocabulary/check-digits.ts';
import { writeLines } from './write-file.ts';

const HEADER = 'CODICE_AIC;COD_FARMACO;COD_CONFEZIONE;DENOMINAZIONE;DESCRIZIONE;CODICE_DITTA;RAGIONE_SOCIALE;STATO_AMMINISTRATIVO;'
  + 'TIPO_PROCEDURA;FORMA;CODICE_ATC;PA_ASSOCIATI;FORNITURA;LINK_FI;LINK_RCP';
const MEDICINES: ReadonlyArray<readonly [string, string, string, string, string, string]> = [
  ['GLUCOPHAGE', 'COMPRESSE RIVESTITE CON FILM', 'Compressa rivestita con film', 'A10BA02', 'METFORMINA CLORIDRATO', 'MG'],
  ['IBUPROFENE DOC', 'SOSPENSIONE ORALE', 'Sospensione orale', 'M01AE01', 'IBUPROFENE', 'MG/5 ML'],
  ['ELIQUIS', 'COMPRESSA RIVESTITA CON FILM - USO ORALE - BLISTER (ALU/PVC/PVDC)', 'Compressa rivestita con film', 'B01AF02', 'APIXABAN', 'MG'],
  ['AMOXICILLINA TEVA', 'CAPSULE RIGIDE', 'Capsula rigida', 'J01CA04', 'AMOXICILLINA TRIIDRATO', 'MG'],
];
const COMPANIES = ['MERCK SERONO S.P.A.', 'DOC GENERICI S.R.L.', 'BRISTOL-MYERS SQUIBB/PFIZER EEIG', 'TEVA ITALIA S.R.L.'];
const STATES = ['Autorizzata', 'Autorizzata', 'Autorizzata', 'Sospesa', 'Revocata'];

/** Line `i` of the register (pack `i`, AIC6 runs of 1–6 packs); quoted when `quoted`. */
function line(i: number, aic6: number, pack: number, quoted: boolean): string {
  const [name, form, formText, atc, substance, unit] = MEDICINES[aic6 % MEDICINES.length]!;
  const company = COMPANIES[aic6 % COMPANIES.length]!;
  const farmaco = String(aic6).padStart(6, '0');
  // The pack's two digits and the Code 32 check digit of the eight before it.
  const body = `${farmaco}${String(pack * 12 + 1).padStart(2, '0')}`;
  const confezione = body.slice(6) + aicCheckDigit(body);
  const dose = 100 * (1 + (aic6 % 10));
  const count = 10 * (1 + (pack % 6));
  const description = quoted
    ? `"""${dose} ${unit} ${form.toLowerCase()}"" ${count} unità in blister; PVC/AL"`
    : `${dose} ${unit} ${form}- ${count} COMPRESSE`;
  const link = `https://api.aifa.gov.it/aifa-bdf-eif-be/1.0.0/organizzazione/${1000 + (aic6 % 900)}/farmaci/${farmaco}/stampati?ts=`;
  return [`${farmaco}${confezione}`, farmaco, confezione, name, description, String(1000 + (aic6 % 900)), quoted ? `"${company}"` : company,
    STATES[i % STATES.length], 'Procedura Nazionale', formText, atc, substance, i % 3 === 0 ? 'SOP' : 'RR', `${link}FI`, `${link}RCP`].join(';');
}

function* register(lines: number, quotedShare: number): Generator<string> {
  yield HEADER;
  let [i, aic6] = [0, 20000];
  while (i < lines) {
    const packs = 1 + (aic6 % 6);
    for (let pack = 0; pack < packs && i < lines; pack += 1, i += 1) {
      // Spread the quoted lines evenly: line i is quoted when the share's running total steps up.
      const quoted = Math.floor((i + 1) * quotedShare) > Math.floor(i * quotedShare);
      yield line(i, aic6, pack, quoted);
    }
    aic6 += 1;
  }
}

const { values } = parseArgs({ options: { lines: { type: 'string', default: '100000' }, quoted: { type: 'string', default: '0.3' }, keep: { type: 'string' } } });
const lines = Number(values.lines);
const share = Number(values.quoted);
const dir = values.keep ? null : await mkdtemp(join(tmpdir(), 'drugref-aifa-'));
const path = values.keep ?? join(dir!, 'confezioni_fornitura.csv');
await writeLines(path, register(lines, share), '\r\n');

const mib = (): number => Math.round(process.resourceUsage().maxRSS / 1024);
const started = performance.now();
const cpuBefore = process.cpuUsage();
const opened = await openItAifa([fileInput(path, 'confezioni_fornitura.csv')]);
const openSeconds = (performance.now() - started) / 1000;
let [products, packs] = [0, 0];
for await (const product of opened.snapshot.products ?? []) {
  products += 1;
  packs += product.packs.length;
}
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const report = opened.files![0]!;
console.log(`it-aifa open, ${lines} lines (${Math.round(share * 100)} % quoted): checked in ${openSeconds.toFixed(2)} s, `
  + `${products} products and ${packs} packs in ${seconds.toFixed(2)} s in all (${cpuSeconds.toFixed(2)} s CPU): ${Math.round(lines / seconds)} rows/s over both passes `
  + `(${Math.round(lines / cpuSeconds)} rows per CPU second), peak RSS ${mib()} MiB; ${report.read} read, ${report.kept} kept, ${report.malformed} malformed`);

/** Best-of-3 CPU milliseconds (user and system) of `fn`: wall time on a shared machine says little. */
function cpuMs(fn: () => void): number {
  let best = Infinity;
  for (let run = 0; run < 3; run += 1) {
    const before = process.cpuUsage();
    fn();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}
const text = readFileSync(path, 'utf8').split('\r\n').slice(1, -1);
const inBatches = (split: (batch: string[]) => unknown) => () => {
  for (let i = 0; i < text.length; i += 1000) split(text.slice(i, i + 1000));
};
const csvParse = cpuMs(inBatches((batch) => splitLines(batch, ';')));
const plain = cpuMs(inBatches((batch) => batch.map((l) => l.split(';'))));
console.log(`splitting alone, one pass: splitLines ${csvParse.toFixed(0)} ms CPU (${Math.round(lines / (csvParse / 1000))} lines/s), plain split ${plain.toFixed(0)} ms CPU`);
if (dir) await rm(dir, { recursive: true, force: true });
