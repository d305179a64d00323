/**
 * Market overview (GET /v1/markets/overview?q=&countries=): the median price per defined
 * daily dose per market as a table, with what the query resolved to and the FX rates' date.
 */
import { announce, emptyState, formatDate, h, replace, table } from './dom.js';
import { countryName, runLookup, sourcesNote } from './lookup-common.js';

const BASIS = { per_ddd: 'per DDD', per_unit: 'per unit', per_pack: 'per pack', none: 'no price' };

function usd(value, digits = 2) {
  return value === null || value === undefined ? '—' : `$${value.toFixed(digits)}`;
}

function overview(answer) {
  const markets = answer.markets ?? [];
  const resolved = answer.resolved;
  const head = h('div', { class: 'stack-sm' },
    h('h2', { tabindex: '-1', id: 'market-title' }, `Prices for ${resolved?.label ?? answer.query}`),
    resolved ? h('p', { class: 'muted' }, `Matched by ${resolved.matched_by.replace(/_/g, ' ')}; ATC ${resolved.atc_codes.join(', ') || '—'}.`) : null);
  if (!markets.length) return h('div', { class: 'card stack' }, head, emptyState('No market has priced packs of this substance'));
  const cheapest = markets.filter((m) => m.price_per_ddd_usd !== null).sort((a, b) => a.price_per_ddd_usd - b.price_per_ddd_usd)[0];
  const rows = markets.map((m) => [
    h('span', {}, h('strong', {}, m.country), ` ${countryName(m.country)}`, m === cheapest ? h('span', { class: 'pill pill-ok pill-inline' }, 'lowest') : null),
    BASIS[m.basis] ?? m.basis,
    `${m.priced_packs} of ${m.packs}`,
    m.currency ?? '—',
    usd(m.price_per_ddd_usd, 4),
    usd(m.unit_price_usd, 4),
    usd(m.pack_price_usd),
  ]);
  const columns = [{ label: 'Market' }, { label: 'Basis' }, { label: 'Priced packs', numeric: true }, { label: 'Local currency' },
    { label: 'USD per DDD', numeric: true }, { label: 'USD per unit', numeric: true }, { label: 'USD per pack', numeric: true }];
  return h('div', { class: 'card stack' }, head,
    table({ text: `Median prices per market for ${resolved?.label ?? answer.query}`, visible: false }, columns, rows, 'market-table'),
    answer.fx ? h('p', { class: 'muted' }, `Converted to USD with the ${answer.fx.source ?? 'ECB reference rates'} of ${formatDate(answer.fx.date)}. DDD: the WHO defined daily dose.`) : null,
    sourcesNote(answer._meta));
}

/** Renders the market overview form into `panel`. */
export function renderMarketLookup(panel) {
  const q = h('input', { id: 'market-q', name: 'q', type: 'search', required: true, maxlength: '200', autocomplete: 'off', placeholder: 'e.g. atorvastatin, M01AE01' });
  const countries = h('input', { id: 'market-countries', name: 'countries', type: 'text', maxlength: '100', value: 'all', autocomplete: 'off', spellcheck: 'false' });
  const button = h('button', { type: 'submit', class: 'button button-primary' }, 'Compare prices');
  const results = h('div', { class: 'results-area' });
  const form = h('form', { class: 'card form-row', 'aria-label': 'Market price overview', onsubmit: async (event) => {
    event.preventDefault();
    if (!q.value.trim()) {
      q.focus();
      return;
    }
    const params = new URLSearchParams({ q: q.value.trim(), countries: countries.value.trim() || 'all' });
    const answer = await runLookup({ path: `/console/api/v1/markets/overview?${params}`, results, button, what: 'market prices' });
    if (!answer) return;
    replace(results, overview(answer));
    announce(`Prices in ${answer.markets?.length ?? 0} markets for ${answer.resolved?.label ?? answer.query}.`);
  } },
  h('div', { class: 'field grow' }, h('label', { for: 'market-q' }, 'Substance, brand, code or ATC'), q),
  h('div', { class: 'field' }, h('label', { for: 'market-countries' }, 'Countries'), countries,
    h('p', { class: 'hint', id: 'market-countries-hint' }, '“all” or a list such as CH,DE,US')),
  h('div', { class: 'field field-action' }, button));
  countries.setAttribute('aria-describedby', 'market-countries-hint');
  replace(panel, form, results);
}
