import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ADAPTERS, FileRejectedError, findAdapter } from '../../../workers/ingest/adapters/index.ts';
import type { InputFile } from '../../../workers/ingest/adapters/index.ts';

const file = (dir: string, name: string): InputFile => ({
  name: `/data/${name}`,
  content: readFileSync(new URL(`../../fixtures/registers/${dir}/${name}`, import.meta.url)),
});

describe('adapter registry', () => {
  it('registers an adapter for every published format with the files it reads', () => {
    expect(ADAPTERS.map((a) => a.id)).toEqual([
      'who-atc', 'fda-ndc', 'us-openfda-ndc', 'us-unii', 'us-rxnorm', 'us-spl', 'fr-bdpm', 'ch-sl', 'ch-sl-groups', 'ch-artikelstamm',
      'ch-refdata', 'ch-swissmedic', 'ch-zurrose', 'gb-dmd', 'eu-ema', 'de-pzn', 'nl-cbg', 'be-sam', 'ie-hpra', 'dk-lms', 'no-fest',
      'es-cima', 'at-eko', 'fi-fimea', 'se-tlv', 'it-aifa', 'pt-infomed', 'at-basg-supply', 'es-cima-supply', 'fr-ansm-supply', 'us-fda-shortages', 'snapshot',
    ]);
    expect(findAdapter('fr-bdpm')?.files).toEqual(['CIS_bdpm.txt', 'CIS_CIP_bdpm.txt']);
    expect(findAdapter('nope')).toBeUndefined();
  });

  it('runs each adapter on its fixture files, matching files by base name', async () => {
    const runs: Array<[string, InputFile[]]> = [
      ['who-atc', [file('who-atc', 'atc.csv')]],
      ['fda-ndc', [file('fda-ndc', 'package.txt'), file('fda-ndc', 'product.txt')]],
      ['fr-bdpm', [file('fr-bdpm', 'CIS_bdpm.txt'), file('fr-bdpm', 'CIS_CIP_bdpm.txt'), file('fr-bdpm', 'CIS_COMPO_bdpm.txt')]],
      ['ch-sl', [file('ch-sl', 'Preparations.xml')]],
      ['snapshot', [file('snapshot', 'snapshot.json')]],
    ];
    for (const [id, files] of runs) {
      const result = await findAdapter(id)!.parse(files);
      expect(result.snapshot.format).toBe('drugref-snapshot/1');
      expect(result.snapshot.source.id).toBe(id === 'snapshot' ? 'example-ch' : id);
    }
  });

  it('refuses a single-file adapter given several unrelated files', async () => {
    const files = [file('who-atc', 'atc.csv'), file('who-atc', 'bad-header.csv')];
    await expect(findAdapter('ch-sl')!.parse(files)).rejects.toThrow(FileRejectedError);
  });
});
