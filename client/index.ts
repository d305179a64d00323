/**
 * `drugref/client`: a typed HTTP client of the drugref API. The paths, parameters and
 * answers are TypeScript types generated from the service's OpenAPI document
 * (client/schema.ts, by client/generate.ts); openapi-fetch turns them into checked calls:
 *
 *   const api = createDrugrefClient({ baseUrl: 'http://localhost:3000', apiKey });
 *   const { data, error } = await api.GET('/v1/atc/{code}', { params: { path: { code: 'N02' } } });
 */
import createClient from 'openapi-fetch';
import type { Client } from 'openapi-fetch';
import type { paths } from './schema.ts';

export type { components, operations, paths } from './schema.ts';

/** Where the service is and which key to send. */
export interface DrugrefClientOptions {
  /** The service's origin, e.g. `http://localhost:3000` (a trailing slash is dropped). */
  baseUrl: string;
  /** An API key (`svc_live_…` / `svc_test_…`), sent as `Authorization: Bearer`. */
  apiKey: string;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof globalThis.fetch;
}

/** A client whose methods (`GET`, `POST`, …) accept only the API's paths and fields. */
export function createDrugrefClient(options: DrugrefClientOptions): Client<paths> {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
