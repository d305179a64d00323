import { beforeAll, describe, expect, it } from 'vitest';
import {
  isValidAic, isValidCip13, isValidGtin, isValidPzn, isValidSctConceptId, isValidUnii,
} from '../../vocabulary/check-digits.ts';
import {
  DEMO_ATC_SOURCE_ID, buildDemoSnapshots, buildDemoUpdateSnapshots, demoSourceId,
} from '../../data/demo/build.ts';
import { PRICE_CHANGES, RECALLS, REMOVED, WITHDRAWN } from '../../data/demo/update.ts';
import { JURISDICTIONS, type PackEntry, type ProductEntry, type Snapshot } from '../../workers/ingest/snapshot.ts';

let base: Snapshot[];
let update: Snapshot[];

beforeAll(() => {
  base = buildDemoSnapshots();
  update = buildDemoUpdateSnapshots();
});

const countrySnapshots = (snaps: Snapshot[]): Snapshot[] => snaps.filter((s) => s.source.country !== null);
const globalSnapshot = (snaps: Snapshot[]): Snapshot => {
  const g = snaps.find((s) => s.source.id === DEMO_ATC_SOURCE_ID);
  if (!g) throw new Error('no demo-atc snapshot');
  return g;
};
const allProducts = (snaps: Snapshot[]): ProductEntry[] => countrySnapshots(snaps).flatMap((s) => s.products ?? []);
const allPacks = (snaps: Snapshot[]): PackEntry[] => allProducts(snaps).flatMap((p) => p.packs);

describe('demo catalogue coverage', () => {
  it('has one demo source per jurisdiction plus demo-atc, all marked as demonstration data', () => {
    expect(base.map((s) => s.source.id)).toEqual([DEMO_ATC_SOURCE_ID, ...JURISDICTIONS.map(demoSourceId)]);
    for (const s of base) {
      expect(s.format).toBe('drugref-snapshot/1');
      expect(s.source.demo).toBe(true);
      expect(s.source.name).toContain('Demonstration data — not for clinical use');
      expect(s.source.refresh_interval_hours).toBeGreaterThan(0);
    }
    const countries = countrySnapshots(base).map((s) => s.source.country);
    expect(new Set(countries)).toEqual(new Set(JURISDICTIONS));
    for (const s of countrySnapshots(base)) {
      expect((s.products ?? []).length).toBeGreaterThan(20);
      expect(s.products?.some((p) => p.generic)).toBe(true);
      expect(s.products?.some((p) => !p.generic)).toBe(true);
    }
  });

  it('holds at least 150 real substances with valid UNIIs, salts folding to a moiety', () => {
    const subs = globalSnapshot(base).substances ?? [];
    const moieties = subs.filter((s) => !s.moiety_unii);
    expect(moieties.length).toBeGreaterThanOrEqual(150);
    const uniis = new Set(subs.map((s) => s.unii));
    expect(uniis.size).toBe(subs.length);
    for (const s of subs) {
      expect(isValidUnii(s.unii), `${s.name} ${s.unii}`).toBe(true);
      if (s.moiety_unii) expect(uniis.has(s.moiety_unii)).toBe(true);
    }
    const byName = new Map(subs.map((s) => [s.name, s]));
    expect(byName.get('amlodipine besilate')?.moiety_unii).toBe(byName.get('amlodipine')?.unii);
    expect(byName.get('metoprolol succinate')?.moiety_unii).toBe(byName.get('metoprolol')?.unii);
    expect(byName.get('warfarin')?.unii).toBe('5Q7ZVV76EI');
  });

  it('covers at least 40 ATC level-4 groups, every level-5 code has its ancestors', () => {
    const atc = globalSnapshot(base).atc ?? [];
    const codes = new Set(atc.map((a) => a.code));
    const level4 = new Set(atc.filter((a) => a.code.length === 5).map((a) => a.code));
    expect(level4.size).toBeGreaterThanOrEqual(40);
    for (const a of atc.filter((x) => x.code.length === 7)) {
      for (const len of [1, 3, 4, 5]) expect(codes.has(a.code.slice(0, len)), a.code).toBe(true);
    }
    const warfarin = atc.find((a) => a.code === 'B01AA03');
    expect(warfarin?.ddd).toEqual([{ value: 7.5, unit: 'mg', route: 'O' }]);
    const usedLevel4 = new Set(allProducts(base).map((p) => p.atc_code?.slice(0, 5)));
    expect(usedLevel4.size).toBeGreaterThanOrEqual(40);
  });

  it('references only ATC codes, substances and classes that exist', () => {
    const g = globalSnapshot(base);
    const atc = new Set((g.atc ?? []).map((a) => a.code));
    const uniis = new Set((g.substances ?? []).map((s) => s.unii));
    const classes = new Set((g.classes ?? []).map((c) => `${c.system}|${c.code}`));
    for (const s of g.substances ?? []) {
      for (const code of s.atc_codes ?? []) expect(atc.has(code), `${s.name} ${code}`).toBe(true);
      for (const c of s.classes ?? []) expect(classes.has(`${c.system}|${c.code}`)).toBe(true);
    }
    for (const p of allProducts(base)) {
      expect(p.atc_code && atc.has(p.atc_code), `${p.country} ${p.product_name}`).toBe(true);
      expect(p.ingredients.length).toBeGreaterThan(0);
      for (const i of p.ingredients) expect(uniis.has(i.unii), `${p.product_name} ${i.unii}`).toBe(true);
    }
    const labels = new Set((g.classes ?? []).map((c) => c.label));
    expect(labels.has('Vitamin K Antagonist [EPC]')).toBe(true);
    expect(labels.has('Anticoagulants')).toBe(true);
  });
});

