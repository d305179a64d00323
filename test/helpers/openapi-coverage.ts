/**
 * How well the OpenAPI document describes its success answers: every object schema a
 * success body reaches must name its fields, unless it says it is open by design.
 */
type Schema = Record<string, unknown>;

const OPEN = /^Open by design\b/;

function resolve(doc: Schema, schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  return ref.replace(/^#\//, '').split('/').reduce<Schema>((node, key) => node[key] as Schema, doc);
}

/** JSON pointers of the schemas under `schema` that describe nothing: bare objects or anything-goes values not marked open. */
export function bareSchemas(doc: Schema, schema: Schema, at: string, seen = new Set<Schema>()): string[] {
  const node = resolve(doc, schema);
  if (seen.has(node)) return [];
  seen.add(node);
  const types = ([] as unknown[]).concat(node.type ?? []);
  const open = typeof node.description === 'string' && OPEN.test(node.description);
  const found: string[] = [];
  const composed = ['oneOf', 'anyOf', 'allOf'].filter((k) => Array.isArray(node[k]));
  if (types.includes('object') && !node.properties && typeof node.additionalProperties !== 'object' && !open) found.push(at);
  if (!types.length && !composed.length && node.const === undefined && node.enum === undefined && !node.$ref && !open) found.push(at);
  for (const [key, sub] of Object.entries((node.properties ?? {}) as Record<string, Schema>)) found.push(...bareSchemas(doc, sub, `${at}/properties/${key}`, seen));
  if (node.items && typeof node.items === 'object') found.push(...bareSchemas(doc, node.items as Schema, `${at}/items`, seen));
  if (typeof node.additionalProperties === 'object') found.push(...bareSchemas(doc, node.additionalProperties as Schema, `${at}/additionalProperties`, seen));
  for (const key of composed) (node[key] as Schema[]).forEach((sub, i) => found.push(...bareSchemas(doc, sub, `${at}/${key}/${i}`, seen)));
  return found;
}

/** Every success answer with a body: `METHOD path status media-type` and its schema. */
export function successBodies(doc: Schema): Array<{ name: string; schema: Schema }> {
  const out: Array<{ name: string; schema: Schema }> = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(item)) {
      for (const [status, response] of Object.entries(op.responses as Record<string, Schema>)) {
        if (Number(status) >= 300) continue;
        for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Schema>)) {
          out.push({ name: `${method.toUpperCase()} ${path} ${status} ${type}`, schema: media.schema as Schema });
        }
      }
    }
  }
  return out;
}
