/**
 * A small, realistic catalogue for the read-side tests: sources, three ATC branches,
 * substances (two salts folded to their moieties), products in CH, DE, FR, IT and US with
 * packs, identifiers of several systems with valid check digits, prices, SL entries,
 * classes and Swiss monographs in de/fr/it. Inserted with parameterised SQL only; the
 * ids are fixed so tests can name the rows they expect.
 */
import type { Queryable } from '../../platform/db.ts';
import { completeAic, completeGtin, completePzn } from '../../vocabulary/check-digits.ts';

const IBUPROFEN = 'WK2XYI10QM';
const IBUPROFEN_LYSINE = 'N01ORX9D6S';
const PARACETAMOL = '362O9ITL9D';
const AMLODIPINE = '1J444QC288';
const AMLODIPINE_BESYLATE = '864V2Q084H';

/** Fixed ids of the fixture's products. */
export const IDS = {
  brufenCh: '00000000-0000-4000-8000-000000000001',
  algiforCh: '00000000-0000-4000-8000-000000000002',
  dafalganCh: '00000000-0000-4000-8000-000000000003',
  norvascCh: '00000000-0000-4000-8000-000000000004',
  ibuflamDe: '00000000-0000-4000-8000-000000000005',
  ibuprofenAlDe: '00000000-0000-4000-8000-000000000006',
  advilFr: '00000000-0000-4000-8000-000000000007',
  brufenIt: '00000000-0000-4000-8000-000000000008',
  advilUs: '00000000-0000-4000-8000-000000000009',
  tylenolUs: '00000000-0000-4000-8000-000000000010',
  oldIbuprofenCh: '00000000-0000-4000-8000-000000000011',
  unclassifiedDe: '00000000-0000-4000-8000-000000000012',
  naprosyneFr: '00000000-0000-4000-8000-000000000013',
} as const;

/** Codes the tests look up, each with a valid check digit. */
export const CODES = {
  brufenGtin: completeGtin('768052814003'),
  brufenPharmacode: '2345678',
  brufenSwissmedicPack: '52814003',
  brufenSwissmedic: '52814',
  dafalganGtin: completeGtin('768047657002'),
  ibuflamPzn: completePzn('0312708')!,
  advilCip13: completeGtin('340093447723'),
  advilCip7: '3447723',
  brufenAic: completeAic('02424203'),
  advilNdc11: '00573015020',
  advilNdcPrinted: '0573-0150-20',
  tylenolNdc11: '50580049609',
} as const;

interface PackSpec {
  key: string;
  description: string;
  units: number;
  identifiers: Array<[string, string]>;
  prices?: Array<[string, number, string]>;
  sl?: Record<string, unknown>;
}

interface ProductSpec {
  id: string;
  source: string;
  country: string;
  name: string;
  brand: string | null;
  generic: boolean;
  atc: string | null;
  form: string;
  route: string;
  holder: string;
  status?: 'active' | 'withdrawn';
  ingredients: Array<[string, number, string]>;
  identifiers: Array<[string, string]>;
  packs: PackSpec[];
  classes?: Array<[string, string]>;
}

const MOIETY: Record<string, string> = { [IBUPROFEN_LYSINE]: IBUPROFEN, [AMLODIPINE_BESYLATE]: AMLODIPINE };

/** The two signatures the ingest engine stores, built the same way for every product. */
function signatures(p: ProductSpec): { substance: string; medicine: string } {
  const moieties = p.ingredients.map(([unii]) => MOIETY[unii] ?? unii);
  const strengths = p.ingredients.map(([unii, v, u]) => `${MOIETY[unii] ?? unii}:${v}${u}`).sort();
  return { substance: [...new Set(moieties)].sort().join('+'), medicine: `${strengths.join('+')}|${p.form}|${p.route}` };
}

