import { readFileSync } from 'node:fs';
import { balanced } from '../../../workers/ingest/row-outcome.ts';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { dispensingList } from '../../../workers/ingest/adapters/fr-bdpm-annex.ts';
import { reimbursementRate } from '../../../workers/ingest/adapters/fr-bdpm-cis.ts';
import { parseDosage, strengthOf } from '../../../workers/ingest/adapters/fr-bdpm-compo.ts';
import { htmlToText } from '../../../workers/ingest/adapters/fr-bdpm-rows.ts';
import { bdpmUnits, parseFrBdpm } from '../../../workers/ingest/adapters/fr-bdpm.ts';
import { parseFrAnsmSupply } from '../../../workers/ingest/adapters/fr-ansm-supply.ts';

const file = (name: string, as = name): InputFile => ({
  name: as,
  content: readFileSync(new URL(`../../fixtures/registers/fr-bdpm/${name}`, import.meta.url)),
});
const content = (text: string, encoding: BufferEncoding = 'latin1'): Buffer => Buffer.from(text, encoding);
const ALL = [
  'CIS_bdpm.txt', 'CIS_CIP_bdpm.txt', 'CIS_COMPO_bdpm.txt', 'CIS_GENER_bdpm.txt', 'CIS_CPD_bdpm.txt', 'CIS_HAS_SMR_bdpm.txt',
  'CIS_HAS_ASMR_bdpm.txt', 'HAS_LiensPageCT_bdpm.txt', 'CIS_MITM.txt', 'CIS_InfoImportantes_20261120093012_bdpm.txt',
  'CIS_CIP_Dispo_Spec.txt',
];
const all = (): InputFile[] => ALL.map((n) => file(n));
const core = (): InputFile[] => [file('CIS_bdpm.txt'), file('CIS_CIP_bdpm.txt')];

