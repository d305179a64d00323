/**
 * The browser side of drugref: the account console at /console, the API reference at
 * /docs (swagger-ui-dist from node_modules, never a CDN) and the landing page at /.
 * The files are hand-written ES modules and CSS shipped in `facades/web/`; they are read
 * once at start and answered from memory with a strong ETag, a strict Content-Security-
 * Policy and the usual hardening headers. / and /console are completed per request with
 * what the server knows (register freshness, the demo-data banner: facades/web/pages.ts).
 * Nothing here needs a key: the console authenticates its own JSON calls under
 * /console/api (facades/console/).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/errors.ts';
import { cachedSourceStatuses } from '../../resolvers/sources/status.ts';
import type { SourceStatus } from '../../resolvers/sources/status.ts';
import { demoBanner, renderLanding, withHeader } from './pages.ts';
import { registerMethodNotAllowed } from '../rest/register.ts';

const HERE = dirname(fileURLToPath(import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * The console and the landing page run no inline script or style and reach only their own
 * origin. `frame-ancestors 'none'` stops clickjacking of the key buttons.
 */
export const STRICT_CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'",
  "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

/**
 * Swagger UI draws its icons as data: SVGs in its stylesheet, so /docs also allows data:
 * images; everything else is the console's policy (no inline script or style, no other
 * origin). Recorded in docs/api-decisions.md ("Console and API reference").
 */
export const DOCS_CSP = STRICT_CSP.replace("img-src 'self'", "img-src 'self' data:");

/** Own files change with the deployment: revalidate each time (cheap with the ETag). */
const REVALIDATE = 'no-cache';
/** Swagger UI's files change only with the package version. */
const VENDOR_CACHE = 'public, max-age=86400';

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
  csp: string;
}

function asset(body: Buffer, file: string, cacheControl: string, csp: string): Asset {
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, type, etag, cacheControl, csp };
}

/** Every file under `dir`, as paths relative to it with forward slashes. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'));
}

/** The Swagger UI files /docs needs, from the installed swagger-ui-dist package. */
const SWAGGER_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png'];

function swaggerDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** The pages completed per request: their templates, with the site header already in place where it is static. */
export interface PageTemplates {
  landing: string;
  header: string;
  /** The console page with its header; the demo banner goes in per request. */
  console: string;
}

/** The console's account area, inside the site header (app.js shows it once signed in). */
const CONSOLE_ACCOUNT = `<div id="account" class="account" hidden>
      <span class="account-name" id="account-name"></span>
      <span class="tier-badge" id="account-tier"></span>
      <button type="button" class="button button-quiet" id="sign-out">Sign out</button>
    </div>`;

/** Reads the page templates and puts the one site header into each. */
export async function loadPageTemplates(): Promise<PageTemplates> {
  const read = (file: string) => readFile(join(HERE, file), 'utf8');
  const header = await read('site-header.html');
  return {
    landing: await read('landing.html'),
    header,
    console: withHeader(await read('console/index.html'), header, 'console', CONSOLE_ACCOUNT),
  };
}

/** URL path → asset, for everything this plugin serves from memory (not / and /console/). */
export async function loadWebAssets(): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  const header = await readFile(join(HERE, 'site-header.html'), 'utf8');
  const consoleDir = join(HERE, 'console');
  for (const file of await listFiles(consoleDir)) {
    if (!TYPES[extname(file)] || file === 'index.html') continue;
    assets.set(`/console/assets/${file}`, asset(await readFile(join(consoleDir, file)), file, REVALIDATE, STRICT_CSP));
  }
  const docsDir = join(HERE, 'docs');
  for (const file of await listFiles(docsDir)) {
    const page = file === 'index.html';
    const body = page ? Buffer.from(withHeader(await readFile(join(docsDir, file), 'utf8'), header, 'docs')) : await readFile(join(docsDir, file));
    assets.set(page ? '/docs' : `/docs/assets/${file}`, asset(body, file, page ? 'no-store' : REVALIDATE, DOCS_CSP));
  }
  const vendor = swaggerDir();
  for (const file of SWAGGER_FILES) {
    assets.set(`/docs/assets/swagger-ui/${file}`, asset(await readFile(join(vendor, file)), file, VENDOR_CACHE, DOCS_CSP));
  }
  return assets;
}

function send(request: FastifyRequest, reply: FastifyReply, found: Asset): FastifyReply {
  reply.headers({
    'content-type': found.type,
    'cache-control': found.cacheControl,
    etag: found.etag,
    'content-security-policy': found.csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  });
  if (request.headers['if-none-match'] === found.etag) return reply.code(304).send();
  return reply.send(found.body);
}

/** What the per-request pages read: the database (through the sources cache), the clock, the public base URL. */
export interface WebOptions {
  db: Queryable;
  now: Clock;
  publicBaseUrl: string | null;
}

/**
 * / and /console/ are rendered on each visit: register freshness and the demo banner
 * change with every ingest. The sources come from the process's cache, so a visit costs
 * no query while the cache is listening.
 */
function dynamicPages(templates: PageTemplates, options: WebOptions) {
  const page = (render: (request: FastifyRequest, sources: SourceStatus[] | null) => string, file: string) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      // The pages still answer while the database is down (the console signs in later, the
      // landing page says what drugref is); only the freshness table says it is unavailable.
      const sources = await cachedSourceStatuses(options.db, options.now()).catch((error: unknown) => {
        request.log.warn({ err: error }, 'register freshness unavailable for the page');
        return null;
      });
      return send(request, reply, asset(Buffer.from(render(request, sources)), file, 'no-store', STRICT_CSP));
    };
  const base = (request: FastifyRequest) => options.publicBaseUrl ?? `${request.protocol}://${request.host}`;
  return {
    landing: page((request, sources) => renderLanding(templates.landing, templates.header, sources, base(request)), 'landing.html'),
    console: page((_request, sources) => templates.console.replace('<!-- demo-banner -->', demoBanner(sources ?? [])), 'index.html'),
  };
}

/** Registers /, /console, /console/assets/*, /docs and /docs/assets/*. */
export async function registerWeb(app: FastifyInstance, options: WebOptions): Promise<void> {
  const assets = await loadWebAssets();
  const pages = dynamicPages(await loadPageTemplates(), options);
  const serve = (key: (request: FastifyRequest) => string) => (request: FastifyRequest, reply: FastifyReply) => {
    const found = assets.get(key(request));
    if (!found) throw new ApiError('not_found', 'No such file.');
    return send(request, reply, found);
  };
  const wildcard = (prefix: string) => (request: FastifyRequest) => prefix + (request.params as { '*': string })['*'];
  app.get('/', pages.landing);
  // The console is one page; its views live in the fragment (#keys, #usage, #lookups).
  app.get('/console', pages.console);
  app.get('/console/', pages.console);
  app.get('/console/assets/*', serve(wildcard('/console/assets/')));
  app.get('/docs', serve(() => '/docs'));
  app.get('/docs/', serve(() => '/docs'));
  app.get('/docs/assets/*', serve(wildcard('/docs/assets/')));
  registerMethodNotAllowed(app, ['/', '/console', '/console/', '/docs', '/docs/'].map((path) => ({ method: 'GET', path })));
}
