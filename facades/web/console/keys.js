/**
 * The keys view: the account's keys (prefix and last four only), creating a key with a
 * narrowed scope set (the plaintext shown exactly once, with a copy button) and revoking
 * one after a confirmation. Server refusals (the tier's key limit) are shown verbatim.
 */
import { announce, emptyState, field, formatDate, h, maskedKey, notice, pageHeader, replace, table } from './dom.js';
import { api } from './session.js';
import { confirmDialog } from './dialog.js';

/** What each scope unlocks, from the contract's scope table. */
const SCOPE_HINTS = {
  'drugs:read': 'Drugs, packs, substances, profiles, market prices',
  'atc:read': 'ATC classification and therapy classes',
  'changes:read': 'The change feed',
  'chat:write': 'The assistant and AI answer packs',
  'graphql:query': 'POST /v1/graphql',
  'webhooks:write': 'Create and delete webhooks',
  'interactions:write': 'Licensed interaction texts, prescription screening',
  'byol:write': 'Bring-your-own-licence providers',
  'ch:claims': 'Swiss claims validation and price comparison',
  sso: 'Console single sign-on (no API surface)',
};

function statusCell(key) {
  return key.revoked_at
    ? h('span', { class: 'pill pill-muted' }, `Revoked ${formatDate(key.revoked_at)}`)
    : h('span', { class: 'pill pill-ok' }, 'Active');
}

function scopesCell(scopes) {
  return h('ul', { class: 'chips', 'aria-label': 'Scopes' }, scopes.map((s) => h('li', { class: 'chip' }, s)));
}

function keyRows(keys, onRevoke) {
  return keys.map((key) => [
    h('span', { class: 'key-name' }, key.name || 'Unnamed key'),
    h('code', { class: 'key-mask' }, maskedKey(key.prefix, key.last4)),
    scopesCell(key.scopes),
    formatDate(key.created_at),
    key.last_used_at ? formatDate(key.last_used_at, true) : h('span', { class: 'muted' }, 'Never'),
    statusCell(key),
    key.revoked_at ? '' : h('button', {
      type: 'button', class: 'button button-danger button-small',
      'aria-label': `Revoke ${key.name || 'unnamed key'} (${maskedKey(key.prefix, key.last4)})`,
      onclick: () => onRevoke(key),
    }, 'Revoke'),
  ]);
}

const COLUMNS = ['Name', 'Key', 'Scopes', 'Created', 'Last used', 'Status', 'Actions'].map((label) => ({ label }));

/** The one-time display of a new key's plaintext. Dismissing it drops the only reference. */
function revealPanel(created, onDismiss) {
  let plaintext = created.plaintext;
  const input = h('input', { id: 'new-key-value', class: 'secret', type: 'text', readonly: true, value: plaintext, spellcheck: 'false', autocomplete: 'off' });
  const copied = h('span', { class: 'copy-state', 'aria-live': 'polite' });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(plaintext);
    } catch {
      // No clipboard API (plain http off localhost): select the text so Ctrl+C works.
      input.select();
      document.execCommand('copy');
    }
    copied.textContent = 'Copied';
  };
  const panel = h('section', { class: 'reveal', 'aria-labelledby': 'reveal-title', tabindex: '-1' },
    h('h2', { id: 'reveal-title' }, `New key “${created.key.name || 'Unnamed key'}” created`),
    h('p', {}, h('strong', {}, 'Copy it now. '), 'This is the only time the key is shown; drugref keeps only a hash of it.'),
    h('div', { class: 'secret-row' },
      h('label', { for: 'new-key-value', class: 'visually-hidden' }, 'Your new API key'),
      input,
      h('button', { type: 'button', class: 'button button-primary', onclick: copy }, 'Copy key'),
      copied),
    h('button', { type: 'button', class: 'button button-quiet', onclick: () => {
      plaintext = null;
      input.value = '';
      panel.remove();
      onDismiss();
    } }, 'I have stored the key — hide it'));
  return panel;
}