describe('demo identifiers', () => {
  it('uses valid check digits for GTIN, PZN, CIP13, AIC and dm+d ids', () => {
    const bySystem = new Map<string, string[]>();
    for (const pack of allPacks(base)) {
      for (const id of pack.identifiers) bySystem.set(id.system, [...(bySystem.get(id.system) ?? []), id.code]);
    }
    for (const code of bySystem.get('gtin') ?? []) expect(isValidGtin(code), code).toBe(true);
    for (const code of bySystem.get('pzn') ?? []) expect(isValidPzn(code), code).toBe(true);
    for (const code of bySystem.get('cip13') ?? []) expect(isValidCip13(code), code).toBe(true);
    for (const code of bySystem.get('aic') ?? []) expect(isValidAic(code), code).toBe(true);
    for (const code of bySystem.get('dmd_amppid') ?? []) expect(isValidSctConceptId(code), code).toBe(true);
    for (const system of ['gtin', 'pzn', 'cip13', 'cip7', 'aic', 'pharmacode', 'ndc11', 'dmd_amppid', 'be_apb',
      'cima_codigo', 'dk_varenummer', 'se_varunummer', 'no_varenummer']) {
      expect((bySystem.get(system) ?? []).length, system).toBeGreaterThan(0);
    }
  });

  it('writes each country in its own formats', () => {
    const ch = base.find((s) => s.source.id === 'demo-ch')?.products ?? [];
    for (const p of ch) {
      const nr = p.identifiers.find((i) => i.system === 'swissmedic_no')?.code ?? '';
      expect(nr).toMatch(/^\d{5}$/);
      for (const pack of p.packs) {
        const gtin = pack.identifiers.find((i) => i.system === 'gtin')?.code ?? '';
        expect(gtin.startsWith(`7680${nr}`)).toBe(true);
        expect(pack.identifiers.find((i) => i.system === 'pharmacode')?.code).toMatch(/^\d{7}$/);
      }
    }
    const de = allPacks(base.filter((s) => s.source.id === 'demo-de'));
    for (const pack of de) {
      const pzn = pack.identifiers.find((i) => i.system === 'pzn')?.code ?? '';
      expect(pack.identifiers.find((i) => i.system === 'gtin')?.code.slice(0, 12)).toBe(`4150${pzn}`);
    }
    const fr = allPacks(base.filter((s) => s.source.id === 'demo-fr'));
    for (const pack of fr) {
      const cip7 = pack.identifiers.find((i) => i.system === 'cip7')?.code ?? '';
      expect(pack.key).toBe(pack.identifiers.find((i) => i.system === 'cip13')?.code);
      expect(pack.key.slice(0, 12)).toBe(`34009${cip7}`);
    }
    const ie = base.find((s) => s.source.id === 'demo-ie')?.products ?? [];
    for (const p of ie) expect(p.identifiers[0]?.code).toMatch(/^PA\d{4}\/\d{3}\/\d{3}$/);
  });

  it('keeps NDC, NDC11 and the NDC-based GTIN consistent', () => {
    const us = base.find((s) => s.source.id === 'demo-us')?.products ?? [];
    for (const p of us) {
      for (const pack of p.packs) {
        const parts = pack.key.split('-');
        expect(parts).toHaveLength(3);
        const [labeler = '', product = '', pkg = ''] = parts;
        expect(['4-4-2', '5-3-2', '5-4-1']).toContain(`${labeler.length}-${product.length}-${pkg.length}`);
        const ndc = pack.identifiers.find((i) => i.system === 'ndc')?.code;
        const ndc11 = pack.identifiers.find((i) => i.system === 'ndc11')?.code;
        expect(ndc).toBe(parts.join(''));
        expect(ndc).toHaveLength(10);
        expect(ndc11).toBe(`${labeler.padStart(5, '0')}${product.padStart(4, '0')}${pkg.padStart(2, '0')}`);
        expect(pack.identifiers.find((i) => i.system === 'gtin')?.code.slice(2, 12)).toBe(ndc);
      }
    }
  });

  it('has unique natural keys per source and unique pack identifiers per system', () => {
    for (const s of countrySnapshots(base)) {
      const products = s.products ?? [];
      expect(new Set(products.map((p) => p.key)).size, s.source.id).toBe(products.length);
      const packs = products.flatMap((p) => p.packs);
      expect(new Set(packs.map((p) => p.key)).size, s.source.id).toBe(packs.length);
      const seen = new Set<string>();
      for (const pack of packs) {
        for (const id of pack.identifiers) {
          const k = `${id.system}|${id.code}`;
          expect(seen.has(k), `${s.source.id} ${k}`).toBe(false);
          seen.add(k);
        }
      }
    }
    const gtins = allPacks(base).flatMap((p) => p.identifiers.filter((i) => i.system === 'gtin').map((i) => i.code));
    expect(new Set(gtins).size).toBe(gtins.length);
  });
});

