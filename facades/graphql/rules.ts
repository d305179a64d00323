/**
 * Validation rules of the public subset. The public endpoint accepts one plain query
 * per request: no fragments, no directives, no introspection beyond `__typename`, and
 * bounded depth and size, so the cost of a document is visible from its text and every
 * refusal names its reason.
 */
import { GraphQLError, Kind } from 'graphql';
import type { ASTNode, ASTVisitor, DocumentNode, SelectionSetNode, ValidationContext, ValidationRule } from 'graphql';

/** Documented limits of a public document (docs/graphql.md). */
export const PUBLIC_LIMITS = {
  /** Deepest field nesting: `atc { ancestors { code } }` is depth 3. */
  maxDepth: 8,
  /** Field selections in the whole document, aliases and `__typename` included. */
  maxFields: 200,
  /** Parser tokens; stops oversized documents before they are even fully parsed. */
  maxTokens: 5_000,
} as const;

/** Machine-readable reasons, sent as `extensions.reason` next to `code: graphql_rejected`. */
export type RejectReason =
  | 'fragment' | 'inline_fragment' | 'directive' | 'multiple_operations' | 'mutation'
  | 'subscription' | 'introspection' | 'depth' | 'size';

function reject(context: ValidationContext, reason: RejectReason, message: string, node?: ASTNode): void {
  context.reportError(new GraphQLError(message, { nodes: node, extensions: { code: 'graphql_rejected', reason } }));
}

/** Depth and field count of a selection set, walking through inline fragments. */
function measure(set: SelectionSetNode | undefined, depth: number): { depth: number; fields: number } {
  let deepest = depth - 1;
  let fields = 0;
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      const inner = measure(selection.selectionSet, depth + 1);
      deepest = Math.max(deepest, selection.selectionSet ? inner.depth : depth);
      fields += 1 + inner.fields;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const inner = measure(selection.selectionSet, depth);
      deepest = Math.max(deepest, inner.depth);
      fields += inner.fields;
    }
  }
  return { depth: deepest, fields };
}

/** Depth and size of every operation, against PUBLIC_LIMITS. */
function checkLimits(context: ValidationContext, document: DocumentNode): void {
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const { depth, fields } = measure(definition.selectionSet, 1);
    if (depth > PUBLIC_LIMITS.maxDepth) {
      reject(context, 'depth', `The query is ${depth} levels deep; the public endpoint allows at most ${PUBLIC_LIMITS.maxDepth}.`, definition);
    }
    if (fields > PUBLIC_LIMITS.maxFields) {
      reject(context, 'size', `The query selects ${fields} fields; the public endpoint allows at most ${PUBLIC_LIMITS.maxFields}.`, definition);
    }
  }
}

/** The public subset as one graphql-js validation rule (added next to the specified rules). */
export const PublicSubsetRule: ValidationRule = (context: ValidationContext): ASTVisitor => {
  let operations = 0;
  return {
    Document(node) {
      operations = node.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length;
      if (operations > 1) {
        reject(context, 'multiple_operations', `The document holds ${operations} operations; send exactly one per request.`);
      }
      checkLimits(context, node);
    },
    OperationDefinition(node) {
      if (node.operation === 'mutation') reject(context, 'mutation', 'Mutations are not available on the public endpoint.', node);
      if (node.operation === 'subscription') reject(context, 'subscription', 'Subscriptions are not available on the public endpoint.', node);
    },
    FragmentDefinition(node) {
      reject(context, 'fragment', `Fragments are not supported (fragment ${node.name.value}); select the fields directly.`, node);
    },
    FragmentSpread(node) {
      reject(context, 'fragment', `Fragment spreads are not supported (...${node.name.value}); select the fields directly.`, node);
    },
    InlineFragment(node) {
      reject(context, 'inline_fragment', 'Inline fragments are not supported; select the fields directly.', node);
    },
    Directive(node) {
      reject(context, 'directive', `Directives are not supported (@${node.name.value}).`, node);
    },
    Field(node) {
      const name = node.name.value;
      if (name.startsWith('__') && name !== '__typename') {
        reject(context, 'introspection', `Introspection is not available beyond __typename (${name}); GET /v1/graphql returns the schema as SDL.`, node);
      }
    },
  };
};