async function seedReference(db: Queryable): Promise<void> {
  await db.query(
    `INSERT INTO sources (id, name, country, refresh_interval_hours, last_synced_at, demo) VALUES
       ('who-atc', 'WHO ATC/DDD index', NULL, 8760, now(), false),
       ('ch-sl', 'Swiss Spezialitätenliste', 'CH', 168, now(), false),
       ('de-ifa', 'German IFA register', 'DE', 168, now(), false),
       ('fr-bdpm', 'French BDPM', 'FR', 168, now() - interval '30 days', false),
       ('it-aifa', 'Italian AIFA register', 'IT', 168, NULL, false),
       ('us-fda-ndc', 'FDA NDC directory', 'US', 24, now(), false)`,
  );
  const atc: Array<[string, string, number, string | null]> = [
    ['M', 'MUSCULO-SKELETAL SYSTEM', 1, null], ['M01', 'ANTIINFLAMMATORY AND ANTIRHEUMATIC PRODUCTS', 2, 'M'],
    ['M01A', 'ANTIINFLAMMATORY AND ANTIRHEUMATIC PRODUCTS, NON-STEROIDS', 3, 'M01'], ['M01AE', 'Propionic acid derivatives', 4, 'M01A'],
    ['M01AE01', 'ibuprofen', 5, 'M01AE'], ['M01AE02', 'naproxen', 5, 'M01AE'],
    ['N', 'NERVOUS SYSTEM', 1, null], ['N02', 'ANALGESICS', 2, 'N'], ['N02B', 'OTHER ANALGESICS AND ANTIPYRETICS', 3, 'N02'],
    ['N02BE', 'Anilides', 4, 'N02B'], ['N02BE01', 'paracetamol', 5, 'N02BE'],
    ['C', 'CARDIOVASCULAR SYSTEM', 1, null], ['C08', 'CALCIUM CHANNEL BLOCKERS', 2, 'C'],
    ['C08C', 'SELECTIVE CALCIUM CHANNEL BLOCKERS WITH MAINLY VASCULAR EFFECTS', 3, 'C08'],
    ['C08CA', 'Dihydropyridine derivatives', 4, 'C08C'], ['C08CA01', 'amlodipine', 5, 'C08CA'],
  ];
  for (const [code, name, level, parent] of atc) {
    await db.query(`INSERT INTO atc_nodes (code, name, level, parent_code, source) VALUES ($1, $2, $3, $4, 'who-atc')`, [code, name, level, parent]);
  }
  await db.query(`INSERT INTO atc_ddd (code, value, unit, route) VALUES ('M01AE01', 1.2, 'g', 'O'), ('N02BE01', 3, 'g', 'O'), ('C08CA01', 5, 'mg', 'O')`);
  await db.query(
    `INSERT INTO classes (system, code, label, source) VALUES
       ('epc', 'N0000175722', 'Nonsteroidal Anti-inflammatory Drug [EPC]', 'us-fda-ndc'),
       ('moa', 'N0000000160', 'Cyclooxygenase Inhibitors [MoA]', 'us-fda-ndc'),
       ('epc', 'N0000175560', 'Dihydropyridine Calcium Channel Blocker [EPC]', 'us-fda-ndc')`,
  );
}

async function seedSubstances(db: Queryable): Promise<void> {
  const substances: Array<[string, string, Record<string, string>, string, string | null, string | null, string[]]> = [
    [IBUPROFEN, 'ibuprofen', { inn: 'ibuprofen', usan: 'ibuprofen', de: 'Ibuprofen', fr: 'ibuprofène' }, IBUPROFEN, 'C13H18O2', '5640', ['M01AE01']],
    [IBUPROFEN_LYSINE, 'ibuprofen lysine', { usan: 'ibuprofen lysine', de: 'Ibuprofen-Lysin' }, IBUPROFEN, 'C19H32N2O4', null, ['M01AE01']],
    [PARACETAMOL, 'paracetamol', { inn: 'paracetamol', usan: 'acetaminophen', fr: 'paracétamol' }, PARACETAMOL, 'C8H9NO2', '161', ['N02BE01']],
    [AMLODIPINE, 'amlodipine', { inn: 'amlodipine' }, AMLODIPINE, 'C20H25ClN2O5', '17767', ['C08CA01']],
    [AMLODIPINE_BESYLATE, 'amlodipine besylate', { usan: 'amlodipine besylate', ban: 'amlodipine besilate' }, AMLODIPINE, 'C26H31ClN2O8S', null, ['C08CA01']],
  ];
  for (const [unii, name, names, moiety, formula, rxcui, atc] of substances) {
    await db.query(
      `INSERT INTO substances (unii, name, names, moiety_unii, formula, rxcui, atc_codes, source, record, content_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'us-fda-ndc', $8, $9)`,
      [unii, name, JSON.stringify(names), moiety, formula, rxcui, atc, JSON.stringify({ unii, name, names }), `fixture:${unii}`],
    );
  }
  await db.query(
    `INSERT INTO substance_classes (unii, system, code) VALUES
       ($1, 'epc', 'N0000175722'), ($1, 'moa', 'N0000000160'), ($2, 'epc', 'N0000175560')`,
    [IBUPROFEN, AMLODIPINE],
  );
}

