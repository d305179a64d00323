/**
 * The JSON body parser of every route: Fastify's own (prototype-poisoning checks included),
 * plus a refusal of objects that repeat a key. `JSON.parse` keeps the last of two equal
 * keys, so `{"context":{…a name…},"context":{}}` would pass a screen that reads the parsed
 * object while the text still carries the first one. A repeated key is a 422 naming it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { clip, validationError } from '../../platform/errors.ts';

type Done = (err: Error | null, body?: unknown) => void;
type JsonParser = (request: FastifyRequest, body: string, done: Done) => void;

/** The first key that one object of `text` (valid JSON) repeats, or null. */
export function repeatedKey(text: string): string | null {
  // One entry per open container: its keys so far, or null for an array.
  const open: Array<Set<string> | null> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const keys = open.at(-1);
      if (expectKey && keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (keys.has(key)) return key;
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (ch === '{') {
      open.push(new Set());
      expectKey = true;
    } else if (ch === '[') open.push(null);
    else if (ch === '}' || ch === ']') open.pop();
    else if (ch === ',') expectKey = open.at(-1) != null;
  }
  return null;
}

/** Wraps a JSON parser so that a body with a repeated key is refused. */
export function refusingRepeatedKeys(parse: JsonParser): JsonParser {
  return (request, body, done) => parse(request, body, (err, parsed) => {
    if (err) return done(err);
    const key = repeatedKey(body);
    if (key === null) return done(null, parsed);
    const message = `The body repeats the key "${clip(key, 60)}" within one object; send each key once.`;
    return done(validationError(message, [{ location: 'body', field: clip(key, 60), message: 'is repeated' }]));
  });
}

/** Installs the refusing parser for application/json on `app` (and every scope below it). */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = refusingRepeatedKeys(app.getDefaultJsonParser('error', 'error'));
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => parse(request, body as string, done));
  // FHIR clients POST Parameters as application/fhir+json: the same JSON, parsed the same way.
  app.addContentTypeParser('application/fhir+json', { parseAs: 'string' }, (request, body, done) => parse(request, body as string, done));
}
