/**
 * The openFDA substances settled while the download is read once, for the streamed reader
 * (us-openfda-open.ts): the same entries, names, classes and order as `parseOpenFdaNdc` gets by
 * resolving every record after the whole file (us-openfda-ndc.ts), without holding every record.
 *
 * A record settles on its own unless its UNII pairing waits on the rest of the file: one with
 * UNIIs and more than one ingredient or UNII (its names are paired through the single-ingredient
 * records of the whole file). Only those are kept until the end, and only the first record of
 * each distinct set of names, UNIIs and classes, since later ones resolve the same way. The
 * in-memory parse names a substance after the first ingredient (in file order) that keys it and
 * lists its classes in the order first met; both are kept here by the position they were met at.
 */
import type { SubstanceEntry } from '../snapshot.ts';
import { addNamePair, resolveRecord } from './us-openfda-ndc.ts';
import type { OpenFdaNames } from './us-openfda-ndc.ts';

/** Where ingredient or class `index` of the record at `position` is met by a reading in file order. */
const met = (position: number, index: number): number => position * 4096 + index;

type ClassRef = NonNullable<SubstanceEntry['classes']>[number];

interface Settled {
  entry: SubstanceEntry;
  at: number;
  /** Classes by `system|code`, with where each was first met. */
  classes: Map<string, { at: number; ref: ClassRef }>;
}

/** A record's names, UNIIs and classes, without the rest of the product. */
const namesOnly = (r: OpenFdaNames, classes: OpenFdaNames['classes']): OpenFdaNames => ({
  names: r.names, uniis: r.uniis, classes, product: { ingredients: r.names.map(() => ({ unii: '' })) },
});

/** Substances resolved record by record; see the module comment. */
export class StreamedSubstances {
  /** Name → UNII pairs of the single-ingredient records (a name seen with two UNIIs → null). */
  readonly pairs = new Map<string, string | null>();
  private readonly settled = new Map<string, Settled>();
  private readonly waiting = new Map<string, { position: number; record: OpenFdaNames }>();

  /** Takes the record at `position` (1-based, file order). */
  add(position: number, r: OpenFdaNames): void {
    addNamePair(this.pairs, r);
    if (r.uniis.length > 0 && (r.names.length !== 1 || r.uniis.length !== 1)) {
      // Classes count for a single-ingredient record only.
      const classes = r.names.length === 1 ? r.classes : [];
      const signature = JSON.stringify([r.names, r.uniis, classes.map((c) => `${c.system}|${c.code}`)]);
      if (!this.waiting.has(signature)) this.waiting.set(signature, { position, record: namesOnly(r, classes) });
      return;
    }
    this.settle(position, r);
  }

  /** Settles the records that waited, and gives every substance in the order the in-memory parse lists them. */
  finish(): SubstanceEntry[] {
    for (const { position, record } of this.waiting.values()) this.settle(position, record);
    this.waiting.clear();
    const byFirst = [...this.settled.values()].sort((a, b) => a.at - b.at);
    return byFirst.map(({ entry, classes }) => {
      if (classes.size > 0) entry.classes = [...classes.values()].sort((a, b) => a.at - b.at).map((c) => c.ref);
      return entry;
    });
  }

  private settle(position: number, r: OpenFdaNames): void {
    const own = new Map<string, SubstanceEntry>();
    resolveRecord(r, this.pairs, own);
    r.product.ingredients.forEach((ingredient, i) => {
      const known = this.settled.get(ingredient.unii);
      const at = met(position, i);
      if (!known) {
        const { classes: _, ...entry } = own.get(ingredient.unii)!;
        this.settled.set(ingredient.unii, { entry, at, classes: new Map() });
      } else if (at < known.at) {
        known.at = at;
        known.entry.name = r.names[i]!;
      }
    });
    const only = r.product.ingredients.length === 1 ? r.product.ingredients[0]!.unii : undefined;
    if (only === undefined) return;
    const classes = this.settled.get(only)!.classes;
    (own.get(only)!.classes ?? []).forEach((ref, j) => {
      const key = `${ref.system}|${ref.code}`;
      const at = met(position, j);
      const known = classes.get(key);
      if (!known || at < known.at) classes.set(key, { at, ref });
    });
  }
}