async function insertProduct(db: Queryable, p: ProductSpec): Promise<void> {
  const sig = signatures(p);
  await db.query(
    `INSERT INTO products (id, source, natural_key, country, product_name, brand, generic, atc_code, dose_form, route, holder,
                           marketing_status, substance_signature, medicine_signature, record, content_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [p.id, p.source, p.id, p.country, p.name, p.brand, p.generic, p.atc, p.form, p.route, p.holder, p.status ?? 'active',
      sig.substance || null, sig.substance ? sig.medicine : null, JSON.stringify({ product_name: p.name }), `fixture:${p.id}`],
  );
  for (const [position, [unii, value, unit]] of p.ingredients.entries()) {
    await db.query(`INSERT INTO product_ingredients (product_id, position, unii, strength_value, strength_unit) VALUES ($1, $2, $3, $4, $5)`,
      [p.id, position, unii, value, unit]);
  }
  for (const [system, code] of p.identifiers) {
    await db.query(`INSERT INTO identifiers (system, code, drug_id) VALUES ($1, $2, $3)`, [system, code, p.id]);
  }
  for (const [system, code] of p.classes ?? []) {
    await db.query(`INSERT INTO product_classes (product_id, system, code) VALUES ($1, $2, $3)`, [p.id, system, code]);
  }
  for (const pack of p.packs) await insertPack(db, p, pack);
}

async function insertPack(db: Queryable, p: ProductSpec, pack: PackSpec): Promise<void> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO packs (product_id, source, natural_key, description, units, unit, sl, record, content_hash)
     VALUES ($1, $2, $3, $4, $5, 'tablet', $6, $7, $8) RETURNING id`,
    [p.id, p.source, pack.key, pack.description, pack.units, pack.sl ? JSON.stringify(pack.sl) : null,
      JSON.stringify({ key: pack.key, description: pack.description }), `fixture:${pack.key}`],
  );
  const packId = rows[0]!.id;
  for (const [system, code] of pack.identifiers) {
    await db.query(`INSERT INTO identifiers (system, code, drug_id, pack_id) VALUES ($1, $2, $3, $4)`, [system, code, p.id, packId]);
  }
  for (const [kind, amount, currency] of pack.prices ?? []) {
    await db.query(`INSERT INTO pack_prices (pack_id, kind, amount, currency, valid_from) VALUES ($1, $2, $3, $4, '2026-01-01')`,
      [packId, kind, amount, currency]);
  }
}

const TABLET = { form: 'film-coated tablet', route: 'oral' };

