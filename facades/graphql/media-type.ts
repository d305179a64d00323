/**
 * The media type of a public GraphQL answer, negotiated from the request's Accept header
 * (GraphQL over HTTP): `application/graphql-response+json` when the client asks for it
 * before `application/json`, `application/json` otherwise — also when Accept is missing or
 * names neither, as the endpoint answered before the newer type existed.
 */
import Negotiator from 'negotiator';
import { LRUCache } from 'lru-cache';

export const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json';
export const JSON_TYPE = 'application/json';

/** application/json first: a tie (`*` / `*`, `application/*`) goes to it. */
const OFFERED = [JSON_TYPE, GRAPHQL_RESPONSE_TYPE];

/** The answer's media type for an Accept header (q-values and wildcards as RFC 9110 reads them). */
function negotiate(accept: string | undefined): string {
  const [preferred] = new Negotiator({ headers: { accept } }).mediaTypes(OFFERED);
  return preferred ?? JSON_TYPE;
}

/**
 * Negotiated types by Accept header: a client sends the same header on every request, and
 * parsing it anew cost more than the rest of a cheap query's answer. Bounded, since the
 * header is the client's to choose.
 */
const NEGOTIATED = new LRUCache<string, string>({ max: 200 });
const NO_ACCEPT = negotiate(undefined);

export function graphqlResponseType(accept: string | undefined): string {
  if (accept === undefined) return NO_ACCEPT;
  let type = NEGOTIATED.get(accept);
  if (type === undefined) {
    type = negotiate(accept);
    NEGOTIATED.set(accept, type);
  }
  return type;
}

/** The content-type header of an answer in `mediaType`. */
export function contentTypeOf(mediaType: string): string {
  return `${mediaType}; charset=utf-8`;
}
