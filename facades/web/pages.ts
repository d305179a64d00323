/**
 * The pages drugref renders on the server: the shared header of /, /docs and /console, the
 * demo-data banner, and the landing page's plan table and register freshness table. All
 * values come from the server's own state (tier table, sources cache, public base URL), so
 * the page never needs a key, a script or another origin to say what it says.
 */
import type { SourceStatus } from '../../resolvers/sources/status.ts';
import { TIER_LIMITS, TIERS } from '../../resolvers/accounts/tiers.ts';

/** Which header link is the current page. */
export type SitePage = 'home' | 'docs' | 'console';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text → HTML text or attribute value. Source names come from register files: never trusted. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * Puts the one site header into a page at `<!-- site-header -->`, marking `current`, with
 * `extra` (the console's account area) inside it.
 */
export function withHeader(page: string, header: string, current: SitePage, extra = ''): string {
  const marked = header
    .replace(`data-site="${current}"`, `data-site="${current}" aria-current="page"`)
    .replace('<!-- header-extra -->', extra);
  return page.replace('<!-- site-header -->', marked);
}

/**
 * The banner shown on every page while any source is the bundled demo catalogue: its
 * records are invented, and a developer deciding on drugref must not mistake them for a register.
 */
export function demoBanner(sources: readonly SourceStatus[]): string {
  if (!sources.some((s) => s.demo)) return '';
  return '<section class="demo-banner" aria-label="Demo data"><p><strong>Demo data.</strong> '
    + 'This server answers from the bundled demonstration catalogue: invented products and prices, not for clinical use. '
    + 'Load real registers with <code>npx drugref sync</code> or <code>npx drugref ingest</code>.</p></section>';
}

const STATE_LABELS: Record<SourceStatus['schemaState'], [string, string]> = {
  ok: ['Current', 'pill pill-ok'],
  stale: ['Stale', 'pill pill-warn'],
  never_run: ['Not fetched yet', 'pill pill-muted'],
};

/** `2026-11-26 00:12 UTC`: one unambiguous form whatever the reader's locale. */
function utcMinute(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The register freshness table of the landing page: a sentence when there is no source,
 * another when the sources could not be read (null).
 */
export function sourcesTable(sources: readonly SourceStatus[] | null): string {
  if (!sources) return '<p class="notice notice-warning">Register freshness cannot be read right now; every API answer still carries it in <code>_meta.sources</code>.</p>';
  if (!sources.length) return '<p class="empty">No register is loaded yet: run <code>npx drugref sync</code> or <code>npx drugref ingest</code>.</p>';
  const rows = sources.map((s) => {
    const [label, cls] = STATE_LABELS[s.schemaState];
    const demo = s.demo ? ' <span class="pill pill-warn">Demo</span>' : '';
    const confirmed = s.lastSyncedAt ? `<time datetime="${s.lastSyncedAt.toISOString()}">${utcMinute(s.lastSyncedAt)}</time>` : '—';
    return `<tr><td data-label="Register">${escapeHtml(s.name)}${demo}</td><td data-label="Country">${escapeHtml(s.country ?? 'all')}</td>`
      + `<td data-label="Last confirmed">${confirmed}</td><td data-label="State"><span class="${cls}">${label}</span></td></tr>`;
  });
  return '<div class="table-wrap"><table class="data-table sources-table"><caption class="visually-hidden">Registers and their freshness</caption>'
    + '<thead><tr><th scope="col">Register</th><th scope="col">Country</th><th scope="col">Last confirmed</th><th scope="col">State</th></tr></thead>'
    + `<tbody>${rows.join('')}</tbody></table></div>`;
}

function limit(value: number | null): string {
  return value === null ? '—' : value.toLocaleString('en-GB');
}

/** The plans and their quotas, from the tier table the quota check itself uses. */
export function tiersTable(): string {
  const rows = TIERS.map((tier) => {
    const t = TIER_LIMITS[tier];
    return `<tr><td data-label="Plan"><strong>${t.plan}</strong> <code>${tier}</code></td><td class="num" data-label="A month">${limit(t.monthly)}</td>`
      + `<td class="num" data-label="A day">${limit(t.daily)}</td><td class="num" data-label="Keys">${t.maxKeys}</td></tr>`;
  });
  return '<div class="table-wrap"><table class="data-table tiers-table"><caption class="visually-hidden">Plans and quotas</caption>'
    + '<thead><tr><th scope="col">Plan (tier)</th><th scope="col" class="num">Requests a month</th><th scope="col" class="num">Requests a day</th><th scope="col" class="num">Active keys</th></tr></thead>'
    + `<tbody>${rows.join('')}</tbody></table></div>`;
}

/** The landing page for this server: header, banner, plans, its base URL in the curl lines, freshness. */
export function renderLanding(template: string, header: string, sources: readonly SourceStatus[] | null, base: string): string {
  return withHeader(template, header, 'home')
    .replace('<!-- demo-banner -->', demoBanner(sources ?? []))
    .replace('<!-- tiers -->', tiersTable())
    .replace('<!-- sources -->', sourcesTable(sources))
    .replaceAll('{{base}}', escapeHtml(base));
}
