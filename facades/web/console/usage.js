/**
 * The usage view: the account's quota windows and AI allowance as meters, a bar chart of
 * this month's daily requests and the requests per key. Reading it costs no quota.
 */
import { announce, emptyState, formatDate, formatNumber, h, maskedKey, notice, pageHeader, replace, table } from './dom.js';
import { api } from './session.js';
import { dailyChart } from './chart.js';

const WINDOW_TITLES = { monthly: 'Requests this month', daily: 'Requests today' };

/** A labelled meter: `used` of `limit` (null limit: no ceiling, no bar). */
function meter({ id, title, used, limit, unit, footer }) {
  const ratio = limit ? Math.min(1, used / limit) : 0;
  const level = ratio >= 1 ? 'full' : ratio >= 0.8 ? 'high' : 'ok';
  const valueText = limit === null ? `${formatNumber(used)} ${unit}, no limit` : `${formatNumber(used)} of ${formatNumber(limit)} ${unit} used`;
  const fill = h('div', { class: `meter-fill meter-${level}` });
  // CSSOM writes are not inline style attributes, so the strict CSP allows them.
  fill.style.width = `${(ratio * 100).toFixed(2)}%`;
  return h('section', { class: 'card meter-card', 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title`, class: 'meter-title' }, title),
    h('p', { class: 'meter-value', id: `${id}-value` },
      h('span', { class: 'big' }, formatNumber(used)),
      limit === null ? h('span', { class: 'muted' }, ` ${unit} · no limit on your plan`) : h('span', { class: 'muted' }, ` of ${formatNumber(limit)} ${unit}`)),
    limit === null ? null : h('div', {
      class: 'meter', role: 'meter', 'aria-labelledby': `${id}-title`, 'aria-valuemin': '0', 'aria-valuemax': String(limit),
      'aria-valuenow': String(Math.min(used, limit)), 'aria-valuetext': valueText,
    }, fill),
    h('p', { class: 'meter-foot muted' }, footer));
}

function windowMeter(w) {
  const left = w.remaining === null ? null : `${formatNumber(w.remaining)} left`;
  const resets = w.resets ? `resets ${formatDate(w.resets, true)}` : null;
  return meter({ id: `meter-${w.window}`, title: WINDOW_TITLES[w.window] ?? w.window, used: w.used, limit: w.limit, unit: 'requests', footer: [left, resets].filter(Boolean).join(' · ') });
}

function aiMeter(ai) {
  const limit = ai.answers_left === null ? null : ai.answers_used + ai.answers_left;
  return meter({
    id: 'meter-ai', title: 'AI answers this month', used: ai.answers_used, limit, unit: 'answers',
    footer: `${ai.answers_left === null ? 'No monthly limit' : `${formatNumber(ai.answers_left)} left`} · ${formatNumber(ai.pack_credits)} prepaid pack credits`,
  });
}

function perKeyTable(keys) {
  if (!keys.length) return emptyState('No key has made a request this month', 'Requests appear here per key as soon as your applications call the API.');
  const sorted = [...keys].sort((a, b) => b.requests - a.requests);
  return table({ text: 'Requests per key this month', visible: false },
    [{ label: 'Key' }, { label: 'Requests this month', numeric: true }],
    sorted.map((k) => [
      // The console's own lookups come as prefix "console" without last four.
      k.last4 === null ? h('span', {}, 'Console lookups') : h('code', { class: 'key-mask' }, maskedKey(k.prefix, k.last4)),
      formatNumber(k.requests)]));
}

/** Renders the usage view into `main`. */
export async function renderUsage(main, ctx) {
  const body = h('div', { class: 'stack' }, h('p', { class: 'loading' }, 'Loading usage…'));
  const refresh = h('button', { type: 'button', class: 'button button-quiet', onclick: () => load(true) }, 'Refresh');
  const header = h('div', { class: 'page-head-row' }, pageHeader('Usage', 'Every API request and every console lookup counts against the same quota.'), refresh);
  replace(main, header, body);

  async function load(announceIt) {
    let usage;
    try {
      usage = await api('GET', '/console/api/usage');
    } catch (err) {
      if (ctx.isCurrent()) replace(body, notice('error', 'Could not load usage: ', err.message));
      return;
    }
    if (!ctx.isCurrent()) return;
    replace(body,
      h('div', { class: 'meters' }, usage.windows.map(windowMeter), aiMeter(usage.ai)),
      h('section', { class: 'card', 'aria-labelledby': 'chart-heading' },
        h('h2', { id: 'chart-heading' }, 'Daily requests'),
        usage.daily.length ? dailyChart(usage.daily) : emptyState('No requests this month yet')),
      h('section', { class: 'card', 'aria-labelledby': 'keys-heading' },
        h('h2', { id: 'keys-heading' }, 'Requests per key'),
        perKeyTable(usage.keys)));
    if (announceIt) {
      const monthly = usage.windows.find((w) => w.window === 'monthly');
      announce(monthly ? `Usage updated: ${formatNumber(monthly.used)} requests this month.` : 'Usage updated.');
    }
  }

  await load(false);
}