function products(): ProductSpec[] {
  const ibu400 = [[IBUPROFEN, 400, 'mg']] as Array<[string, number, string]>;
  return [
    { id: IDS.brufenCh, source: 'ch-sl', country: 'CH', name: 'Brufen 400 mg Filmtabletten', brand: 'Brufen', generic: false, atc: 'M01AE01', ...TABLET,
      holder: 'Viatris Pharma GmbH', ingredients: ibu400, identifiers: [['swissmedic_no', CODES.brufenSwissmedic]],
      packs: [
        { key: CODES.brufenGtin, description: '20 Filmtabletten', units: 20,
          identifiers: [['gtin', CODES.brufenGtin], ['pharmacode', CODES.brufenPharmacode], ['swissmedic_no', CODES.brufenSwissmedicPack]],
          prices: [['public', 9.85, 'CHF'], ['ex_factory', 4.52, 'CHF']], sl: { listed: true, public_price: 9.85, coinsurance_percent: 10, flag: 'O' } },
        { key: completeGtin('768052814011'), description: '100 Filmtabletten', units: 100,
          identifiers: [['gtin', completeGtin('768052814011')]], prices: [['public', 29.6, 'CHF']] },
      ] },
    { id: IDS.algiforCh, source: 'ch-sl', country: 'CH', name: 'Algifor Dolo forte 400', brand: 'Algifor', generic: false, atc: 'M01AE01',
      form: 'granules', route: 'oral', holder: 'VERFORA SA', ingredients: [[IBUPROFEN_LYSINE, 684, 'mg']], identifiers: [['swissmedic_no', '54612']],
      packs: [{ key: completeGtin('768054612001'), description: '20 Beutel', units: 20, identifiers: [['gtin', completeGtin('768054612001')]], prices: [['public', 14.9, 'CHF']] }] },
    { id: IDS.dafalganCh, source: 'ch-sl', country: 'CH', name: 'Dafalgan 500 mg Tabletten', brand: 'Dafalgan', generic: false, atc: 'N02BE01',
      form: 'tablet', route: 'oral', holder: 'UPSA Switzerland AG', ingredients: [[PARACETAMOL, 500, 'mg']], identifiers: [['swissmedic_no', '47657']],
      packs: [{ key: CODES.dafalganGtin, description: '16 Tabletten', units: 16, identifiers: [['gtin', CODES.dafalganGtin]], prices: [['public', 3.5, 'CHF']] }] },
    { id: IDS.norvascCh, source: 'ch-sl', country: 'CH', name: 'Norvasc 5 mg Tabletten', brand: 'Norvasc', generic: false, atc: 'C08CA01',
      form: 'tablet', route: 'oral', holder: 'Pfizer AG', ingredients: [[AMLODIPINE_BESYLATE, 6.94, 'mg']], identifiers: [['swissmedic_no', '46731']],
      packs: [{ key: completeGtin('768046731002'), description: '30 Tabletten', units: 30, identifiers: [['gtin', completeGtin('768046731002')]] }] },
    { id: IDS.oldIbuprofenCh, source: 'ch-sl', country: 'CH', name: 'Ibuprofen Helvepharm 400 mg', brand: null, generic: true, atc: 'M01AE01', ...TABLET,
      holder: 'Helvepharm AG', status: 'withdrawn', ingredients: ibu400, identifiers: [['swissmedic_no', '55001']], packs: [] },
    { id: IDS.ibuflamDe, source: 'de-ifa', country: 'DE', name: 'IBUFLAM 400 mg Filmtabletten', brand: 'Ibuflam', generic: true, atc: 'M01AE01', ...TABLET,
      holder: 'Zentiva Pharma GmbH', ingredients: ibu400, identifiers: [],
      packs: [{ key: CODES.ibuflamPzn, description: '20 St', units: 20, identifiers: [['pzn', CODES.ibuflamPzn]], prices: [['public', 4.1, 'EUR']] }] },
    { id: IDS.ibuprofenAlDe, source: 'de-ifa', country: 'DE', name: 'Ibuprofen AL 400', brand: null, generic: true, atc: 'M01AE01', ...TABLET,
      holder: 'ALIUD PHARMA GmbH', ingredients: ibu400, identifiers: [],
      packs: [{ key: completePzn('1234567')!, description: '50 St', units: 50, identifiers: [['pzn', completePzn('1234567')!]] }] },
    { id: IDS.unclassifiedDe, source: 'de-ifa', country: 'DE', name: 'Naproxen-ratiopharm 250 mg', brand: null, generic: true, atc: 'M01AE02',
      form: 'tablet', route: 'oral', holder: 'ratiopharm GmbH', ingredients: [], identifiers: [], packs: [] },
    { id: IDS.naprosyneFr, source: 'fr-bdpm', country: 'FR', name: 'NAPROSYNE 250 mg, comprimé', brand: 'Naprosyne', generic: false, atc: 'M01AE02',
      form: 'tablet', route: 'oral', holder: 'ATNAHS PHARMA FRANCE', ingredients: [], identifiers: [['national', '60234100']], packs: [] },
    { id: IDS.advilFr, source: 'fr-bdpm', country: 'FR', name: 'ADVIL 400 mg, comprimé enrobé', brand: 'Advil', generic: false, atc: 'M01AE01', ...TABLET,
      holder: 'HALEON FRANCE', ingredients: ibu400, identifiers: [['national', '64547319']],
      packs: [{ key: CODES.advilCip13, description: 'plaquette de 14 comprimés', units: 14,
        identifiers: [['cip13', CODES.advilCip13], ['gtin', CODES.advilCip13], ['cip7', CODES.advilCip7]], prices: [['public', 2.18, 'EUR']] }] },
    { id: IDS.brufenIt, source: 'it-aifa', country: 'IT', name: 'BRUFEN 400 mg compresse rivestite', brand: 'Brufen', generic: false, atc: 'M01AE01', ...TABLET,
      holder: 'Viatris Healthcare Limited', ingredients: ibu400, identifiers: [],
      packs: [{ key: CODES.brufenAic, description: '30 compresse', units: 30, identifiers: [['aic', CODES.brufenAic]] }] },
    { id: IDS.advilUs, source: 'us-fda-ndc', country: 'US', name: 'Advil', brand: 'Advil', generic: false, atc: 'M01AE01', form: 'tablet, coated', route: 'oral',
      holder: 'Haleon US Holdings LLC', ingredients: [[IBUPROFEN, 200, 'mg']], identifiers: [['ndc', '005730150']], classes: [['epc', 'N0000175722']],
      packs: [{ key: CODES.advilNdc11, description: '24 TABLET, COATED in 1 BOTTLE', units: 24,
        identifiers: [['ndc11', CODES.advilNdc11], ['ndc', CODES.advilNdcPrinted.replace(/-/g, '')]], prices: [['list', 7.49, 'USD']] }] },
    { id: IDS.tylenolUs, source: 'us-fda-ndc', country: 'US', name: 'Tylenol Extra Strength', brand: 'Tylenol', generic: false, atc: 'N02BE01', form: 'tablet', route: 'oral',
      holder: 'Kenvue Brands LLC', ingredients: [[PARACETAMOL, 500, 'mg']], identifiers: [],
      packs: [{ key: CODES.tylenolNdc11, description: '100 TABLET in 1 BOTTLE', units: 100, identifiers: [['ndc11', CODES.tylenolNdc11]], prices: [['list', 12.99, 'USD']] }] },
  ];
}

