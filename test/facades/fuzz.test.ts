/**
 * Property-based fuzzing of every operation in the route table (REST routes, the public
 * GraphQL and MCP endpoints, the OpenAPI document): so a new route is fuzzed without a
 * line here. Each request is valid from the schemas and then mutated (fuzz-requests.ts).
 *
 * Asserted: no 500 (a 5xx must be a deliberate, documented answer: 502 upstream_error /
 * bad_gateway or 503 unavailable); every error body JSON with `error` first; and, over the
 * whole run, no API key and no value sent under an identifying field in the logs.
 *
 * Replay: the seed is printed; `FUZZ_SEED=<n> npx vitest run test/facades/fuzz.test.ts`.
 * Budget: FUZZ_TIME_MS (default 20 s on PGlite). On PostgreSQL a 6 s share runs: the code
 * under test is the same on both backends and the backend-specific failures (NUL, integer
 * overflow) are refused before SQL and have their own tests on both (hardening.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { testBackend } from '../helpers/db.ts';
import { fuzzRequests, PHI_MARKER } from '../helpers/fuzz-requests.ts';
import type { FuzzCase } from '../helpers/fuzz-requests.ts';
import { ROUTES } from '../../facades/routes/index.ts';
import { GRAPHQL_OPERATIONS } from '../../facades/graphql/route.ts';
import { MCP_OPERATIONS } from '../../facades/mcp/route.ts';
import { OPENAPI_OPERATION } from '../../facades/rest/openapi.ts';
import type { OperationDoc } from '../../facades/routes/types.ts';
import type { Config } from '../../platform/config.ts';
import { testConfig } from '../../platform/config.ts';

const OPERATIONS: OperationDoc[] = [...ROUTES, ...GRAPHQL_OPERATIONS, ...MCP_OPERATIONS, OPENAPI_OPERATION];
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
/** Largest error body any request may earn: 20 details, a bounded message, a few context fields. */
const MAX_ERROR_BODY = 16_000;
/** Deliberate 5xx answers of the contract (a switched-off source or vault, a failed upstream). */
const DELIBERATE_5XX = new Set(['unavailable', 'upstream_error', 'bad_gateway']);

/** Every upstream source switched off: a fuzzed request must never reach the internet. */
function offlineUpstream(): Config['upstream'] {
  const upstream = testConfig().upstream;
  const sources = Object.fromEntries(Object.entries(upstream.sources).map(([id, s]) => [id, { ...s, enabled: false }]));
  return { ...upstream, sources: sources as Config['upstream']['sources'] };
}

/** The contract every answer keeps; returns a reason when broken. */
function contractBroken(res: LightMyRequestResponse, method: string): string | null {
  // HEAD answers carry no body: only the status can be judged.
  if (method === 'HEAD') return res.statusCode === 500 ? 'HEAD answered 500' : null;
  // Under /fhir an error is an OperationOutcome carrying the error table's code.
  const fhir = /^\/fhir(\/|\?|$)/.test(res.raw.req.url ?? '');
  if (res.statusCode >= 500) {
    const code = fhir ? outcomeCode(safeJson(res.body)) : safeJson(res.body)?.error;
    if (res.statusCode === 500 || !DELIBERATE_5XX.has(String(code))) return `${res.statusCode} ${res.body.slice(0, 300)}`;
  }
  if (res.statusCode < 400) return null;
  if (fhir) {
    if (!/^application\/fhir\+json/.test(String(res.headers['content-type']))) return `FHIR error with content-type ${res.headers['content-type']}: ${res.body.slice(0, 200)}`;
    return outcomeCode(safeJson(res.body)) ? null : `FHIR error without an OperationOutcome carrying its code: ${res.body.slice(0, 200)}`;
  }
  if (!/^application\/json/.test(String(res.headers['content-type']))) return `error with content-type ${res.headers['content-type']}: ${res.body.slice(0, 200)}`;
  const body = safeJson(res.body);
  if (!body || Object.keys(body)[0] !== 'error' || !isErrorValue(body.error)) return `error body without error first: ${res.body.slice(0, 200)}`;
  // Error bodies are bounded whatever the input: never an echo of a large request.
  if (res.body.length > MAX_ERROR_BODY) return `error body of ${res.body.length} bytes`;
  if (!res.headers['access-control-allow-origin']) return 'error without CORS headers';
  return null;
}

