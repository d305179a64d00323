/**
 * The success answer of a route-table entry, as the OpenAPI document describes it: derived
 * from the route's GraphQL document (answer-schema.ts) with the JSON-scalar fields'
 * schemas (json-fields.ts), then shaped like the route shapes its answer (`answer` beside
 * `respond`, a 404 instead of null, the signed receipt).
 */
import type { GraphQLSchema } from 'graphql';
import type { JsonSchema, RouteDef } from '../routes/types.ts';
import { answerSchema, dataSchema, withoutNull } from './answer-schema.ts';
import { JSON_FIELD_SCHEMAS } from './json-fields.ts';

const RECEIPT: JsonSchema = {
  type: 'string',
  description: 'Signed no-retention receipt: a compact JWS (EdDSA) over the SHA-256 of the request body as received; verify with /.well-known/jwks.json.',
};

/** The success body's schema of a route, or undefined for one that never answers 2xx with a body. */
export function routeAnswerSchema(internal: GraphQLSchema, def: RouteDef): JsonSchema | undefined {
  if (def.response) return def.response;
  if (def.refuse) return undefined;
  if (def.respond && !def.answer) throw new Error(`${def.operationId}: a route with respond needs answer, its schema counterpart`);
  let body = def.answer ? def.answer(dataSchema(internal, def, JSON_FIELD_SCHEMAS)) : answerSchema(internal, def, JSON_FIELD_SCHEMAS);
  if (def.notFound) body = withoutNull(body);
  if (def.receipt && !def.placeReceipt) {
    body = { ...body, required: [...(body.required as string[]), 'receipt'], properties: { ...(body.properties as object), receipt: RECEIPT } };
  }
  return body;
}
