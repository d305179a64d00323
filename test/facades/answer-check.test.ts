/**
 * The answer check every test app carries (test/helpers/response-check.ts): a real answer
 * passes, and the same answer with one field broken, an unknown field, an undocumented
 * status or media type fails, through `app.inject` and over a socket.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { documentCheck } from '../helpers/openapi-validator.ts';
import type { Answer } from '../helpers/openapi-validator.ts';
import { checkAnswers, OpenApiViolation } from '../helpers/response-check.ts';
import { seedAtcBranch } from '../helpers/seed.ts';

describe('the answer check of the test app', () => {
  let t: TestApp;
  let key: string;
  let node: Answer;

  beforeAll(async () => {
    t = await startTestApp();
    await seedAtcBranch(t.db);
    key = await t.key();
    const res = await t.app.inject({ url: '/v1/atc/N02BE', headers: bearer(key) });
    node = { method: 'GET', url: '/v1/atc/N02BE', status: res.statusCode, contentType: res.headers['content-type'] as string, body: res.body };
  });
  afterAll(() => t.close());

  const edited = (edit: (body: Record<string, unknown>) => void): Answer => {
    const body = JSON.parse(node.body!) as Record<string, unknown>;
    edit(body);
    return { ...node, body: JSON.stringify(body) };
  };

  it('passes a real answer', () => {
    expect(node.status).toBe(200);
    expect(documentCheck().check(node)).toEqual([]);
  });

  it('fails an answer with one field of the wrong type, missing, or unknown', () => {
    expect(documentCheck().check(edited((b) => { b.level = String(b.level); }))).toEqual([expect.stringMatching(/^\/level must be integer/)]);
    expect(documentCheck().check(edited((b) => { delete b.name; }))).toEqual([expect.stringMatching(/must have required property 'name'/)]);
    expect(documentCheck().check(edited((b) => { b.nmae = b.name; }))).toEqual([expect.stringMatching(/must NOT have additional properties \(nmae\)/)]);
  });

  it('fails an undocumented status or media type, and leaves pages and unknown paths alone', () => {
    expect(documentCheck().check({ ...node, status: 418 })).toEqual([expect.stringMatching(/^status 418 is not documented/)]);
    expect(documentCheck().check({ ...node, contentType: 'text/html' })).toEqual([expect.stringMatching(/^media type text\/html is not documented for 200/)]);
    expect(documentCheck().check({ ...node, url: '/console/', status: 418 })).toEqual([]);
    expect(documentCheck().check({ ...node, url: '/v1/no-such-thing', status: 404 })).toEqual([]);
  });

  it('makes app.inject throw for an answer that drifts, and close() for one sent over a socket', async () => {
    // A bare app answering the ATC node's path with one field renamed: the hook sees what any server would send.
    const app = Fastify();
    const answers = checkAnswers(app);
    app.get('/v1/atc/:code', async (_request, reply) => reply.type('application/json').send(node.body!.replace('"name"', '"nmae"')));
    await app.ready();
    const drift = app.inject({ url: '/v1/atc/N02BE' });
    await expect(drift).rejects.toThrow(OpenApiViolation);
    await expect(app.inject({ url: '/v1/atc/N02BE' })).rejects.toThrow(/GET \/v1\/atc\/\{code\} → 200 drifts from the OpenAPI document:\n  - \(body\) must have required property 'name'/);
    answers.assertNonePending();
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    expect((await fetch(`${address}/v1/atc/N02BE`)).status).toBe(200);
    await app.close();
    expect(() => answers.assertNonePending()).toThrow(/nmae/);
    expect(() => answers.assertNonePending()).not.toThrow();
  });
});
