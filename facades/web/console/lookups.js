/**
 * The lookups view: drug search → profile, market price overview and interaction check,
 * each one request against the account's quota, exactly like the API. Sub-views live in
 * the fragment (#lookups/drugs, #lookups/markets, #lookups/interactions).
 */
import { h, pageHeader, replace } from './dom.js';
import { renderDrugLookup } from './lookup-drugs.js';
import { renderMarketLookup } from './lookup-markets.js';
import { renderInteractionLookup } from './lookup-interactions.js';

const TABS = [
  { id: 'drugs', label: 'Drug search', render: renderDrugLookup },
  { id: 'markets', label: 'Market prices', render: renderMarketLookup },
  { id: 'interactions', label: 'Interaction check', render: renderInteractionLookup },
];

/** Renders the lookups view into `main`. */
export async function renderLookups(main, ctx) {
  const active = TABS.find((t) => t.id === ctx.sub) ?? TABS[0];
  const panel = h('div', { class: 'lookup-panel' });
  replace(main,
    pageHeader('Lookups', 'Try the API from here. A search, a profile or a price comparison counts as one request against your quota, like a call with a key; an interaction check counts only when it delivers licensed texts, as on the API.'),
    h('nav', { class: 'subnav', 'aria-label': 'Lookup type' }, TABS.map((t) =>
      h('a', { href: `#lookups/${t.id}`, 'aria-current': t.id === active.id ? 'page' : null }, t.label))),
    panel);
  active.render(panel);
}