describe('demo prices and Swiss data', () => {
  it('prices every pack in the local currency', () => {
    const currency: Record<string, string> = { CH: 'CHF', GB: 'GBP', DK: 'DKK', SE: 'SEK', NO: 'NOK', US: 'USD' };
    for (const p of allProducts(base)) {
      for (const pack of p.packs) {
        expect(pack.prices?.length).toBeGreaterThan(0);
        for (const price of pack.prices ?? []) {
          expect(price.currency).toBe(currency[p.country] ?? 'EUR');
          expect(price.amount).toBeGreaterThan(0);
          expect(price.amount).toBeLessThan(20000);
        }
      }
    }
  });

  it('lists Swiss packs on the SL with capped and ex-factory prices, some at 40 % and with limitations', () => {
    const ch = allPacks(base.filter((s) => s.source.id === 'demo-ch'));
    const listed = ch.filter((p) => p.sl?.listed);
    expect(listed.length).toBeGreaterThan(100);
    expect(ch.some((p) => p.sl && !p.sl.listed)).toBe(true);
    for (const p of listed) {
      expect(p.sl?.public_price).toBeGreaterThan(p.sl?.ex_factory_price ?? Infinity);
      expect([10, 40]).toContain(p.sl?.coinsurance_percent);
    }
    expect(listed.some((p) => p.sl?.coinsurance_percent === 40)).toBe(true);
    expect(listed.some((p) => p.sl?.limitation?.text)).toBe(true);
    expect(listed.some((p) => p.sl?.limitation?.points !== undefined)).toBe(true);
  });

  it('carries de/fr/it monographs for at least 10 Swiss products, marked as demo text', () => {
    const ch = base.find((s) => s.source.id === 'demo-ch')?.products ?? [];
    const withMono = ch.filter((p) => ['de', 'fr', 'it'].every((l) => p.monographs?.some((m) => m.lang === l)));
    expect(new Set(withMono.map((p) => p.brand)).size).toBeGreaterThanOrEqual(10);
    for (const p of withMono) {
      for (const m of p.monographs ?? []) {
        expect(m.sections.notice).toMatch(/Demo|démonstration|dimostrativ/i);
        for (const section of ['indications', 'contraindications', 'interactions', 'dosage']) {
          expect(m.sections[section]?.length, `${p.brand} ${m.lang} ${section}`).toBeGreaterThan(20);
        }
      }
    }
    expect(withMono.some((p) => p.brand === 'Marcoumar')).toBe(true);
  });
});

