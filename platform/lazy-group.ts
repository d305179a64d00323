/**
 * A group of per-request objects (dataloaders) built only when first read. A request
 * touches two or three of the ~25 loaders, and building them all was a measurable part of a
 * cheap route's cost (docs/performance.md). The getters live on one prototype made once per
 * group, so a request pays for one small object plus the loaders it actually uses.
 *
 * Members are inherited getters: a spread copy (`{ ...group }`) holds none of them. To
 * replace some members, use `withOverrides`, which shares the others with the group.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Factory<D> = (deps: D) => any;

export type LazyGroup<F> = { readonly [K in keyof F]: F[K] extends Factory<never> ? ReturnType<F[K]> : never };

const DEPS = Symbol('lazy group dependencies');
const BUILT = Symbol('lazy group members built');

interface Instance<D> {
  [DEPS]: D;
  /** Members built so far, by name: shared with every `withOverrides` copy of the group. */
  [BUILT]: Record<string, unknown>;
}

/** `lazyGroup<D>()({ name: (deps) => value, … })` → `(deps) => group`. */
export function lazyGroup<D>() {
  return <F extends Record<string, Factory<D>>>(factories: F): ((deps: D) => LazyGroup<F>) => {
    const proto: object = {};
    for (const [name, make] of Object.entries(factories)) {
      Object.defineProperty(proto, name, {
        // Kept in a plain object, not defined on the group on first read: an
        // Object.defineProperty per loader per request cost ~0.4 µs each, a store ~20 ns.
        get(this: Instance<D>) {
          const built = this[BUILT];
          const value = built[name];
          return value !== undefined ? value : (built[name] = make(this[DEPS]));
        },
      });
    }
    return (deps) => {
      const group = Object.create(proto) as Instance<D>;
      group[DEPS] = deps;
      group[BUILT] = {};
      return group as unknown as LazyGroup<F>;
    };
  };
}

/** `group` with some members replaced; the others are the group's own (built once, shared). */
export function withOverrides<T extends object>(group: T, overrides: Partial<T>): T {
  const copy = Object.create(group) as T;
  // Defined, not assigned: the inherited members are getters without setters.
  for (const [name, value] of Object.entries(overrides)) Object.defineProperty(copy, name, { value, enumerable: true });
  return copy;
}
