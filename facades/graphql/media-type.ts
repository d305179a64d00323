/**
 * The media type of a public GraphQL answer, negotiated from the request's Accept header
 * (GraphQL over HTTP): `application/graphql-response+json` when the client asks for it
 * before `application/json`, `application/json` otherwise — also when Accept is missing or
 * names neither, as the endpoint answered before the newer type existed.
 */
import Negotiator from 'negotiator';

export const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json';
export const JSON_TYPE = 'application/json';

/** application/json first: a tie (`*` / `*`, `application/*`) goes to it. */
const OFFERED = [JSON_TYPE, GRAPHQL_RESPONSE_TYPE];

/** The answer's media type for an Accept header (q-values and wildcards as RFC 9110 reads them). */
export function graphqlResponseType(accept: string | undefined): string {
  const [preferred] = new Negotiator({ headers: { accept } }).mediaTypes(OFFERED);
  return preferred ?? JSON_TYPE;
}

/** The content-type header of an answer in `mediaType`. */
export function contentTypeOf(mediaType: string): string {
  return `${mediaType}; charset=utf-8`;
}
