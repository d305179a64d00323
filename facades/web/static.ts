/**
 * The browser side of drugref: the account console at /console, the API reference at
 * /docs (swagger-ui-dist from node_modules, never a CDN) and a small landing page at /.
 * The files are hand-written ES modules and CSS shipped in `facades/web/`; they are read
 * once at start and answered from memory with a strong ETag, a strict Content-Security-
 * Policy and the usual hardening headers. Nothing here needs a key: the console
 * authenticates its own JSON calls under /console/api (facades/console/).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../platform/errors.ts';
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

/** URL path → asset, for everything this plugin serves. */
export async function loadWebAssets(): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  const consoleDir = join(HERE, 'console');
  for (const file of await listFiles(consoleDir)) {
    if (!TYPES[extname(file)]) continue;
    const body = await readFile(join(consoleDir, file));
    const cache = file.endsWith('.html') ? 'no-store' : REVALIDATE;
    assets.set(file === 'index.html' ? '/console/' : `/console/assets/${file}`, asset(body, file, cache, STRICT_CSP));
  }
  const docsDir = join(HERE, 'docs');
  for (const file of await listFiles(docsDir)) {
    const body = await readFile(join(docsDir, file));
    assets.set(file === 'index.html' ? '/docs' : `/docs/assets/${file}`, asset(body, file, file.endsWith('.html') ? 'no-store' : REVALIDATE, DOCS_CSP));
  }
  const vendor = swaggerDir();
  for (const file of SWAGGER_FILES) {
    assets.set(`/docs/assets/swagger-ui/${file}`, asset(await readFile(join(vendor, file)), file, VENDOR_CACHE, DOCS_CSP));
  }
  const landing = await readFile(join(HERE, 'landing.html'));
  assets.set('/', asset(landing, 'landing.html', 'no-store', STRICT_CSP));
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

/** Registers /, /console, /console/assets/*, /docs and /docs/assets/*. */
export async function registerWeb(app: FastifyInstance): Promise<void> {
  const assets = await loadWebAssets();
  const serve = (key: (request: FastifyRequest) => string) => (request: FastifyRequest, reply: FastifyReply) => {
    const found = assets.get(key(request));
    if (!found) throw new ApiError('not_found', 'No such file.');
    return send(request, reply, found);
  };
  const wildcard = (prefix: string) => (request: FastifyRequest) => prefix + (request.params as { '*': string })['*'];
  app.get('/', serve(() => '/'));
  // The console is one page; its views live in the fragment (#keys, #usage, #lookups).
  app.get('/console', serve(() => '/console/'));
  app.get('/console/', serve(() => '/console/'));
  app.get('/console/assets/*', serve(wildcard('/console/assets/')));
  app.get('/docs', serve(() => '/docs'));
  app.get('/docs/', serve(() => '/docs'));
  app.get('/docs/assets/*', serve(wildcard('/docs/assets/')));
  registerMethodNotAllowed(app, ['/', '/console', '/console/', '/docs', '/docs/'].map((path) => ({ method: 'GET', path })));
}