async function seedMonographs(db: Queryable): Promise<void> {
  const texts: Array<[string, string, Record<string, string>]> = [
    ['de', 'Brufen® Filmtabletten', { indications: 'Schmerzen und Fieber.', contraindications: 'Schwere Herzinsuffizienz.', warnings: 'Gastrointestinale Blutungen.', adverse_reactions: 'Dyspepsie, Übelkeit.', interactions: 'Antikoagulanzien verstärken das Blutungsrisiko.' }],
    ['fr', 'Brufen® comprimés pelliculés', { indications: 'Douleurs et fièvre.', contraindications: 'Insuffisance cardiaque sévère.' }],
    ['it', 'Brufen® compresse rivestite', { indications: 'Dolori e febbre.' }],
  ];
  for (const [lang, title, sections] of texts) {
    await db.query(`INSERT INTO monographs (product_id, lang, title, sections) VALUES ($1, $2, $3, $4)`, [IDS.brufenCh, lang, title, JSON.stringify(sections)]);
  }
  await db.query(`INSERT INTO monographs (product_id, lang, title, sections) VALUES ($1, 'de', 'Dafalgan® Tabletten', $2)`,
    [IDS.dafalganCh, JSON.stringify({ indications: 'Schmerzen und Fieber.' })]);
}

/** Inserts the whole mini catalogue. */
export async function seedCatalogue(db: Queryable): Promise<void> {
  await seedReference(db);
  await seedSubstances(db);
  for (const p of products()) await insertProduct(db, p);
  await seedMonographs(db);
}

/**
 * Interaction rules covering ibuprofen: two open rules (one class-level whose partner is
 * in the ATC tree, one whose partner is not) and one commercially licensed rule.
 */
