/**
 * Drug search → pick a result → its profile as a product page. The search and the profile
 * are one request each; going back to the results reuses the list already fetched.
 */
import { announce, emptyState, h, replace } from './dom.js';
import { COUNTRIES, countryName, runLookup } from './lookup-common.js';
import { renderProfile } from './profile.js';

function searchForm(onSearch) {
  const q = h('input', { id: 'drug-q', name: 'q', type: 'search', required: true, maxlength: '200', autocomplete: 'off', placeholder: 'e.g. ibuprofen, Algifor, 7680692810113' });
  const country = h('select', { id: 'drug-country', name: 'country' },
    h('option', { value: 'ALL' }, 'All countries'),
    COUNTRIES.map((c) => h('option', { value: c }, `${countryName(c)} (${c})`)));
  const button = h('button', { type: 'submit', class: 'button button-primary' }, 'Search');
  const form = h('form', { class: 'card form-row', role: 'search', 'aria-label': 'Drug search', onsubmit: (event) => {
    event.preventDefault();
    if (!q.value.trim()) {
      q.focus();
      return;
    }
    onSearch(q.value.trim(), country.value, button);
  } },
  h('div', { class: 'field grow' }, h('label', { for: 'drug-q' }, 'Name or code'), q),
  h('div', { class: 'field' }, h('label', { for: 'drug-country' }, 'Country'), country),
  h('div', { class: 'field field-action' }, button));
  return form;
}

/** Results per page, and the API's largest page (the "show more" step). */
const PAGE = 20;
const MAX_PAGE = 100;

/**
 * The search asks for one row more than it shows: that extra row is how the console knows
 * more drugs match than the page holds (the API returns a page, not a total).
 */
function resultList(answer, shown, onPick, onMore) {
  if (!answer.results.length) return emptyState(`No drug matches “${answer.q}”`, 'Try a substance name, a brand, or a pack code such as a GTIN.');
  const more = answer.results.length > shown;
  const rows = answer.results.slice(0, shown);
  const canGrow = more && shown < MAX_PAGE - 1;
  return h('div', { class: 'stack' },
    h('p', { class: 'summary' }, more
      ? `Showing the first ${rows.length} results for “${answer.q}”; more drugs match.`
      : `${rows.length} result${rows.length === 1 ? '' : 's'} for “${answer.q}”`),
    h('ul', { class: 'results', 'aria-label': 'Search results' }, rows.map((drug) =>
      h('li', {}, h('button', { type: 'button', class: 'result', onclick: () => onPick(drug) },
        h('span', { class: 'result-title' }, drug.product_name),
        h('span', { class: 'result-meta' },
          [drug.substance_name, drug.dose_form, drug.atc_code].filter(Boolean).join(' · ')),
        h('span', { class: 'country-tag', title: countryName(drug.country) }, drug.country))))),
    more ? h('div', { class: 'more-results notice notice-info' },
      h('p', {}, canGrow
        ? `More than ${rows.length} drugs match. Narrow the search with a country or a fuller name, or show up to ${MAX_PAGE - 1}.`
        : `More than ${rows.length} drugs match. Narrow the search with a country or a fuller name.`),
      canGrow ? h('button', { type: 'button', class: 'button button-quiet button-small', onclick: onMore }, 'Show more results') : null) : null);
}

/** Renders the drug search into `panel`. */
export function renderDrugLookup(panel) {
  const results = h('div', { class: 'results-area', id: 'drug-results' });
  let lastAnswer = null;
  let lastButton = null;
  let lastQuery = null;
  let shown = PAGE;

  const showResults = () => {
    replace(results, resultList(lastAnswer, shown, pick, () => search(lastQuery.q, lastQuery.country, lastButton, MAX_PAGE - 1)));
  };

  async function pick(drug) {
    const answer = await runLookup({ path: `/console/api/v1/drugs/${encodeURIComponent(drug.id)}/profile`, results, button: lastButton, what: drug.product_name });
    if (!answer) return;
    const back = h('button', { type: 'button', class: 'button button-quiet', onclick: () => {
      showResults();
      results.querySelector('.result')?.focus();
    } }, '← Back to results');
    replace(results, back, renderProfile(answer));
    announce(`Profile of ${answer.drug.product_name} loaded.`);
    results.querySelector('h2')?.focus();
  }

  const search = async (q, country, button, size = PAGE) => {
    lastButton = button;
    const params = new URLSearchParams({ q, country, limit: String(size + 1) });
    const answer = await runLookup({ path: `/console/api/v1/drugs?${params}`, results, button, what: `“${q}”` });
    if (!answer) return;
    lastAnswer = answer;
    lastQuery = { q, country };
    shown = size;
    showResults();
    const count = Math.min(answer.results.length, size);
    announce(!count ? `No drug matches ${q}.` : answer.results.length > size ? `${count} drugs shown for ${q}; more match.` : `${count} drugs found for ${q}.`);
  };

  replace(panel, searchForm(search), results);
}
