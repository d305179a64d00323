/**
 * The route table: every /v1 operation, declared once. REST routes, the OpenAPI document
 * and the MCP tool list are all derived from it. Each domain keeps its entries in its
 * own file here.
 */
import type { RouteDef } from './types.ts';
import { classificationRoutes } from './classification.ts';
import { changesRoutes } from './changes.ts';
import { byolRoutes } from './byol.ts';
import { chatRoutes } from './chat.ts';
import { enrichmentRoutes } from './enrichment.ts';
import { catalogueRoutes } from './catalogue.ts';
import { supplyRoutes } from './supply.ts';
import { interactionRoutes } from './interactions.ts';
import { marketRoutes } from './markets.ts';
import { reimbursementRoutes } from './reimbursement.ts';
import { accountRoutes } from './accounts.ts';
import { cdsHooksRoutes } from './cds-hooks.ts';
import { fhirTerminologyRoutes } from './fhir-terminology.ts';

export const ROUTES: RouteDef[] = [
  ...classificationRoutes,
  ...changesRoutes,
  ...byolRoutes,
  ...chatRoutes,
  ...enrichmentRoutes,
  ...catalogueRoutes,
  ...supplyRoutes,
  ...interactionRoutes,
  ...marketRoutes,
  ...reimbursementRoutes,
  ...accountRoutes,
  ...cdsHooksRoutes,
  ...fhirTerminologyRoutes,
];