export async function seedInteractions(db: Queryable): Promise<void> {
  await db.query(`INSERT INTO sources (id, name, country, refresh_interval_hours, last_synced_at) VALUES ('drugref-interactions', 'drugref interaction table', NULL, 720, now())`);
  await db.query(
    `INSERT INTO interaction_licences (id, name, url, commercial, source) VALUES
       ('cc-by-nc-4.0', 'CC BY-NC 4.0', 'https://creativecommons.org/licenses/by-nc/4.0/', false, 'drugref-interactions'),
       ('commercial', 'drugref commercial licence', NULL, true, 'drugref-interactions')`,
  );
  const open: Array<[string, string, string, string, string, string]> = [
    ['nsaid-vka', 'M01A', 'B01AA', 'major', 'established', 'NSAIDs raise the bleeding risk of vitamin K antagonists.'],
    ['nsaid-dhp', 'C08CA', 'M01A', 'moderate', 'probable', 'NSAIDs can blunt the antihypertensive effect of dihydropyridines.'],
  ];
  for (const [key, a, b, severity, evidence, description] of open) {
    await db.query(
      `INSERT INTO interaction_rules (source, natural_key, a_code, b_code, severity, evidence, description, licence, attributions, record, content_hash)
       VALUES ('drugref-interactions', $1, $2, $3, $4, $5, $6, 'cc-by-nc-4.0', $7, '{}', $1)`,
      [key, a, b, severity, evidence, description, JSON.stringify(['drugref reviewed interaction table'])],
    );
  }
  await db.query(
    `INSERT INTO interaction_rules_licensed (source, natural_key, a_code, b_code, severity, evidence, description, mechanism, management,
                                             licence, attributions, record, content_hash)
     VALUES ('drugref-interactions', 'ibu-para', 'M01AE01', 'N02BE01', 'minor', 'theoretical', 'Additive analgesia.', 'Different targets.',
             'No action needed.', 'commercial', '[]', '{}', 'ibu-para')`,
  );
}

/** Extra products for the round-trip test: `n` generic ibuprofen products in CH with packs. */
export async function seedManyIbuprofen(db: Queryable, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const serial = String(60000 + i);
    const gtin = completeGtin(`7680${serial}001`);
    await insertProduct(db, {
      id: `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`, source: 'ch-sl', country: 'CH', name: `Ibuprofen Generika ${String(i).padStart(3, '0')} 400 mg`,
      brand: null, generic: true, atc: 'M01AE01', ...TABLET, holder: 'Generika AG', ingredients: [[IBUPROFEN, 400, 'mg']], identifiers: [['swissmedic_no', serial]],
      packs: [{ key: gtin, description: '20 Filmtabletten', units: 20, identifiers: [['gtin', gtin]], prices: [['public', 5 + i / 100, 'CHF']] }],
    });
  }
}

/**
 * One CH product with `packs` packs, each with a GTIN and a pharmacode and two prices, for
 * the round-trip tests: a record with 1 pack and one with 20 must cost the same. `serial`
 * (5 digits) keeps the codes of several such products apart.
 */
export async function seedProductWithPacks(db: Queryable, id: string, serial: string, packs: number): Promise<string[]> {
  const gtins = Array.from({ length: packs }, (_, i) => completeGtin(`7680${serial}${String(i).padStart(3, '0')}`));
  await insertProduct(db, {
    id, source: 'ch-sl', country: 'CH', name: `Ibuprofen Vielpack ${serial} 400 mg`, brand: null, generic: true, atc: 'M01AE01', ...TABLET,
    holder: 'Generika AG', ingredients: [[IBUPROFEN, 400, 'mg']], identifiers: [['swissmedic_no', serial]],
    packs: gtins.map((gtin, i) => ({
      key: gtin, description: `${10 + i} Filmtabletten`, units: 10 + i,
      identifiers: [['gtin', gtin], ['pharmacode', `${serial.slice(0, 1)}${serial.slice(-3)}${String(i).padStart(3, '0')}`]],
      prices: [['public', 5 + i, 'CHF'], ['ex_factory', 2 + i, 'CHF']],
    })),
  });
  return gtins;
}
