/**
 * The internal GraphQL schema: every `schema/*.graphql` file plus each domain's resolver
 * map, merged. This schema backs REST, the public GraphQL view and the MCP tools alike.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { scalarResolvers } from './scalars.ts';
import { byolResolvers } from './byol/resolvers.ts';
import { chatResolvers } from './chat/resolvers.ts';
import { sourceResolvers } from './sources/resolvers.ts';
import { classificationResolvers } from './classification/resolvers.ts';
import { changesResolvers } from './changes/resolvers.ts';
import { rxnormResolvers } from './rxnorm/resolvers.ts';
import { catalogueResolvers } from './catalogue/resolvers.ts';
import { lasaResolvers } from './catalogue/lasa.ts';
import { supplyResolvers } from './catalogue/supply-resolvers.ts';
import { interactionResolvers } from './interactions/resolvers.ts';
import { marketResolvers } from './markets/resolvers.ts';
import { reimbursementResolvers } from './reimbursement/resolvers.ts';
import { cdsResolvers } from './cds/resolvers.ts';
import { accountResolvers } from './accounts/resolvers.ts';
import { terminologyResolvers } from './terminology/resolvers.ts';

const SCHEMA_DIR = fileURLToPath(new URL('../schema/', import.meta.url));

function loadTypeDefs(): string[] {
  return readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.graphql'))
    .sort((a, b) => (a === 'base.graphql' ? -1 : b === 'base.graphql' ? 1 : a.localeCompare(b)))
    .map((f) => readFileSync(SCHEMA_DIR + f, 'utf8'));
}

export function buildInternalSchema(): GraphQLSchema {
  return makeExecutableSchema({
    typeDefs: loadTypeDefs(),
    resolvers: [scalarResolvers, sourceResolvers, classificationResolvers, changesResolvers, catalogueResolvers, lasaResolvers, supplyResolvers, byolResolvers, chatResolvers, rxnormResolvers, interactionResolvers, marketResolvers, reimbursementResolvers, accountResolvers, cdsResolvers, terminologyResolvers],
  });
}
