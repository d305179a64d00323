/**
 * A drug profile (GET /v1/drugs/{id}/profile) as a readable product page: names and
 * status, key facts, ingredients, packs with prices and codes, interaction partners,
 * markets, product information and what is unavailable. Never a raw JSON dump.
 */
import { formatDate, formatMoney, formatNumber, h, table } from './dom.js';
import { countryName, sourcesNote } from './lookup-common.js';
import { severityBadge } from './severity.js';

const PRICE_KINDS = { public: 'Public price', ex_factory: 'Ex-factory', list: 'List price', retail: 'Retail', wholesale: 'Wholesale', reimbursed: 'Reimbursed' };
const CODE_NAMES = { gtin: 'GTIN', pharmacode: 'Pharmacode', swissmedic_no: 'Swissmedic no.', ndc: 'NDC', cip13: 'CIP13', cip7: 'CIP7', pzn: 'PZN', aic: 'AIC' };

function humanise(text) {
  return String(text).replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

function strength(ing) {
  if (ing.strength_text) return ing.strength_text;
  if (ing.strength_value === null || ing.strength_value === undefined) return '—';
  return `${formatNumber(ing.strength_value)} ${ing.strength_unit ?? ''}`.trim();
}

function prices(list) {
  if (!list?.length) return h('span', { class: 'muted' }, 'No price');
  return h('ul', { class: 'plain' }, list.map((p) =>
    h('li', {}, h('span', { class: 'muted' }, `${PRICE_KINDS[p.kind] ?? humanise(p.kind)}: `), h('strong', {}, formatMoney(p.amount, p.currency)))));
}

function codes(list) {
  if (!list?.length) return '—';
  return h('ul', { class: 'plain codes' }, list.filter((c) => !c.previous).map((c) =>
    h('li', {}, h('span', { class: 'muted' }, `${CODE_NAMES[c.system] ?? c.system} `), h('code', {}, c.code))));
}

function facts(drug) {
  const atc = drug.atc_chain?.length
    ? h('ol', { class: 'breadcrumb', 'aria-label': 'ATC hierarchy' }, drug.atc_chain.map((n) => h('li', { title: n.name }, h('code', {}, n.code), ` ${n.level === 5 ? n.name : n.name.charAt(0) + n.name.slice(1).toLowerCase()}`)))
    : drug.atc_code ?? '—';
  const rows = [
    ['ATC', atc],
    ['Dose form', drug.dose_form],
    ['Route', drug.route],
    ['Marketing authorisation holder', drug.holder],
    ['Authorised on', drug.authorised_on ? formatDate(drug.authorised_on) : null],
    ['Dispensing category', drug.dispensing_category],
    ['Reimbursement rate', drug.reimbursement_rate_percent === null ? null : `${drug.reimbursement_rate_percent} %`],
  ].filter(([, value]) => value !== null && value !== undefined && value !== '');
  return h('dl', { class: 'facts' }, rows.map(([term, value]) => h('div', { class: term === 'ATC' ? 'fact-wide' : null }, h('dt', {}, term), h('dd', {}, value))));
}

function packsTable(packs) {
  if (!packs?.length) return h('p', { class: 'muted' }, 'No packs are listed for this product.');
  return table('Packs', [{ label: 'Pack' }, { label: 'Size' }, { label: 'Prices' }, { label: 'Codes' }, { label: 'Status' }],
    packs.map((p) => [p.description, p.units ? `${formatNumber(p.units)} ${p.unit ?? ''}`.trim() : '—', prices(p.prices), codes(p.identifiers), humanise(p.marketing_status ?? 'unknown')]));
}

function interactionsSection(inter) {
  if (!inter) return null;
  const rules = inter.rules ?? [];
  return section('p-interactions', `Interactions (${formatNumber(inter.total)})`, 'Interactions',
    rules.length ? h('ul', { class: 'interaction-list' }, rules.map((r) =>
      h('li', { class: `interaction sev-${r.severity}` },
        h('div', { class: 'interaction-head' }, severityBadge(r.severity), h('strong', {}, r.partner_label ?? r.partner_code), h('code', { class: 'muted' }, r.partner_code)),
        h('p', {}, r.description)))) : h('p', { class: 'muted' }, 'No interaction partners are listed.'),
    inter.withheld_licensed ? h('p', { class: 'muted' }, `${inter.withheld_licensed} licensed clinical texts (mechanism, management) are available with the interactions:write scope.`) : null);
}

function pricingSection(id, title, pricing) {
  if (!pricing?.packs?.length) return null;
  const basis = pricing.basis === 'own' ? 'this product' : `matched by ${humanise(pricing.basis).toLowerCase()}`;
  return section(id, `${title} (${basis})`, title,
    table(title, [{ label: 'Product' }, { label: 'Pack' }, { label: 'Prices' }],
      pricing.packs.map((p) => [p.product_name, p.description, prices(p.prices)])));
}

function informationSection(info) {
  if (!info) return null;
  const parts = ['indications', 'contraindications', 'warnings', 'boxed_warning', 'adverse_reactions', 'drug_interactions'].filter((k) => info[k]);
  return section('p-information', info.title ? `Product information: ${info.title}` : 'Product information', 'Product information',
    parts.map((k) => h('details', {}, h('summary', {}, humanise(k)), h('p', { class: 'prose' }, info[k]))));
}

/**
 * One titled part of the profile. `short` names it in the page's navigation; the heading
 * takes focus from there (tabindex -1) so keyboard and screen-reader users land on it too.
 */
function section(id, title, short, ...body) {
  const el = h('section', { class: 'profile-section', 'aria-labelledby': id, 'data-short': short },
    h('h3', { id, tabindex: '-1' }, title), ...body);
  return el;
}

/**
 * "On this page": a profile runs to several screens, so its sections are one click away.
 * The console routes on the fragment (#lookups/drugs), so the links scroll by script
 * instead of changing it.
 */
function pageNav(sections) {
  const jump = (event, heading) => {
    event.preventDefault();
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
  };
  return h('nav', { class: 'profile-nav', 'aria-label': 'Sections of this profile' },
    h('ul', {}, sections.map((s) => {
      const heading = s.querySelector('h3');
      return h('li', {}, h('a', { href: `#${heading.id}`, onclick: (event) => jump(event, heading) }, s.dataset.short));
    })));
}

/** The profile answer → a product page element, with navigation to its sections. */
export function renderProfile(profile) {
  const drug = profile.drug;
  const substances = (drug.ingredients ?? []).map((i) => i.name).join(' + ') || drug.substance_name;
  const sections = [
    section('p-ingredients', 'Ingredients', 'Ingredients',
      table('Ingredients', [{ label: 'Substance' }, { label: 'Strength' }, { label: 'UNII' }],
        (drug.ingredients ?? []).map((i) => [i.name, strength(i), i.unii ? h('code', {}, i.unii) : '—']))),
    section('p-packs', 'Packs and prices', 'Packs and prices', packsTable(drug.packs)),
    interactionsSection(profile.interactions),
    pricingSection('p-ch-prices', 'Swiss prices', profile.swiss_pricing),
    pricingSection('p-us-prices', 'US prices', profile.us_pricing),
    profile.availability?.length ? section('p-markets', 'Same substances on other markets', 'Other markets',
      h('ul', { class: 'chips' }, profile.availability.map((a) => h('li', { class: 'chip', title: countryName(a.country) }, `${a.country} · ${a.count}`)))) : null,
    informationSection(profile.information),
    profile.unavailable?.length ? section('p-unavailable', 'Not available for this product', 'Not available',
      h('ul', { class: 'plain muted' }, profile.unavailable.map((u) => h('li', {}, h('strong', {}, `${humanise(u.section)}: `), u.reason)))) : null,
  ].filter(Boolean);
  return h('article', { class: 'profile card', 'aria-labelledby': 'profile-title' },
    h('header', { class: 'profile-head' },
      h('h2', { id: 'profile-title', tabindex: '-1' }, drug.product_name),
      h('p', { class: 'lead' }, [substances, drug.brand ? `brand ${drug.brand}` : null, countryName(drug.country)].filter(Boolean).join(' · ')),
      h('div', { class: 'badges' },
        h('span', { class: drug.marketing_status === 'active' ? 'pill pill-ok' : 'pill pill-muted' }, humanise(drug.marketing_status ?? 'unknown')),
        h('span', { class: 'pill' }, drug.generic ? 'Generic' : 'Originator / brand'),
        drug.veterinary ? h('span', { class: 'pill pill-warn' }, 'Veterinary') : null,
        h('span', { class: 'pill' }, drug.country))),
    pageNav(sections),
    facts(drug),
    sections,
    sourcesNote(profile._meta));
}
