/** A small catalogue of confusable names for the LASA tests (docs/catalogue.md "LASA"). */
import type { Queryable } from '../../platform/db.ts';

/** Product ids by short name. */
export const LASA_IDS = {
  celebrexUs: '0000aaaa-0000-4000-8000-000000000001',
  cerebyxUs: '0000aaaa-0000-4000-8000-000000000002',
  celexaUs: '0000aaaa-0000-4000-8000-000000000003',
  vinblastineUs: '0000aaaa-0000-4000-8000-000000000004',
  vincristineUs: '0000aaaa-0000-4000-8000-000000000005',
  doxilUs: '0000aaaa-0000-4000-8000-000000000006',
  taxolUs: '0000aaaa-0000-4000-8000-000000000007',
  hydroxyzineUs: '0000aaaa-0000-4000-8000-000000000008',
  hydralazineUs: '0000aaaa-0000-4000-8000-000000000009',
  amlodipineUs: '0000aaaa-0000-4000-8000-00000000000a',
  amlodipinTevaUs: '0000aaaa-0000-4000-8000-00000000000b',
  zyprexaUs: '0000aaaa-0000-4000-8000-00000000000c',
  oxycontinUs: '0000aaaa-0000-4000-8000-00000000000d',
  oxycodoneUs: '0000aaaa-0000-4000-8000-00000000000e',
  quviviqUs: '0000aaaa-0000-4000-8000-00000000000f',
  celebrexCh: '0000aaaa-0000-4000-8000-000000000010',
  vincristineWithdrawnUs: '0000aaaa-0000-4000-8000-000000000011',
  prednisoneUs: '0000aaaa-0000-4000-8000-000000000012',
  prednisoloneUs: '0000aaaa-0000-4000-8000-000000000013',
} as const;

// [id, country, product name, substance signature, marketing status]
const PRODUCTS: Array<[string, string, string, string, string]> = [
  [LASA_IDS.celebrexUs, 'US', 'Celebrex 200 mg capsule', 'celecoxib', 'active'],
  [LASA_IDS.cerebyxUs, 'US', 'Cerebyx 50 mg/mL injection', 'fosphenytoin', 'active'],
  [LASA_IDS.celexaUs, 'US', 'Celexa 20 mg tablet', 'citalopram', 'active'],
  [LASA_IDS.vinblastineUs, 'US', 'Vinblastine Sulfate 1 mg/mL injection', 'vinblastine', 'active'],
  [LASA_IDS.vincristineUs, 'US', 'Vincristine Sulfate 1 mg/mL injection', 'vincristine', 'active'],
  [LASA_IDS.vincristineWithdrawnUs, 'US', 'Vincristine Sulfate 2 mg/2 mL injection', 'vincristine', 'withdrawn'],
  [LASA_IDS.doxilUs, 'US', 'Doxil 2 mg/mL injection', 'doxorubicin', 'active'],
  [LASA_IDS.taxolUs, 'US', 'Taxol 6 mg/mL injection', 'paclitaxel', 'active'],
  [LASA_IDS.hydroxyzineUs, 'US', 'Hydroxyzine Hydrochloride 25 mg tablet', 'hydroxyzine', 'active'],
  [LASA_IDS.hydralazineUs, 'US', 'Hydralazine Hydrochloride 25 mg tablet', 'hydralazine', 'active'],
  [LASA_IDS.amlodipineUs, 'US', 'Amlodipine Besylate 5 mg tablet', 'amlodipine', 'active'],
  [LASA_IDS.amlodipinTevaUs, 'US', 'Amlodipin Teva 5 mg tablet', 'amlodipine', 'active'],
  [LASA_IDS.zyprexaUs, 'US', 'Zyprexa 10 mg tablet', 'olanzapine', 'active'],
  [LASA_IDS.oxycontinUs, 'US', 'OxyContin 10 mg extended-release tablet', 'oxycodone', 'active'],
  [LASA_IDS.oxycodoneUs, 'US', 'Oxycodone Hydrochloride 5 mg tablet', 'oxycodone', 'active'],
  [LASA_IDS.quviviqUs, 'US', 'Quviviq 50 mg tablet', 'daridorexant', 'active'],
  [LASA_IDS.celebrexCh, 'CH', 'Celebrex 200 mg Kapseln', 'celecoxib', 'active'],
  [LASA_IDS.prednisoneUs, 'US', 'Prednisone 5 mg tablet', 'prednisone', 'active'],
  [LASA_IDS.prednisoloneUs, 'US', 'Prednisolone 5 mg/5 mL oral solution', 'prednisolone', 'active'],
];

/** Two register sources and the products above, with their substance signatures as the ingest writes them. */
export async function seedLasaCatalogue(db: Queryable): Promise<void> {
  await db.query(
    `INSERT INTO sources (id, name, country, refresh_interval_hours, last_synced_at) VALUES
       ('lasa-us', 'US test register', 'US', 24, now()), ('lasa-ch', 'CH test register', 'CH', 24, now())`,
  );
  await db.query(
    `INSERT INTO products (id, source, natural_key, country, product_name, dose_form, marketing_status, substance_signature, record, content_hash)
     SELECT p.id::uuid, 'lasa-' || lower(p.country), p.id, p.country, p.name, 'tablet', p.status, p.sig, jsonb_build_object('product_name', p.name), 'lasa:' || p.id
       FROM jsonb_to_recordset($1::jsonb) AS p(id text, country text, name text, sig text, status text)`,
    [JSON.stringify(PRODUCTS.map(([id, country, name, sig, status]) => ({ id, country, name, sig, status })))],
  );
}

/** A curated list: a pair no similarity finds (Celebrex / Zyprexa), a same-substance pair, and malformed rows. */
export const CURATED_CSV = [
  '# test list',
  'name_a,name_b,source,reason',
  'Celebrex,Zyprexa,TEST-LIST,look-alike on handwritten orders',
  'oxycodone,OxyContin,TEST-LIST,immediate- and extended-release confusion',
  ',Taxol,TEST-LIST,missing name',
  'Depakote,Depakote ER,TEST-LIST,same first word',
  'Celebrex,Zyprexa,TEST-LIST,repeated',
  '5-FU,Taxol,TEST-LIST,no word of three letters',
  'Doxil,Taxol',
  'Doxil,Taxol,,no source',
  '',
].join('\n');
