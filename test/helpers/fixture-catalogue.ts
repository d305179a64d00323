/**
 * A catalogue as a user's would be: every register adapter's fixtures (written from the
 * publishers' layouts) ingested into one database, WHO's ATC/DDD index included. Derived
 * answers — ATC codes of products whose register has none, prices per DDD, interaction names,
 * cross-register links — only exist in such a catalogue, so they are tested here, not on one
 * register alone.
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { Database } from '../../platform/db.ts';
import { findAdapter } from '../../workers/ingest/adapters/index.ts';
import type { InputFile } from '../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import { buildPackungen } from '../fixtures/registers/ch-swissmedic/packungen.ts';

const REGISTERS = new URL('../fixtures/registers/', import.meta.url);

function files(dir: string, names: readonly string[]): InputFile[] {
  return names.map((name) => ({ name: name.split('/').at(-1)!, content: readFileSync(new URL(`${dir}/${name}`, REGISTERS)) }));
}

/** Every file of a fixture folder whose name matches. */
function matching(dir: string, pattern: RegExp): string[] {
  return readdirSync(new URL(`${dir}/`, REGISTERS)).filter((n) => pattern.test(n)).sort();
}

/** Adapter id → the fixture files one user would hand it; WHO's index first, as a user would load it. */
export function fixtureInputs(): Array<{ adapter: string; files: () => Promise<InputFile[]> | InputFile[] }> {
  const of = (adapter: string, dir: string, names: readonly string[]) => ({ adapter, files: () => files(dir, names) });
  return [
    of('who-atc', 'who-atc', ['catalogue-atc.csv']),
    of('ch-sl', 'ch-sl', ['Preparations.xml']),
    of('ch-refdata', 'ch-refdata', ['Refdata.Articles.xml']),
    { adapter: 'ch-swissmedic', files: async () => [{ name: 'Packungen.xlsx', content: await buildPackungen() }] },
    of('ch-zurrose', 'ch-zurrose', ['transfer.dat']),
    of('ch-artikelstamm', 'ch-artikelstamm', ['artikelstamm.xml']),
    of('ch-sl-groups', 'ch-sl-groups', ['bag_sl_group_prices.csv', 'weleda_arzneimittel.csv', 'wala_arzneimittel.csv']),
    of('fr-bdpm', 'fr-bdpm', matching('fr-bdpm', /^(?!CIS_bdpm-with-header).*\.txt$/)),
    of('gb-dmd', 'gb-dmd', matching('gb-dmd', /^f_.*\.xml$/)),
    of('de-pzn', 'de-pzn', ['festbetraege.csv']),
    of('de-pzn', 'de-pzn', ['preisliste-handelsname.csv']),
    of('eu-ema', 'eu-ema', ['medicines-output-medicines-report_en.csv']),
    of('fda-ndc', 'fda-ndc', ['product.txt', 'package.txt']),
    of('us-spl', 'us-spl', ['metformin-spl.xml']),
    of('us-rxnorm', 'us-rxnorm', ['RXNCONSO.RRF', 'RXNSAT.RRF']),
    of('us-unii', 'us-unii', ['UNII_Records_20Nov2026.txt', 'UNII_Names_20Nov2026.txt']),
    of('it-aifa', 'it-aifa', ['confezioni_fornitura.csv', 'PA_confezioni.csv', 'Classe_A_per_principio_attivo_28-02-2026.csv',
      'Classe_H_per_principio_attivo_28-02-2026.csv', 'Lista_farmaci_equivalenti.csv']),
    of('pt-infomed', 'pt-infomed', ['lista_infomed.csv']),
    of('at-eko', 'at-eko', ['medikament.txt', 'wirkstoff.txt', 'atccode.txt', 'rezeptpflicht.txt', 'regeltext.txt', 'medikament_zusatz.txt']),
    of('es-cima', 'es-cima', ['Prescripcion.xml', ...matching('es-cima', /^DICCIONARIO_/), '20261101_Nomenclator_de_Facturacion.csv']),
    of('dk-lms', 'dk-lms', ['lms01.txt', 'lms02.txt', 'lms03.txt', 'lms09.txt', 'lms30.txt']),
    of('no-fest', 'no-fest', ['fest251.xml']),
    of('se-tlv', 'se-tlv', ['tlv_lakemedel.csv']),
    of('fi-fimea', 'fi-fimea', ['PAKKAUS.txt', 'LAAKEAINE.txt', 'kela_hinnat.txt']),
    of('nl-cbg', 'nl-cbg', ['metadata.csv']),
    of('be-sam', 'be-sam', ['AMP.xml', 'RMB.xml']),
    of('ie-hpra', 'ie-hpra', ['latestHMlist.xml']),
  ];
}

/** Ingests every adapter's fixtures into `db`, one ingest per register as a user would run them. */
export async function loadFixtureCatalogue(db: Database): Promise<void> {
  for (const input of fixtureInputs()) {
    const adapter = findAdapter(input.adapter);
    if (!adapter) throw new Error(`no adapter ${input.adapter}`);
    const { snapshot } = await adapter.parse(await input.files());
    await ingestSnapshot(db, snapshot);
  }
}
