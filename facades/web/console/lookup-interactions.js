/**
 * Interaction check (POST /v1/interactions/check { drugs: [2..50] }): what each input
 * resolved to, then the interacting pairs ordered by severity. A licensed (commercial)
 * row and the open row of the same rule are shown as one finding.
 */
import { announce, emptyState, h, notice, replace } from './dom.js';
import { runLookup, sourcesNote } from './lookup-common.js';
import { severityBadge, severityRank } from './severity.js';

const LOCK_REASONS = {
  plan_does_not_include: 'your plan does not include the licensed texts (the interactions:write scope)',
  no_credit_left: 'your quota is used up for now',
};

const MIN = 2;
const MAX = 50;

function inputRow(index, value, onRemove) {
  const id = `drug-input-${index}`;
  return h('li', { class: 'drug-input' },
    h('label', { for: id }, `Drug ${index + 1}`),
    h('div', { class: 'input-with-action' },
      h('input', { id, type: 'text', name: 'drug', maxlength: '200', autocomplete: 'off', value, placeholder: index === 0 ? 'e.g. warfarin' : 'e.g. ibuprofen' }),
      h('button', { type: 'button', class: 'button button-quiet button-small', 'aria-label': `Remove drug ${index + 1}`, onclick: () => onRemove(index) }, 'Remove')));
}

/** Merges the open and the licensed row of one rule and pair. */
function findings(rows) {
  const byKey = new Map();
  for (const row of rows) {
    const key = `${row.rule.key}|${row.atc_codes.join(',')}`;
    const found = byKey.get(key);
    if (!found) byKey.set(key, { ...row });
    else {
      found.mechanism ??= row.mechanism;
      found.management ??= row.management;
    }
  }
  return [...byKey.values()].sort((a, b) => severityRank(a.severity) - severityRank(b.severity));
}

function inputLabels(inputs) {
  return (index) => inputs[index]?.label ?? inputs[index]?.reference ?? `drug ${index + 1}`;
}

function resultView(answer) {
  const label = inputLabels(answer.inputs);
  const list = findings(answer.interactions);
  const resolved = h('ul', { class: 'chips' }, answer.inputs.map((i) =>
    h('li', { class: i.resolved ? 'chip' : 'chip chip-error' }, i.resolved ? `${i.reference} → ${i.label} (${i.atc_codes.join(', ')})` : `${i.reference}: not recognised`)));
  const items = list.map((f) => h('li', { class: `interaction sev-${f.severity}` },
    h('div', { class: 'interaction-head' }, severityBadge(f.severity),
      h('strong', {}, f.inputs.map((group) => group.map(label).join(' / ')).join(' + ')),
      h('span', { class: 'muted' }, `${f.evidence ?? ''} evidence`.trim())),
    h('p', {}, f.description),
    f.mechanism ? h('p', {}, h('strong', {}, 'Mechanism: '), f.mechanism) : null,
    f.management ? h('p', {}, h('strong', {}, 'Management: '), f.management) : null,
    h('p', { class: 'muted small' }, `Licence ${f.licence}`)));
  return h('div', { class: 'card stack' },
    h('h2', { tabindex: '-1' }, list.length ? `${list.length} interaction${list.length === 1 ? '' : 's'} found` : 'No interactions found'),
    h('p', { class: 'muted' }, `${answer.pairs_checked} pair${answer.pairs_checked === 1 ? '' : 's'} checked.`),
    resolved,
    answer.unresolved?.length ? notice('warning', `Not recognised, so not checked: ${answer.unresolved.map((i) => answer.inputs[i]?.reference ?? i).join(', ')}.`) : null,
    list.length ? h('ul', { class: 'interaction-list' }, items) : emptyState('No known interaction between these drugs', 'Absence of a finding is not proof of safety.'),
    answer.locked?.count ? notice('info', `${answer.locked.count} licensed finding${answer.locked.count === 1 ? '' : 's'} (mechanism and management texts) withheld: ${LOCK_REASONS[answer.locked.why] ?? answer.locked.why}.`) : null,
    sourcesNote(answer._meta));
}

/** Renders the interaction check form into `panel`. */
export function renderInteractionLookup(panel) {
  let values = ['', ''];
  const list = h('ol', { class: 'drug-inputs' });
  const results = h('div', { class: 'results-area' });
  const error = h('div');
  const add = h('button', { type: 'button', class: 'button button-quiet', onclick: () => {
    values = readValues();
    if (values.length >= MAX) return;
    values.push('');
    drawInputs();
    list.querySelector(`#drug-input-${values.length - 1}`)?.focus();
  } }, '+ Add drug');
  const button = h('button', { type: 'submit', class: 'button button-primary' }, 'Check interactions');

  function readValues() {
    return [...list.querySelectorAll('input')].map((i) => i.value);
  }
  function remove(index) {
    values = readValues();
    if (values.length <= MIN) return;
    values.splice(index, 1);
    drawInputs();
    list.querySelector(`#drug-input-${Math.min(index, values.length - 1)}`)?.focus();
  }
  function drawInputs() {
    replace(list, values.map((v, i) => inputRow(i, v, remove)));
    for (const b of list.querySelectorAll('button')) b.disabled = values.length <= MIN;
    add.disabled = values.length >= MAX;
  }

  const form = h('form', { class: 'card stack', 'aria-label': 'Interaction check', onsubmit: async (event) => {
    event.preventDefault();
    const drugs = readValues().map((v) => v.trim()).filter(Boolean);
    if (drugs.length < MIN) {
      replace(error, notice('error', 'Enter at least two drugs.'));
      return;
    }
    replace(error);
    const answer = await runLookup({ method: 'POST', path: '/console/api/v1/interactions/check', body: { drugs }, results, button, what: 'interactions' });
    if (!answer) return;
    replace(results, resultView(answer));
    const count = findings(answer.interactions).length;
    announce(count ? `${count} interactions found.` : 'No interactions found.');
  } },
  h('p', { class: 'muted' }, 'Names, brands, ATC codes, UNIIs, pack codes or drug ids; 2 to 50 drugs.'),
  list, error,
  h('div', { class: 'button-row' }, add, button));
  drawInputs();
  replace(panel, form, results);
}
