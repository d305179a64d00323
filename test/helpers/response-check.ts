/**
 * Every answer a test app gives is checked against the OpenAPI document
 * (test/helpers/openapi-validator.ts). An answer to `app.inject` that drifts fails that
 * call; one sent over a socket fails when the app closes, since no call is there to fail.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { documentCheck } from './openapi-validator.ts';
import type { Answer } from './openapi-validator.ts';

export class OpenApiViolation extends Error {
  override name = 'OpenApiViolation';
}

export interface AnswerCheck {
  /** Throws for answers sent over a socket that drifted from the document. */
  assertNonePending(): void;
}

function bodyText(payload: unknown): string | null {
  if (payload === null || payload === undefined) return '';
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return null; // a stream: its status and media type are checked, its body is not
}

/** Adds the check to `app`; call before `app.ready()`. */
export function checkAnswers(app: FastifyInstance): AnswerCheck {
  const found = new Map<ServerResponse, string>();
  app.addHook('onSend', async (request, reply, payload) => {
    // A client that went away reads no answer: what the server would have said is not checked.
    if (request.raw.socket?.destroyed) return payload;
    const body = bodyText(payload);
    const answer: Answer = { method: request.method, url: request.url, status: reply.statusCode, contentType: reply.getHeader('content-type') as string | undefined, body };
    const check = documentCheck();
    const problems = check.check(answer);
    if (problems.length) {
      found.set(reply.raw, `${check.describe(answer)} drifts from the OpenAPI document:\n  - ${problems.join('\n  - ')}\n  body: ${(answer.body ?? '(a stream)').slice(0, 400)}`);
    }
    return payload;
  });
  const inject = app.inject.bind(app) as (...args: unknown[]) => unknown;
  app.inject = ((...args: unknown[]) => {
    // Only the promise form (one argument) is wrapped; the callback and chain forms are not used by the suite.
    if (args.length !== 1) return inject(...args);
    return (inject(args[0]) as Promise<{ raw: { res: ServerResponse } }>).then((response) => {
      const problem = found.get(response.raw.res);
      if (problem === undefined) return response;
      found.delete(response.raw.res);
      throw new OpenApiViolation(problem);
    });
  }) as FastifyInstance['inject'];
  return {
    assertNonePending() {
      if (!found.size) return;
      const problems = [...found.values()];
      found.clear();
      throw new OpenApiViolation(problems.join('\n'));
    },
  };
}
