/**
 * DOM helpers of the console. Every server string reaches the page as a text node or an
 * attribute value set through the DOM API, never through innerHTML: that is the console's
 * whole XSS stance, so nothing here accepts markup.
 */

/**
 * Builds an element. `attrs`: `class`, `for`, `on<event>` handlers, booleans (true sets
 * the attribute, false/null/undefined leaves it out), anything else as a string attribute.
 * Children: nodes, strings (as text), numbers, arrays, null/false (skipped).
 */
export function h(tag, attrs = {}, ...children) {
  const svg = SVG_TAGS.has(tag);
  const el = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag) : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2).toLowerCase(), value);
    } else if (name === 'style' || name === 'innerHTML') {
      throw new Error(`h(): ${name} is not allowed (CSP and XSS stance)`);
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

const SVG_TAGS = new Set(['svg', 'g', 'rect', 'line', 'text', 'title', 'desc', 'path']);

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.append(child);
    else el.append(document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Says something to screen readers through the page's one polite live region. */
export function announce(message) {
  const status = document.getElementById('status');
  if (!status) return;
  // Clearing first makes a repeated message be read again.
  status.textContent = '';
  window.setTimeout(() => { status.textContent = message; }, 30);
}

const numberFormat = new Intl.NumberFormat(undefined);
const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/** 12345 → "12,345" in the reader's locale; null → an em dash. */
export function formatNumber(value) {
  return value === null || value === undefined ? '—' : numberFormat.format(value);
}

/** An ISO date or timestamp → a readable date (with time when `withTime`). */
export function formatDate(value, withTime = false) {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return (withTime ? dateTimeFormat : dateFormat).format(date);
}

/** A price with its currency, e.g. "CHF 8.20". */
export function formatMoney(amount, currency) {
  if (amount === null || amount === undefined) return '—';
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return `${currency ?? ''} ${amount}`.trim();
  }
}

/** A key as people recognise it, never the key: "svc_live_…AbCd". */
export function maskedKey(prefix, last4) {
  return `${prefix}…${last4}`;
}

/** A page heading with an optional lead paragraph. */
export function pageHeader(title, lead) {
  return h('div', { class: 'page-header' }, h('h1', { tabindex: '-1' }, title), lead ? h('p', { class: 'lead' }, lead) : null);
}

/** An inline notice: kind is info, error, success or warning. */
export function notice(kind, ...children) {
  return h('div', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : null }, ...children);
}

/** A labelled form field; `input` is the control element, its id is wired to the label. */
export function field(label, input, hint) {
  const hintId = hint ? `${input.id}-hint` : null;
  if (hintId) input.setAttribute('aria-describedby', hintId);
  return h('div', { class: 'field' },
    h('label', { for: input.id }, label),
    input,
    hint ? h('p', { class: 'hint', id: hintId }, hint) : null);
}

/** A table whose cells carry their column name, so narrow screens can show rows as cards. */
export function table(caption, columns, rows, className = '') {
  return h('div', { class: 'table-wrap' },
    h('table', { class: `data-table ${className}`.trim() },
      h('caption', { class: caption.visible ? '' : 'visually-hidden' }, caption.text ?? caption),
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: c.numeric ? 'num' : null }, c.label)))),
      h('tbody', {}, rows.map((row) => h('tr', {}, columns.map((c, i) =>
        h('td', { 'data-label': c.label, class: c.numeric ? 'num' : null }, row[i])))))));
}

/** A centred placeholder for "nothing here yet". */
export function emptyState(title, text, action) {
  return h('div', { class: 'empty' }, h('p', { class: 'empty-title' }, title), text ? h('p', {}, text) : null, action ?? null);
}