describe('fr-bdpm adapter: CIS_bdpm and CIS_CIP_bdpm', () => {
  const { snapshot } = parseFrBdpm(all());
  const product = (cis: string) => snapshot.products?.find((p) => p.key === cis);

  it('reads each file in its own encoding: Windows-1252 CIS_bdpm, UTF-8 CIS_CIP with LF', () => {
    const cis = file('CIS_bdpm.txt').content;
    expect(cis.includes(Buffer.from([0x6d, 0xe9]))).toBe(true); // "mé" as one byte 0xE9
    expect(cis.includes(Buffer.from('é', 'utf-8'))).toBe(false);
    const cip = file('CIS_CIP_bdpm.txt').content;
    expect(cip.includes(Buffer.from('é', 'utf-8'))).toBe(true);
    expect(cip.includes(Buffer.from('\r\n'))).toBe(false);
    expect(product('60234100')?.product_name).toBe('DOLIPRANE 1000 mg, comprimé');
    expect(product('64793681')?.holder).toBe('LABORATOIRE D’EXEMPLE; ŒUVRE PHARMA');
    expect(product('64793681')?.packs[0]?.description).toBe('2 plaquette(s) PVC-aluminium de 30 comprimé(s)');
  });

  it('maps the CIS_bdpm columns: CIS and EU number, status, procedure, monitoring, BdM status', () => {
    expect(product('60234100')).toMatchObject({
      country: 'FR', route: 'orale', holder: 'SANOFI AVENTIS FRANCE', authorised_on: '1996-07-09', marketing_status: 'active',
      authorisation_status: 'Autorisation active', additional_monitoring: false,
      identifiers: [{ system: 'cis', code: '60234100' }],
    });
    expect(product('68257528')).toMatchObject({
      marketing_status: 'withdrawn', route: 'intramusculaire;sous-cutanée', additional_monitoring: true,
      identifiers: [{ system: 'cis', code: '68257528' }, { system: 'eu_number', code: 'EU/1/17/1234/001' }],
      attributes: { procedure: 'Procédure centralisée', commercialisation: 'Non commercialisée', bdm_status: 'Warning disponibilité' },
    });
  });

  it('keys presentations by CIP13 with CIP13, GTIN and CIP7 identifiers', () => {
    const pack = product('60234100')?.packs[0];
    expect(pack).toMatchObject({
      key: '3400933989453', description: 'plaquette(s) thermoformée(s) PVC-aluminium de 8 comprimé(s)',
      units: 8, unit: 'comprimé(s)', marketing_status: 'active', reimbursement_rate_percent: 65,
    });
    expect(pack?.identifiers).toEqual([
      { system: 'cip13', code: '3400933989453' }, { system: 'gtin', code: '3400933989453' }, { system: 'cip7', code: '3398945' },
    ]);
  });

  it('reads rates written 65%, "65 %" and "65 % ", and the highest of several', () => {
    expect(product('64793681')?.packs[0]?.reimbursement_rate_percent).toBe(65);
    expect(product('68257528')?.packs[0]?.reimbursement_rate_percent).toBe(65);
    expect(product('67535309')?.packs[0]?.reimbursement_rate_percent).toBe(100);
    expect(reimbursementRate('65 % ')).toBe(65);
    expect(reimbursementRate('15%')).toBe(15);
    expect(reimbursementRate('100%;65%')).toBe(100);
    expect(reimbursementRate('')).toBeUndefined();
    expect(reimbursementRate('NR')).toBeNull();
  });

  it('parses French decimal prices, with or without thousands separators', () => {
    expect(product('60234100')?.packs[0]?.prices).toEqual([
      { amount: 1.16, currency: 'EUR', kind: 'list' }, { amount: 2.18, currency: 'EUR', kind: 'public' },
    ]);
    const big = product('64793681')?.packs.find((p) => p.key === '3400936963504');
    expect(big?.prices?.map((p) => p.amount)).toEqual([1234.56, 1235.58]);
    expect(big).toMatchObject({ units: 60, reimbursement_rate_percent: 65 });
  });

  it('marks stopped presentations as withdrawn and leaves their empty prices out', () => {
    const stopped = product('64793681')?.packs.find((p) => p.key === '3400955074199');
    expect(stopped?.marketing_status).toBe('withdrawn');
    expect(stopped?.prices).toBeUndefined();
    expect(stopped?.reimbursement_rate_percent).toBeUndefined();
  });

  it('reads a row that ends with a trailing tab and a container holding a volume', () => {
    expect(product('68257528')?.packs).toEqual([expect.objectContaining({
      key: '3400949497300', units: 1, unit: 'seringue(s)', quantity: { value: 0.5, unit: 'ml' },
    })]);
  });
});

describe('fr-bdpm adapter: composition', () => {
  const { snapshot } = parseFrBdpm(all());
  const product = (cis: string) => snapshot.products?.find((p) => p.key === cis);

  it('keeps the SA line as the ingredient and its linked FT line as the moiety, both strengths', () => {
    expect(product('64793681')?.ingredients).toEqual([{
      unii: 'bdpm:24321', strength_value: 1000, strength_unit: 'mg', strength_text: '1 000 mg pour un comprimé',
      moiety: { unii: 'bdpm:04442', strength_value: 780, strength_unit: 'mg', strength_text: '780,00 mg pour un comprimé' },
    }]);
    // Link number 2 (not 1) pairs SA and FT in GLUCOPHAGE.
    expect(product('67535309')?.ingredients[0]?.moiety).toMatchObject({ unii: 'bdpm:04442', strength_value: 780 });
  });

  it('counts an exactly duplicated SA row once and keeps a plain SA without moiety', () => {
    expect(product('60234100')?.ingredients).toEqual([
      { unii: 'bdpm:02202', strength_value: 1000, strength_unit: 'mg', strength_text: '1000 mg pour un comprimé' },
    ]);
  });

  it('turns a dosage per volume into a concentration', () => {
    expect(product('68257528')?.ingredients).toEqual([{
      unii: 'bdpm:99998', strength_value: 80, strength_unit: 'microgrammes/ml', strength_text: '40 microgrammes pour 0,5 ml',
    }]);
  });

  it('names substances by BDPM code in French; a salt points to its FT moiety', () => {
    expect(snapshot.substances).toContainEqual({ unii: 'bdpm:02202', name: 'PARACÉTAMOL', names: { fr: 'PARACÉTAMOL' }, provisional: true });
    expect(snapshot.substances).toContainEqual({
      unii: 'bdpm:24321', name: 'CHLORHYDRATE DE METFORMINE', names: { fr: 'CHLORHYDRATE DE METFORMINE' }, provisional: true, moiety_unii: 'bdpm:04442',
    });
    expect(snapshot.substances).toContainEqual({ unii: 'bdpm:04442', name: 'METFORMINE', names: { fr: 'METFORMINE' }, provisional: true });
  });
});

