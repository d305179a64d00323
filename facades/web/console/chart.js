/**
 * The daily-requests bar chart, drawn as inline SVG at the container's real pixel width
 * (so labels stay legible on a phone) and redrawn when the container resizes. Colours
 * come from the stylesheet through classes; the numbers are also offered as a table.
 */
import { formatDate, formatNumber, h, replace } from './dom.js';

const HEIGHT = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 44 };

/** A round axis maximum at or above `max`: 1, 2, 5 × 10^n. */
function niceMax(max) {
  if (max <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= max) return step * magnitude;
  return 10 * magnitude;
}

function dayLabel(date) {
  return String(Number(date.slice(8, 10)));
}

function draw(container, daily, width) {
  const max = niceMax(Math.max(0, ...daily.map((d) => d.requests)));
  const plotW = Math.max(50, width - PAD.left - PAD.right);
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, daily.length);
  const barW = Math.max(2, slot * 0.7);
  const y = (v) => PAD.top + plotH - (v / max) * plotH;
  // Label every day when there is room, otherwise every few days (always the 1st).
  const every = slot >= 22 ? 1 : slot >= 11 ? 2 : 5;
  const grid = [0, max / 2, max].map((v) => h('g', { class: 'grid' },
    h('line', { x1: PAD.left, x2: PAD.left + plotW, y1: y(v), y2: y(v) }),
    h('text', { x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end' }, formatNumber(v))));
  const bars = daily.map((d, i) => {
    const x = PAD.left + i * slot + (slot - barW) / 2;
    const top = y(d.requests);
    return h('g', {},
      h('rect', { class: d.requests ? 'bar' : 'bar bar-zero', x, y: Math.min(top, PAD.top + plotH - 1), width: barW, height: Math.max(1, PAD.top + plotH - top), rx: Math.min(3, barW / 3) },
        h('title', {}, `${formatDate(d.date)}: ${formatNumber(d.requests)} requests`)),
      i % every === 0 ? h('text', { class: 'axis', x: x + barW / 2, y: HEIGHT - 10, 'text-anchor': 'middle' }, dayLabel(d.date)) : null);
  });
  const total = daily.reduce((sum, d) => sum + d.requests, 0);
  const busiest = daily.reduce((best, d) => (d.requests > (best?.requests ?? -1) ? d : best), null);
  const summary = busiest && busiest.requests > 0
    ? `${formatNumber(total)} requests this month; busiest day ${formatDate(busiest.date)} with ${formatNumber(busiest.requests)}.`
    : 'No requests this month yet.';
  replace(container, h('svg', { class: 'chart', width, height: HEIGHT, viewBox: `0 0 ${width} ${HEIGHT}`, role: 'img', 'aria-labelledby': 'chart-title chart-desc' },
    h('title', { id: 'chart-title' }, 'Requests per day this month'),
    h('desc', { id: 'chart-desc' }, summary),
    grid, bars));
}

/** A responsive bar chart of `daily` ({ date, requests }[]) plus its data as a table. */
export function dailyChart(daily) {
  const canvas = h('div', { class: 'chart-canvas' });
  const observer = new ResizeObserver((entries) => {
    const width = Math.floor(entries[0].contentRect.width);
    if (width > 0 && width !== Number(canvas.dataset.width)) {
      canvas.dataset.width = String(width);
      draw(canvas, daily, width);
    }
  });
  observer.observe(canvas);
  const rows = daily.map((d) => h('tr', {}, h('td', {}, formatDate(d.date)), h('td', { class: 'num' }, formatNumber(d.requests))));
  return h('div', { class: 'chart-block' }, canvas,
    h('details', { class: 'chart-data' },
      h('summary', {}, 'Show the numbers'),
      h('table', { class: 'data-table compact' },
        h('caption', { class: 'visually-hidden' }, 'Requests per day this month'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Day'), h('th', { scope: 'col', class: 'num' }, 'Requests'))),
        h('tbody', {}, rows))));
}
