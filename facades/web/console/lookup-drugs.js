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

function resultList(answer, onPick) {
  if (!answer.results.length) return emptyState(`No drug matches “${answer.q}”`, 'Try a substance name, a brand, or a pack code such as a GTIN.');
  return h('div', { class: 'stack' },
    h('p', { class: 'summary' }, `${answer.count} result${answer.count === 1 ? '' : 's'} for “${answer.q}”`),
    h('ul', { class: 'results', 'aria-label': 'Search results' }, answer.results.map((drug) =>
      h('li', {}, h('button', { type: 'button', class: 'result', onclick: () => onPick(drug) },
        h('span', { class: 'result-title' }, drug.product_name),
        h('span', { class: 'result-meta' },
          [drug.substance_name, drug.dose_form, drug.atc_code].filter(Boolean).join(' · ')),
        h('span', { class: 'country-tag', title: countryName(drug.country) }, drug.country))))));
}

/** Renders the drug search into `panel`. */
export function renderDrugLookup(panel) {
  const results = h('div', { class: 'results-area', id: 'drug-results' });
  let lastAnswer = null;
  let lastButton = null;

  const showResults = () => {
    replace(results, resultList(lastAnswer, pick));
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

  const search = async (q, country, button) => {
    lastButton = button;
    const params = new URLSearchParams({ q, country, limit: '20' });
    const answer = await runLookup({ path: `/console/api/v1/drugs?${params}`, results, button, what: `“${q}”` });
    if (!answer) return;
    lastAnswer = answer;
    showResults();
    announce(answer.count ? `${answer.count} drugs found for ${q}.` : `No drug matches ${q}.`);
  };

  replace(panel, searchForm(search), results);
}