describe('fr-bdpm adapter: generic groups, conditions, HAS opinions, MITM, safety notes, shortages', () => {
  const { snapshot } = parseFrBdpm(all());
  const product = (cis: string) => snapshot.products?.find((p) => p.key === cis);

  it('reads generic groups with their role; princeps and generic set `generic`', () => {
    const label = 'METFORMINE (CHLORHYDRATE DE) équivalant à METFORMINE 780 mg - GLUCOPHAGE 1000 mg, comprimé pelliculé sécable';
    expect(product('67535309')).toMatchObject({ generic: false, generic_groups: [{ code: '1039', label, role: 'princeps' }] });
    expect(product('64793681')).toMatchObject({ generic: true, generic_groups: [{ code: '1039', label, role: 'generic' }] });
    expect(product('60234100')?.generic_groups).toEqual([{ code: '1041', label: 'PARACÉTAMOL 1000 mg - DOLIPRANE 1000 mg, comprimé', role: 'princeps' }]);
  });

  it('keeps Liste I / Liste II / Stupéfiant as the dispensing category, other conditions as attributes', () => {
    expect(product('68257528')).toMatchObject({ dispensing_category: 'Liste I', attributes: { prescription_conditions: 'prescription hospitalière' } });
    expect(product('65319842')).toMatchObject({
      dispensing_category: 'Stupéfiant', attributes: { prescription_conditions: 'prescription limitée à 28 jours; liste II' },
    });
    expect(dispensingList('Liste  II')).toBe('Liste II');
    expect(dispensingList('réservé à l\'usage hospitalier')).toBeNull();
  });

  it('reads SMR and ASMR opinions newest first, HTML stripped, broken lines joined, CT page linked', () => {
    expect(product('68257528')?.assessments).toEqual([
      {
        kind: 'asmr', value: 'IV', date: '2017-09-20', code: 'CT-17000', reason: 'Inscription (CT)', url: 'https://www.has-sante.fr/jcms/c_17000',
        text: 'VACCIN EXEMPLE apporte une amélioration du service médical rendu mineure (ASMR IV) évaluée par la Commission.',
      },
      {
        kind: 'smr', value: 'Modéré', date: '2017-09-20', code: 'CT-17000', reason: 'Inscription (CT)', url: 'https://www.has-sante.fr/jcms/c_17000',
        text: 'Le service médical rendu par VACCIN EXEMPLE est modéré chez les adultes à risque.',
      },
    ]);
    const metformine = product('64793681')?.assessments;
    expect(metformine?.map((a) => `${a.kind} ${a.value} ${a.date}`)).toEqual(['smr Important 2018-07-04', 'asmr V 2013-06-12', 'smr Important 2013-06-12']);
    expect(metformine?.[2]?.text).toBe('Le service médical rendu par METFORMINE EXEMPLE est important dans le diabète de type 2.');
    expect(metformine?.[0]?.url).toBeUndefined();
  });

  it('sets the ATC code and the MITM flag from CIS_MITM.txt', () => {
    expect(product('60234100')).toMatchObject({ atc_code: 'N02BE01', attributes: { mitm: true } });
    expect(product('64793681')?.atc_code).toBe('A10BA02');
    expect(product('67535309')?.atc_code).toBeUndefined();
  });

  it('keeps the safety notes of the live InfoImportantes file, newest first', () => {
    expect(product('64793681')?.attributes).toMatchObject({
      safety_info: 'Metformine Exemple : risque d\'acidose lactique – Lettre aux professionnels de santé\nMetformine : ancienne information',
      safety_info_from: '2026-01-01', safety_info_until: '2026-12-31',
      safety_info_url: 'https://ansm.sante.fr/informations-de-securite/metformine-exemple',
    });
  });

  it('reads shortages per pack (CIP13 given) or per medicine', () => {
    expect(product('60234100')?.packs[0]?.availability).toBe('Rupture de stock');
    expect(product('64793681')?.attributes).toMatchObject({ availability: 'Tension d\'approvisionnement', availability_since: '2026-10-01' });
  });

  it('takes a medicine\'s availability from its notice updated last, as fr-ansm-supply does, wherever it stands in the file', async () => {
    // The current notice first, an older one of the same medicine after it (the list keeps both).
    const list = content([
      "64793681\t\t4\tRemise à disposition\t01/10/2026\t20/11/2026\t18/11/2026\thttps://ansm.sante.fr/x",
      "64793681\t\t1\tRupture de stock\t01/10/2026\t15/10/2026\t\thttps://ansm.sante.fr/x",
      '',
    ].join('\r\n'));
    const files = [...core(), { name: 'CIS_CIP_Dispo_Spec.txt', content: list }];
    const { snapshot: s, files: reports } = parseFrBdpm(files);
    expect(s.products?.find((p) => p.key === '64793681')?.attributes).toMatchObject({ availability: 'Remise à disposition', availability_since: '2026-11-18' });
    expect(reports?.find((f) => f.role === 'CIS_CIP_Dispo_Spec')).toMatchObject({ read: 2, kept: 1, malformed: 0, excluded: { superseded: 1 } });
    const supply = await parseFrAnsmSupply([{ name: 'CIS_CIP_Dispo_Spec.txt', content: list }]);
    expect(supply.rows).toMatchObject([{ system: 'cis', code: '64793681', status: 'available', since: '2026-11-18' }]);
  });

  it('decodes HTML fragments to plain text', () => {
    expect(htmlToText('a<br>b &eacute;t&#233; &#x2019; <b>c</b>&nbsp;d &unknown;')).toBe('a b été ’ c d &unknown;');
  });
});

