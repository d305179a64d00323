/**
 * A few composable structural checks for JSON values. Each check validates a value at a
 * JSON path, appends `<path>: <message>` for every problem and returns the value to keep
 * (checks may normalise, e.g. identifier codes). Hand-written so that messages name the
 * exact path, which a JSON file's line numbers would not.
 */

export type Check<T = unknown> = (value: unknown, path: string, errors: string[]) => T;

/** A field of an object shape; optional fields may be absent (undefined). */
export interface Field {
  check: Check;
  optional?: boolean;
}

export const required = (check: Check): Field => ({ check });
export const optional = (check: Check): Field => ({ check, optional: true });

function fail<T>(errors: string[], path: string, message: string, value: T): T {
  errors.push(`${path}: ${message}`);
  return value;
}

/** Non-empty string, optionally matching a predicate described by `what`. */
export function str(test?: (s: string) => boolean, what = 'a valid value'): Check<string> {
  return (value, path, errors) => {
    if (typeof value !== 'string' || value.trim() === '') return fail(errors, path, 'must be a non-empty string', String(value));
    if (test && !test(value)) return fail(errors, path, `"${value}" is not ${what}`, value);
    return value;
  };
}

/** String that may be empty (free text such as monograph sections). */
export const text: Check<string> = (value, path, errors) =>
  typeof value === 'string' ? value : fail(errors, path, 'must be a string', '');

/** Finite number within [min, max]. */
export function num(min = -Infinity, max = Infinity): Check<number> {
  return (value, path, errors) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return fail(errors, path, 'must be a number', 0);
    if (value < min || value > max) return fail(errors, path, `${value} is outside ${min}..${max}`, value);
    return value;
  };
}

export const bool: Check<boolean> = (value, path, errors) =>
  typeof value === 'boolean' ? value : fail(errors, path, 'must be true or false', false);

/** One of a fixed set of values. */
export function oneOf<T>(values: readonly T[]): Check<T> {
  return (value, path, errors) =>
    values.includes(value as T) ? (value as T) : fail(errors, path, `must be one of ${values.map(String).join(', ')}`, value as T);
}

/** ISO calendar date `YYYY-MM-DD`. */
export const isoDate: Check<string> = str((s) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}, 'an ISO date (YYYY-MM-DD)');

export function arrayOf<T>(check: Check<T>): Check<T[]> {
  return (value, path, errors) => {
    if (!Array.isArray(value)) return fail(errors, path, 'must be an array', []);
    return value.map((item, i) => check(item, `${path}[${i}]`, errors));
  };
}

/** Object whose values all pass `check` (e.g. names per vocabulary). */
export function recordOf<T>(check: Check<T>): Check<Record<string, T>> {
  return (value, path, errors) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(errors, path, 'must be an object', {});
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, check(v, `${path}.${k}`, errors)]));
  };
}

/** Object with a fixed shape; unknown properties are problems, so typos in optional fields surface. */
export function object<T>(shape: Record<string, Field>): Check<T> {
  return (value, path, errors) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(errors, path, 'must be an object', {} as T);
    const input = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(shape)) {
      if (input[name] === undefined) {
        if (!field.optional) errors.push(`${path}.${name}: is required`);
        continue;
      }
      out[name] = field.check(input[name], `${path}.${name}`, errors);
    }
    for (const name of Object.keys(input)) if (!(name in shape)) errors.push(`${path}.${name}: is not a field of this format`);
    return out as T;
  };
}

/** `null` or a value passing `check`. */
export function nullable<T>(check: Check<T>): Check<T | null> {
  return (value, path, errors) => (value === null ? null : check(value, path, errors));
}

/** A string, finite number or boolean (register attributes). */
export const scalar: Check<string | number | boolean> = (value, path, errors) =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
    ? value
    : fail(errors, path, 'must be a string, number or boolean', '');
