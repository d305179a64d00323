/**
 * The global demo source (`demo-atc`): the WHO ATC tree with DDDs, the class axes (FDA
 * EPC/MoA/PE/CS and MeSH pharmacological actions) and the substance layer with salts that
 * fold to their active moiety.
 */
import type { AtcEntry, ClassEntry, SubstanceEntry } from '../../workers/ingest/snapshot.ts';
import type { Curated } from './curated.ts';

type ClassAxis = ClassEntry['system'];

const AXES: Record<string, { system: ClassAxis; suffix: string }> = {
  epc: { system: 'epc', suffix: ' [EPC]' },
  moa: { system: 'moa', suffix: ' [MoA]' },
  pe: { system: 'pe', suffix: ' [PE]' },
  cs: { system: 'cs', suffix: ' [CS]' },
  mesh: { system: 'mesh_pa', suffix: '' },
};

const slug = (label: string): string => label.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** `epc:Vitamin K Antagonist` → the class entry (opaque code `epc-vitamin-k-antagonist`). */
export function parseClass(ref: string): ClassEntry {
  const colon = ref.indexOf(':');
  const axis = AXES[ref.slice(0, colon)];
  if (colon < 0 || !axis) throw new Error(`bad demo class reference ${ref}`);
  const label = ref.slice(colon + 1);
  return { system: axis.system, code: `${ref.slice(0, colon)}-${slug(label)}`, label: label + axis.suffix };
}

const ATC_LEVEL: Record<number, number> = { 1: 1, 3: 2, 4: 3, 5: 4, 7: 5 };

export function atcEntries(curated: Curated): AtcEntry[] {
  return curated.atc.map((e) => ({ ...e, level: ATC_LEVEL[e.code.length] ?? 0, ...(e.ddd ? { ddd: e.ddd.map((d) => ({ ...d })) } : {}) }));
}

export function classEntries(curated: Curated): ClassEntry[] {
  const byKey = new Map<string, ClassEntry>();
  for (const s of curated.substances) {
    for (const ref of s.classes) {
      const c = parseClass(ref);
      byKey.set(`${c.system}|${c.code}`, c);
    }
  }
  return [...byKey.values()].sort((a, b) => (a.system + a.code).localeCompare(b.system + b.code));
}

export function substanceEntries(curated: Curated): SubstanceEntry[] {
  const out: SubstanceEntry[] = [];
  for (const s of curated.substances) {
    const classes = s.classes.map((ref) => {
      const c = parseClass(ref);
      return { system: c.system, code: c.code };
    });
    const moiety: SubstanceEntry = {
      unii: s.unii,
      name: s.name,
      names: { inn: s.name, ...s.names },
      atc_codes: [...s.atc],
      classes,
    };
    if (s.rxcui) moiety.rxcui = s.rxcui;
    out.push(moiety);
    for (const salt of s.salts ?? []) {
      out.push({
        unii: salt.unii,
        name: salt.name,
        names: { inn: salt.name, ...salt.names },
        moiety_unii: s.unii,
        atc_codes: [...s.atc],
        classes: classes.map((c) => ({ ...c })),
      });
    }
  }
  return out;
}