describe('fr-bdpm adapter: problems, file reports and refusals', () => {
  it('reports malformed rows of every file with their line numbers and skips them (a pack of a CIS the release lacks is excluded, not malformed)', () => {
    const { problems, snapshot } = parseFrBdpm(all());
    expect(problems.map((p) => `${p.file}:${p.line}: ${p.message}`)).toEqual([
      'CIS_bdpm.txt:4: expected 12 tab-separated fields, got 10',
      'CIS_bdpm.txt:5: AMM date "31/02/2001" is not DD/MM/YYYY',
      'CIS_bdpm.txt:8: enhanced monitoring "Peut-être" is neither Oui nor Non',
      'CIS_CIP_bdpm.txt:4: CIP13 "3400949497295" is not a valid 34009 GTIN-13',
      'CIS_CIP_bdpm.txt:6: price "abc" is not a French decimal number',
      'CIS_CIP_bdpm.txt:9: reimbursement rate "NR" is not a percentage',
      'CIS_COMPO_bdpm.txt:5: nature "XX" is neither SA nor FT',
      'CIS_GENER_bdpm.txt:4: generic type "3" is not 0, 1, 2 or 4',
      'CIS_CPD_bdpm.txt:7: CIS code "6523" is not 8 digits',
      'CIS_HAS_SMR_bdpm.txt:5: opinion date "20171345" is not YYYYMMDD',
      'CIS_HAS_SMR_bdpm.txt:7: CIS code "6111111" is not 8 digits',
      'CIS_HAS_ASMR_bdpm.txt:3: expected 6 tab-separated fields, got 4',
      'HAS_LiensPageCT_bdpm.txt:3: expected a dossier code CT-nnnn and a URL, got "CT-XYZ" and "pas une adresse"',
      'CIS_MITM.txt:3: expected a CIS code and an ATC code, got "65319842" and "N02AA99X"',
      'CIS_InfoImportantes_20261120093012_bdpm.txt:3: dates "32/01/2026" and "31/12/2026" are not DD/MM/YYYY',
      'CIS_CIP_Dispo_Spec.txt:3: status "7" "Statut inconnu à vérifier" is not 1 to 4 with a label',
    ]);
    expect(snapshot.products?.map((p) => p.key)).toEqual(['60234100', '64793681', '68257528', '67535309', '65319842']);
  });

  it('reports every file with its role and rows read, kept, malformed and excluded (rows of a CIS the release lacks)', () => {
    const { files } = parseFrBdpm(all());
    expect(files?.map((f) => [f.role, f.read, f.kept, f.malformed, f.excluded ?? {}])).toEqual([
      ['CIS_bdpm', 8, 5, 3, {}],
      ['CIS_CIP_bdpm', 9, 5, 3, { no_product: 1 }],
      ['CIS_COMPO_bdpm', 10, 9, 1, {}],
      ['CIS_GENER_bdpm', 5, 3, 1, { no_product: 1 }],
      ['CIS_CPD_bdpm', 7, 5, 1, { no_product: 1 }],
      ['CIS_HAS_SMR_bdpm', 6, 3, 2, { no_product: 1 }],
      ['CIS_HAS_ASMR_bdpm', 3, 2, 1, {}],
      ['HAS_LiensPageCT_bdpm', 3, 2, 1, {}],
      ['CIS_MITM', 3, 2, 1, {}],
      ['CIS_InfoImportantes', 3, 2, 1, {}],
      ['CIS_CIP_Dispo_Spec', 3, 2, 1, {}],
    ]);
    expect(files?.every(balanced)).toBe(true);
    expect(files?.[9]?.file).toBe('CIS_InfoImportantes_20261120093012_bdpm.txt');
  });

  it('works without the optional files and accepts paths and data.gouv.fr .csv names', () => {
    const result = parseFrBdpm([file('CIS_CIP_bdpm.txt', '/data/CIS_CIP_bdpm.csv'), file('CIS_bdpm.txt', 'C:\\bdpm\\CIS_bdpm.txt')]);
    expect(result.snapshot.substances).toEqual([]);
    expect(result.snapshot.products?.find((p) => p.key === '60234100')?.atc_code).toBeUndefined();
    expect(result.files?.map((f) => f.role)).toEqual(['CIS_CIP_bdpm', 'CIS_bdpm']);
  });

  it('knows a file by its rows, not its name: a header line is no CIS_bdpm row, CPD rows under the GENER name are CPD', () => {
    const files = [file('CIS_bdpm-with-header.txt', 'CIS_bdpm.txt'), file('CIS_CIP_bdpm.txt')];
    expect(() => parseFrBdpm(files)).toThrow(FileRejectedError);
    expect(() => parseFrBdpm(files)).toThrow(/no CIS_bdpm file among the files given: CIS_CIP_bdpm.txt \(CIS_CIP_bdpm\); CIS_bdpm.txt \(unused\)/);
    const swapped = parseFrBdpm([...core(), { name: 'CIS_GENER_bdpm.txt', content: file('CIS_CPD_bdpm.txt').content }]);
    expect(swapped.files?.map((f) => [f.file, f.role])).toContainEqual(['CIS_GENER_bdpm.txt', 'CIS_CPD_bdpm']);
  });

  it('names a member it does not read as unused, and refuses a second file of one role', () => {
    const unknown = parseFrBdpm([...core(), { name: 'CIS_RCP.zip', content: content('x') }]);
    expect(unknown.files?.at(-1)).toMatchObject({ file: 'CIS_RCP.zip', role: 'unused', read: 0 });
    const twice = [...core(), file('CIS_MITM.txt'), file('CIS_MITM.txt', 'sub/CIS_MITM.txt')];
    expect(() => parseFrBdpm(twice)).toThrow(/two files hold the CIS_MITM \(CIS_MITM.txt and sub\/CIS_MITM.txt\)/);
  });

  it('rejects a call without CIS_CIP_bdpm.txt, and an empty file', () => {
    expect(() => parseFrBdpm([file('CIS_bdpm.txt')])).toThrow(/no CIS_CIP_bdpm file among the files given/);
    expect(() => parseFrBdpm([...core(), { name: 'CIS_CPD_bdpm.txt', content: content('\r\n') }])).toThrow(/CIS_CPD_bdpm.txt: empty/);
  });

  it('reads a UTF-8 file with a byte-order mark and a tab inside an opinion text', () => {
    const smr = content('\ufeff64793681\tCT-1\tInscription (CT)\t20200101\tFaible\tTexte\tavec tabulation\n', 'utf-8');
    const { snapshot, problems } = parseFrBdpm([...core(), { name: 'CIS_HAS_SMR_bdpm.txt', content: smr }]);
    expect(problems.filter((p) => p.file === 'CIS_HAS_SMR_bdpm.txt')).toEqual([]);
    expect(snapshot.products?.find((p) => p.key === '64793681')?.assessments).toEqual([
      { kind: 'smr', value: 'Faible', date: '2020-01-01', code: 'CT-1', reason: 'Inscription (CT)', text: 'Texte avec tabulation' },
    ]);
  });
});

