/**
 * REST answers are snake_case while the internal schema is camelCase. Rather than walk
 * every response, each route document gets snake_case aliases once, at compile time;
 * `meta` becomes the spec's `_meta`.
 */
import { Kind, visit } from 'graphql';
import type { DocumentNode, FieldNode } from 'graphql';

const SPECIAL: Record<string, string> = { meta: '_meta' };

export function snakeCase(name: string): string {
  return SPECIAL[name] ?? name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

export function withSnakeCaseAliases(document: DocumentNode): DocumentNode {
  return visit(document, {
    Field(node: FieldNode): FieldNode | undefined {
      if (node.alias || node.name.value.startsWith('__')) return undefined;
      const alias = snakeCase(node.name.value);
      return alias === node.name.value ? undefined : { ...node, alias: { kind: Kind.NAME, value: alias } };
    },
  });
}
