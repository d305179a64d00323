/**
 * The browser files over HTTP: /, /console, /console/assets/*, /docs and /docs/assets/*
 * answer with the right types, caching, ETags and security headers, and the shipped
 * files keep the console's XSS and storage stance (checked on the source, since a
 * browser test only sees the paths it walks).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { DOCS_CSP, STRICT_CSP, loadPageTemplates } from '../../facades/web/static.ts';
import { renderLanding } from '../../facades/web/pages.ts';

let t: TestApp;
const WEB = join(import.meta.dirname, '../../facades/web');

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

function expectHardened(headers: Record<string, unknown>, csp: string): void {
  expect(headers['content-security-policy']).toBe(csp);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-frame-options']).toBe('DENY');
}

describe('console pages', () => {
  it('serves the console shell at /console and /console/ with a strict CSP and no caching', async () => {
    for (const url of ['/console', '/console/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expectHardened(res.headers, STRICT_CSP);
      expect(res.body).toContain('<script type="module" src="/console/assets/app.js"></script>');
    }
    expect(STRICT_CSP).toContain("default-src 'self'");
    expect(STRICT_CSP).toContain("frame-ancestors 'none'");
    expect(STRICT_CSP).not.toContain('unsafe');
  });

  it('serves modules and styles with their types, a strong ETag and revalidation; a matching if-none-match is 304', async () => {
    const js = await t.app.inject({ method: 'GET', url: '/console/assets/app.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('no-cache');
    expect(js.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(js.body).toBe(await readFile(join(WEB, 'console/app.js'), 'utf8'));
    const again = await t.app.inject({ method: 'GET', url: '/console/assets/app.js', headers: { 'if-none-match': js.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const css = await t.app.inject({ method: 'GET', url: '/console/assets/console.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const svg = await t.app.inject({ method: 'GET', url: '/console/assets/icon.svg' });
    expect(svg.headers['content-type']).toBe('image/svg+xml');
  });

  it('answers only files it ships: unknown names and path tricks are 404 JSON', async () => {
    for (const url of ['/console/assets/nope.js', '/console/assets/../static.ts', '/console/assets/%2e%2e/static.ts', '/console/assets/', '/docs/assets/swagger-ui/index.html']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
  });

  it('refuses other verbs with 405 and allow', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/console', payload: {} });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.json().error).toBe('method_not_allowed');
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/console/assets/console.css' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.body).toBe('');
  });
});

describe('landing and API reference', () => {
  it('serves a landing page at / that links to /docs and /console/', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expectHardened(res.headers, STRICT_CSP);
    expect(res.body).toContain('href="/docs"');
    expect(res.body).toContain('href="/console/"');
  });

  it('tells a developer what drugref is, how to get a key, a first request and the plans from the tier table', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.body).toContain('npx drugref keys create --tier developer --account &lt;your-account&gt;');
    // The curl lines carry this server's public base URL (the test app's default).
    expect(res.body).toMatch(/curl -H "Authorization: Bearer \$KEY" "https?:\/\/[^"]+\/v1\/drugs\?q=ibuprofen/);
    expect(res.body).not.toContain('{{base}}');
    const free = /<tr><td data-label="Plan"><strong>Free<\/strong> <code>developer<\/code><\/td><td[^>]*>(\d+)<\/td><td[^>]*>(\d+)<\/td><td[^>]*>(\d+)<\/td><\/tr>/.exec(res.body);
    expect(free?.slice(1)).toEqual(['10', '10', '2']);
    expect(res.body).toContain('<strong>Enterprise</strong>');
  });

  it('lists each register with its freshness, escaped, and shows the demo banner only while demo data is loaded', async () => {
    const page = async (url: string) => (await t.app.inject({ method: 'GET', url })).body;
    const empty = await page('/');
    expect(empty).toContain('No register is loaded yet');
    expect(empty).not.toContain('class="demo-banner"');
    expect(await page('/console/')).not.toContain('class="demo-banner"');

    const synced = new Date(Date.now() - 3_600_000);
    await t.db.query(`INSERT INTO sources (id, name, country, refresh_interval_hours, demo, last_synced_at) VALUES
      ('x-fresh', 'Register <b>&amp; "Co"</b>', 'CH', 24, false, $1), ('x-old', 'Old register', 'DE', 0, false, $1), ('x-never', 'Never run', NULL, 24, false, NULL)`, [synced]);
    // The sources cache drops its rows on the NOTIFY the insert sends.
    await expect.poll(() => page('/')).toContain('Old register');
    const listed = await page('/');
    expect(listed).toContain('Register &lt;b&gt;&amp;amp; &quot;Co&quot;&lt;/b&gt;');
    expect(listed).not.toContain('<b>');
    const row = (name: string) => new RegExp(`<tr><td data-label="Register">${name}</td>.*?</tr>`).exec(listed)?.[0] ?? '';
    expect(row('Old register')).toContain('>Stale<');
    expect(row('Old register')).toContain(`${synced.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    expect(row('Never run')).toContain('>Not fetched yet<');
    expect(row('Never run')).toContain('<td data-label="Country">all</td>');
    expect(listed).toMatch(/Register &lt;b&gt;.*?>Current</);
    expect(listed).not.toContain('class="demo-banner"');

    await t.db.query(`INSERT INTO sources (id, name, country, refresh_interval_hours, demo, last_synced_at) VALUES ('x-demo', 'Demo register', 'CH', 24, true, $1)`, [synced]);
    await expect.poll(() => page('/')).toContain('class="demo-banner"');
    expect(await page('/console/')).toContain('class="demo-banner"');
    expect(await page('/')).toMatch(/Demo register <span class="pill pill-warn">Demo<\/span>/);
    await t.db.query("DELETE FROM sources WHERE id LIKE 'x-%'");
  });

  it('still renders the landing page when the sources cannot be read, saying so in place of the table', async () => {
    const { landing, header } = await loadPageTemplates();
    const page = renderLanding(landing, header, null, 'https://drugref.example');
    expect(page).toContain('Register freshness cannot be read right now');
    expect(page).not.toContain('class="demo-banner"');
    expect(page).toContain('"https://drugref.example/v1/atc/M01AE01"');
    expect(page).not.toMatch(/<!-- (site-header|demo-banner|tiers|sources) -->/);
  });

  it('puts the one site header on /, /docs and /console, marking the current page', async () => {
    const headerOf = async (url: string) => /<header class="site-header">[\s\S]*?<\/header>/.exec((await t.app.inject({ method: 'GET', url })).body)?.[0] ?? '';
    const [home, docs, consolePage] = await Promise.all([headerOf('/'), headerOf('/docs'), headerOf('/console/')]);
    const links = (header: string) => [...header.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1]);
    for (const header of [home, docs, consolePage]) expect(links(header)).toEqual(['/', '/', '/docs', '/console/']);
    expect(home).toContain('data-site="home" aria-current="page"');
    expect(docs).toContain('data-site="docs" aria-current="page"');
    expect(consolePage).toContain('data-site="console" aria-current="page"');
    expect(consolePage).toContain('id="sign-out"');
    expect(home).not.toContain('id="sign-out"');
  });

  it('serves /docs with Swagger UI from the installed package and its own init script', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expectHardened(page.headers, DOCS_CSP);
    expect(DOCS_CSP).toContain("script-src 'self';");
    expect(DOCS_CSP).toContain("img-src 'self' data:;");
    expect(DOCS_CSP).not.toContain('unsafe');
    expect(page.body).toContain('src="/docs/assets/swagger-ui/swagger-ui-bundle.js"');
    expect(page.body).toContain('src="/docs/assets/docs-init.js"');
    const bundle = await t.app.inject({ method: 'GET', url: '/docs/assets/swagger-ui/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(bundle.headers['cache-control']).toBe('public, max-age=86400');
    const installed = await readFile(join(import.meta.dirname, '../../node_modules/swagger-ui-dist/swagger-ui-bundle.js'));
    expect(bundle.rawPayload.equals(installed)).toBe(true);
    const init = await t.app.inject({ method: 'GET', url: '/docs/assets/docs-init.js' });
    expect(init.body).toContain("url: '/v1/openapi.json'");
    expect(init.body).toContain('persistAuthorization: false');
    expect(init.body).toContain('validatorUrl: null');
  });
});

describe('the shipped files keep the XSS and storage stance', () => {
  async function files(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  }

  it('no HTML file has an inline script, inline handler, style attribute or third-party URL', async () => {
    const html = (await files(WEB)).filter((f) => f.endsWith('.html'));
    expect(html.length).toBe(4);
    for (const file of html) {
      const text = await readFile(file, 'utf8');
      const scripts = [...text.matchAll(/<script\b([^>]*)>([^<]*)<\/script>/g)];
      expect(scripts.length, file).toBe((text.match(/<script\b/g) ?? []).length);
      for (const [, tag, body] of scripts) {
        expect(tag, file).toMatch(/\ssrc="\/[^/]/);
        expect(body!.trim(), file).toBe('');
      }
      expect(text, file).not.toMatch(/\son[a-z]+=/i);
      expect(text, file).not.toMatch(/\sstyle=/i);
      expect(text, file).not.toMatch(/(src|href)="(https?:)?\/\//);
    }
  });

  it('no console module writes markup or touches browser storage or cookies', async () => {
    const js = (await files(join(WEB, 'console'))).filter((f) => f.endsWith('.js'));
    expect(js.length).toBeGreaterThan(8);
    for (const file of js) {
      const raw = await readFile(file, 'utf8');
      // Comments may name what the code avoids; only code counts.
      const text = raw.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/\s.*$/gm, '');
      expect(text, file).not.toMatch(/\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|\beval\(|new Function/);
      expect(text, file).not.toMatch(/localStorage|sessionStorage|document\.cookie|indexedDB/);
      // The SVG namespace is a name, not a request.
      expect(text.replaceAll("'http://www.w3.org/2000/svg'", ''), file).not.toMatch(/https?:\/\//);
    }
  });
});