describe('BDPM value parsing', () => {
  it('reads dosages with French decimals and spaced thousands', () => {
    expect(parseDosage('1,00 mg')).toEqual({ value: 1, unit: 'mg' });
    expect(parseDosage('100 000 UI')).toEqual({ value: 100000, unit: 'UI' });
    expect(parseDosage('800 microgrammes')).toEqual({ value: 800, unit: 'microgrammes' });
    expect(parseDosage('quantité suffisante')).toBeNull();
    expect(parseDosage('5 millions UI')).toBeNull();
  });

  it('reads strengths per dose unit or per volume', () => {
    expect(strengthOf('500 mg', 'un comprimé')).toEqual({ value: 500, unit: 'mg' });
    expect(strengthOf('5 g', '100 ml de solution')).toEqual({ value: 0.05, unit: 'g/ml' });
    expect(strengthOf('2,5 mg', '1 ml')).toEqual({ value: 2.5, unit: 'mg/ml' });
    expect(strengthOf('10 mg', 'un flacon de 5 ml')).toEqual({ value: 10, unit: 'mg' });
    expect(strengthOf('traces', '1 ml')).toBeNull();
  });

  it('reads pack sizes, multiplying an outer count', () => {
    expect(bdpmUnits('plaquette(s) PVC de 30 comprimé(s)')).toEqual({ units: 30, unit: 'comprimé(s)' });
    expect(bdpmUnits('2 plaquette(s) de 14 gélule(s)')).toEqual({ units: 28, unit: 'gélule(s)' });
    expect(bdpmUnits('10 ampoule(s) en verre de 2 ml')).toEqual({ units: 10, unit: 'ampoule(s)', quantity: { value: 20, unit: 'ml' } });
    expect(bdpmUnits('1 tube')).toBeNull();
  });
});