function createForm(state, onCreated) {
  const name = h('input', { id: 'key-name', name: 'name', type: 'text', maxlength: '100', autocomplete: 'off', placeholder: 'e.g. production backend' });
  const boxes = state.tier_scopes.map((scope) => h('input', { type: 'checkbox', id: `scope-${scope.replace(/[^a-z]/g, '-')}`, value: scope, checked: true }));
  const error = h('div', { class: 'form-error' });
  const submit = h('button', { type: 'submit', class: 'button button-primary' }, 'Create key');
  const form = h('form', { class: 'card stack', 'aria-labelledby': 'create-title', onsubmit: async (event) => {
    event.preventDefault();
    replace(error);
    const scopes = boxes.filter((b) => b.checked).map((b) => b.value);
    if (!scopes.length) {
      replace(error, notice('error', 'Choose at least one scope.'));
      return;
    }
    submit.disabled = true;
    try {
      const body = { scopes };
      if (name.value.trim()) body.name = name.value.trim();
      const created = await api('POST', '/console/api/keys', body);
      name.value = '';
      onCreated(created);
    } catch (err) {
      replace(error, notice('error', err.message));
      announce(`Key not created: ${err.message}`);
    } finally {
      submit.disabled = false;
    }
  } },
  h('h2', { id: 'create-title' }, 'Create a key'),
  field('Name (optional)', name, 'Helps you recognise the key later.'),
  h('fieldset', { class: 'scopes' },
    h('legend', {}, 'Scopes'),
    h('p', { class: 'hint' }, `A key can have fewer scopes than your ${state.tier} plan, never more.`),
    h('div', { class: 'scope-grid' }, boxes.map((box) => h('div', { class: 'check' }, box,
      h('label', { for: box.id }, h('code', {}, box.value), h('span', { class: 'hint' }, SCOPE_HINTS[box.value] ?? '')))))),
  error,
  h('div', {}, submit));
  return form;
}

/** Renders the keys view into `main`. */
export async function renderKeys(main, ctx) {
  const header = pageHeader('API keys', 'Keys authenticate your applications. They share one quota with the console’s lookups.');
  const revealSlot = h('div');
  const listSlot = h('div', { class: 'stack' }, h('p', { class: 'loading' }, 'Loading keys…'));
  replace(main, header, revealSlot, listSlot);
  let state;
  try {
    state = await api('GET', '/console/api/keys');
  } catch (err) {
    if (ctx.isCurrent()) replace(listSlot, notice('error', 'Could not load your keys: ', err.message));
    return;
  }
  if (!ctx.isCurrent()) return;

  const draw = () => {
    const active = state.keys.filter((k) => !k.revoked_at).length;
    const summary = h('p', { class: 'summary' }, h('strong', {}, `${active} of ${state.limit}`), ` active keys on the ${state.tier} plan.`);
    const atLimit = active >= state.limit
      ? notice('warning', `You have reached your plan’s limit of ${state.limit} active keys. Revoke a key you no longer use, or upgrade, to create another.`)
      : null;
    const list = state.keys.length
      ? table({ text: 'Your API keys', visible: false }, COLUMNS, keyRows(state.keys, revoke), 'keys-table')
      : emptyState('No keys yet', 'Create your first key to call the API.');
    replace(listSlot, createForm(state, created), h('section', { class: 'stack', 'aria-labelledby': 'list-title' },
      h('div', { class: 'section-head' }, h('h2', { id: 'list-title' }, 'Your keys'), summary), atLimit, list));
  };

  const reload = async () => {
    state = await api('GET', '/console/api/keys');
    draw();
  };

  const created = async (answer) => {
    const panel = revealPanel(answer, () => main.querySelector('#create-title')?.focus());
    replace(revealSlot, panel);
    announce('Key created. Copy it now: it is shown only once.');
    panel.focus();
    await reload();
  };

  async function revoke(key) {
    const label = `${key.name || 'Unnamed key'} (${maskedKey(key.prefix, key.last4)})`;
    const ok = await confirmDialog({
      title: 'Revoke this key?',
      body: `${label} stops working within 30 seconds, everywhere it is used. This cannot be undone.`,
      confirm: 'Revoke key',
      danger: true,
    });
    if (!ok) return;
    try {
      await api('DELETE', `/console/api/keys/${encodeURIComponent(key.id)}`);
      announce(`Key ${label} revoked.`);
      await reload();
    } catch (err) {
      replace(revealSlot, notice('error', `Could not revoke ${label}: ${err.message}`));
    }
  }

  draw();
}
