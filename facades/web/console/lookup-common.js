/**
 * Pieces the lookup forms share: the country list, region names, the data-source notice
 * and a "run one lookup" wrapper that shows progress, errors and announces the outcome.
 */
import { announce, h, notice, replace } from './dom.js';
import { api } from './session.js';

export const COUNTRIES = ['CH', 'GB', 'FR', 'DE', 'IT', 'AT', 'ES', 'DK', 'SE', 'FI', 'NO', 'NL', 'BE', 'IE', 'PT', 'US'];

const regionNames = new Intl.DisplayNames(undefined, { type: 'region' });

/** "CH" → "Switzerland" in the reader's language (the code itself when unknown). */
export function countryName(code) {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The `_meta` notice (demonstration data) and the sources behind a result, folded when many. */
export function sourcesNote(meta) {
  if (!meta) return null;
  const names = (meta.sources ?? []).map((s) => s.name);
  const lead = meta.notice ? h('strong', {}, `${meta.notice} `) : null;
  if (names.length <= 2) return h('p', { class: 'sources muted' }, lead, names.length ? `Source: ${names.join('; ')}.` : null);
  return h('div', { class: 'sources muted' },
    h('details', {}, h('summary', {}, lead, `${names.length} sources`),
      h('ul', { class: 'plain' }, names.map((n) => h('li', {}, n)))));
}

/**
 * Runs one console lookup: a busy state on `button`, the answer handed to `show`, or the
 * server's message in `results`. Returns the answer (undefined on failure).
 */
export async function runLookup({ method = 'GET', path, body, results, button, what }) {
  button.disabled = true;
  results.setAttribute('aria-busy', 'true');
  replace(results, h('p', { class: 'loading' }, `Looking up ${what}…`));
  try {
    return await api(method, path, body);
  } catch (err) {
    replace(results, notice('error', err.message));
    announce(`Lookup failed: ${err.message}`);
    return undefined;
  } finally {
    button.disabled = false;
    results.removeAttribute('aria-busy');
  }
}