describe('demo builds', () => {
  it('are deterministic', () => {
    expect(buildDemoSnapshots()).toEqual(base);
    expect(buildDemoUpdateSnapshots()).toEqual(update);
  });

  it('update changes prices, adds, withdraws and removes products and publishes recalls', () => {
    const baseKeys = new Map(allProducts(base).map((p) => [`${p.country}|${p.key}`, p]));
    const updKeys = new Map(allProducts(update).map((p) => [`${p.country}|${p.key}`, p]));
    const added = [...updKeys.keys()].filter((k) => !baseKeys.has(k));
    const removed = [...baseKeys.keys()].filter((k) => !updKeys.has(k));
    expect(added.length).toBeGreaterThan(0);
    expect(new Set(added.map((k) => k.slice(0, 2))).size).toBeGreaterThanOrEqual(3);
    expect(removed.length).toBeGreaterThan(0);
    expect(new Set(removed.map((k) => baseKeys.get(k)?.country)).size).toBe(new Set(REMOVED.map((r) => r.country)).size);

    const withdrawn = [...updKeys.values()].filter((p) => p.marketing_status === 'withdrawn');
    expect(new Set(withdrawn.map((p) => p.country))).toEqual(new Set(WITHDRAWN.map((w) => w.country)));

    const changed = [...updKeys.entries()].filter(([k, p]) => {
      const before = baseKeys.get(k);
      return before && JSON.stringify(before.packs.map((x) => x.prices)) !== JSON.stringify(p.packs.map((x) => x.prices));
    });
    expect(new Set(changed.map(([, p]) => p.country))).toEqual(new Set(PRICE_CHANGES.map((c) => c.country)));

    const unchanged = [...updKeys.entries()].filter(([k, p]) => {
      const before = baseKeys.get(k);
      return before && JSON.stringify(before) === JSON.stringify(p);
    });
    expect(unchanged.length).toBeGreaterThan(baseKeys.size * 0.9);

    const recalls = countrySnapshots(update).flatMap((s) => s.recalls ?? []);
    expect(recalls.map((r) => r.key).sort()).toEqual(RECALLS.map((r) => r.key).sort());
    for (const r of recalls) {
      const product = updKeys.get(`${r.country}|${r.product_key}`);
      expect(product).toBeDefined();
      for (const k of r.pack_keys ?? []) expect(product?.packs.some((p) => p.key === k)).toBe(true);
    }
    expect(countrySnapshots(base).every((s) => !s.recalls)).toBe(true);
  });

  it('builds quickly', () => {
    const start = process.cpuUsage();
    buildDemoSnapshots();
    buildDemoUpdateSnapshots();
    const used = process.cpuUsage(start);
    expect((used.user + used.system) / 1000).toBeLessThan(2000);
  });
});
