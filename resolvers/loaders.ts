/**
 * Per-request dataloaders of every domain. `createLoaders` runs once per request where the
 * context is built, never at module level, so no cached row crosses requests or tenants.
 */
import DataLoader from 'dataloader';
import type { Queryable } from '../platform/db.ts';
import type { Clock } from '../platform/clock.ts';
import { lazyGroup } from '../platform/lazy-group.ts';
import { createAtcChildrenLoader, createAtcLoader } from './classification/atc.ts';
import { classSupplyLoader } from './classification/class-supply.ts';
import { createSourceLoader } from './sources/status.ts';
import { createLastDeliveryLoader } from './changes/deliveries.ts';
import { createCatalogueLoaders } from './catalogue/loaders.ts';
import { createLasaLoader } from './catalogue/lasa.ts';
import { loadDrugRecords } from './catalogue/record-rows.ts';
import type { DrugRecordRows } from './catalogue/record-rows.ts';
import { createPackDddPriceLoader } from './markets/pack-ddd-price.ts';

/** One request's loaders, each built when first used (platform/lazy-group.ts). */
export const createLoaders = lazyGroup<{ db: Queryable; now: Clock }>()({
  source: ({ db, now }) => createSourceLoader(db, now),
  atcNode: ({ db }) => createAtcLoader(db),
  atcChildren: ({ db }) => createAtcChildrenLoader(db),
  /** Packs of a class short per country, for the classes of a request at once (include=supply). */
  classSupply: ({ db }) => classSupplyLoader(db),
  webhookLastDelivery: ({ db }) => createLastDeliveryLoader(db),
  catalogue: ({ db }) => createCatalogueLoaders(db),
  lasa: ({ db }) => createLasaLoader(db),
  /** Whole drug records in one statement each batch; Query.drug and drugByCode prime the catalogue loaders from them. */
  drugRecord: ({ db }) => new DataLoader<string, DrugRecordRows | null>((ids) => loadDrugRecords(db, ids)),
  /** Each pack's price per DDD explained, for the packs of a request at once (include=price_per_ddd). */
  packDddPrice: ({ db }) => createPackDddPriceLoader(db),
});

export type Loaders = ReturnType<typeof createLoaders>;
