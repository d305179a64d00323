import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { seedAtcBranch } from '../helpers/seed.ts';

describe('POST /v1/graphql with graphql-request over a real socket', () => {
  let t: TestApp;
  let client: GraphQLClient;
  let endpoint: string;

  beforeAll(async () => {
    t = await startTestApp();
    await seedAtcBranch(t.db);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    endpoint = `${address}/v1/graphql`;
    client = new GraphQLClient(endpoint, { headers: { authorization: `Bearer ${await t.key({ tier: 'starter' })}` } });
  });
  afterAll(() => t.close());

  it('runs a query with variables and gets typed data back', async () => {
    const query = gql`
      query Atc($code: String!) {
        atc(code: $code) { code name level parent { code name } ddd { value unit route } }
      }
    `;
    const data = await client.request<{ atc: unknown }>(query, { code: 'N02BE01' });
    expect(data).toEqual({
      atc: {
        code: 'N02BE01', name: 'paracetamol', level: 5, parent: { code: 'N02BE', name: 'Anilides' },
        ddd: [{ value: 3, unit: 'g', route: 'O' }, { value: 3, unit: 'g', route: 'R' }],
      },
    });
  });

  it('surfaces a refusal as a ClientError carrying status 400 and extensions.code', async () => {
    const error = await client.request('{ __schema { types { name } } }').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    const { response } = error as ClientError;
    expect(response.status).toBe(400);
    expect(response.errors?.[0]?.extensions).toEqual({ code: 'graphql_rejected', reason: 'introspection' });
  });

  it('surfaces a missing key as a 401', async () => {
    const anonymous = new GraphQLClient(endpoint);
    const error = await anonymous.request('{ atc(code: "N02") { code } }').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).response.status).toBe(401);
  });
});
