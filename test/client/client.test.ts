import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { createDrugrefClient } from 'drugref/client';
import { clientSchemaText } from '../../client/schema-source.ts';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

// The package's typed client (`drugref/client`) against a server listening on a real socket.
describe('drugref/client', () => {
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;

  beforeAll(async () => {
    t = await startTestApp();
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    apiKey = await t.key({ tier: 'pro' });
  });
  afterAll(() => t.close());

  it('calls a route with the key and gets its typed answer', async () => {
    const api = createDrugrefClient({ baseUrl: `${baseUrl}/`, apiKey });
    const { data, error, response } = await api.GET('/v1/usage');
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.tier).toBe('pro');
  });

  it('fills typed path parameters into the URL, and refuses paths the API does not have', async () => {
    const api = createDrugrefClient({ baseUrl, apiKey });
    const { response } = await api.GET('/v1/atc/{code}', { params: { path: { code: 'N02BE01' } } });
    expect(new URL(response.url).pathname).toBe('/v1/atc/N02BE01');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    // @ts-expect-error: not a path of the API, so the client's types refuse it (checked by tsc).
    await api.GET('/v1/no-such-route').catch(() => undefined);
  });

  it('returns the error body, typed, for a refused key', async () => {
    const api = createDrugrefClient({ baseUrl, apiKey: 'svc_live_wrong' });
    const { data, error, response } = await api.GET('/v1/usage');
    expect(data).toBeUndefined();
    expect(response.status).toBe(401);
    expect(error?.error).toBe('unauthorized');
  });

  it('ships types generated from the OpenAPI document the service serves today', async () => {
    const committed = await readFile(new URL('../../client/schema.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await clientSchemaText());
  });
});
