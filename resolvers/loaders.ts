/**
 * Per-request dataloaders of every domain. `createLoaders` runs once per request where the
 * context is built, never at module level, so no cached row crosses requests or tenants.
 */
import type { Queryable } from '../platform/db.ts';
import type { Clock } from '../platform/clock.ts';
import { createAtcChildrenLoader, createAtcLoader } from './classification/atc.ts';
import { createSourceLoader } from './sources/status.ts';
import { createLastDeliveryLoader } from './changes/deliveries.ts';
import { createCatalogueLoaders } from './catalogue/loaders.ts';
import { createLasaLoader } from './catalogue/lasa.ts';

export function createLoaders(db: Queryable, now: Clock) {
  return {
    source: createSourceLoader(db, now),
    atcNode: createAtcLoader(db),
    atcChildren: createAtcChildrenLoader(db),
    webhookLastDelivery: createLastDeliveryLoader(db),
    catalogue: createCatalogueLoaders(db),
    lasa: createLasaLoader(db),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