/** The error table's code an OperationOutcome carries; undefined when the body is none. */
function outcomeCode(body: Record<string, unknown> | null): string | undefined {
  if (body?.resourceType !== 'OperationOutcome') return undefined;
  const issue = (body.issue as Array<{ details?: { coding?: Array<{ code?: unknown }> } }> | undefined)?.[0];
  const code = issue?.details?.coding?.[0]?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A spec error string, or on the MCP endpoint a JSON-RPC error object (numeric code). */
function isErrorValue(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number');
}

function safeJson(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

describe('fuzzing every route of the route table', () => {
  let t: TestApp;
  let key: string;
  const backend = testBackend();
  const budgetMs = Number(process.env.FUZZ_TIME_MS ?? (backend === 'pglite' ? 20_000 : 6_000));
  const tally = { tried: 0, server5xx: 0, deliberate5xx: 0, byStatus: new Map<number, number>() };

  beforeAll(async () => {
    t = await startTestApp({ config: { upstream: offlineUpstream() } });
    key = await t.key();
    // Printed so any failure replays: FUZZ_SEED=<seed>.
    console.log(`fuzz: FUZZ_SEED=${SEED} backend=${backend} budget=${budgetMs} ms operations=${OPERATIONS.length}`);
  });
  afterAll(async () => {
    const statuses = [...tally.byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`).join(' ');
    console.log(`fuzz: FUZZ_SEED=${SEED} tried=${tally.tried} 500s=${tally.server5xx} deliberate5xx=${tally.deliberate5xx} statuses ${statuses}`);
    await t?.close();
  });

  /**
   * fc.assert within a time share, except that a share too short for even one case (a loaded
   * machine, the first request of a route) still runs one case instead of failing on the clock.
   */
  async function assertWithinBudget(property: fc.IAsyncProperty<[FuzzCase]>, options: fc.Parameters<[FuzzCase]> & { seed: number }): Promise<void> {
    const details = await fc.check(property, options);
    if (details.interrupted && details.numRuns === 0) return fc.assert(property, { seed: options.seed, numRuns: 1 });
    if (details.failed) throw new Error(await fc.asyncDefaultReportMessage(details));
  }

  it('answers every mutated request without a 500 and with JSON errors, error first', async () => {
    const perOperation = budgetMs / OPERATIONS.length;
    for (const [i, op] of OPERATIONS.entries()) {
      await assertWithinBudget(
        fc.asyncProperty(fuzzRequests(op, key, t.config.bodyLimitBytes), async ({ mutation, request }: FuzzCase) => {
          const res = await t.app.inject(request);
          tally.tried++;
          tally.byStatus.set(res.statusCode, (tally.byStatus.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode === 500) tally.server5xx++;
          else if (res.statusCode > 500) tally.deliberate5xx++;
          const broken = contractBroken(res, String(request.method));
          if (broken) throw new Error(`${op.method} ${op.path} [${mutation}] ${String(request.method)} ${request.url as string}: ${broken}`);
        }),
        // One seed per operation derived from the run's seed, so a failing operation replays alone.
        { seed: SEED + i, numRuns: 100_000, interruptAfterTimeLimit: perOperation, markInterruptAsFailure: false, endOnFailure: true },
      );
    }
    expect(tally.tried).toBeGreaterThan(OPERATIONS.length);
  }, 120_000);

  it('never logged the API key or a value sent under an identifying field', () => {
    const text = t.logs.join('');
    expect(t.logs.length).toBeGreaterThan(0);
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(9));
    expect(text).not.toContain(PHI_MARKER);
  });
});
