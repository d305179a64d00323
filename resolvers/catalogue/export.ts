/**
 * GET /v1/catalogue/export?country=: one register country's current products as NDJSON,
 * one product per line (the drug record's main fields with packs, prices and
 * identifiers), then `{"_end":{"country":…,"count":…,"as_of":…}}`. Only representatives
 * are listed (`merged_into IS NULL`): a product several sources describe appears once,
 * with every member's packs and identifiers gathered as the drug record gathers them.
 * Ids are read through a server-side cursor; each batch is rendered by the same resolvers
 * as GET /v1/drugs/{id}, in the cursor's transaction and with loaders of its own, so
 * memory holds one batch however large the register.
 */
import type { DocumentNode } from 'graphql';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/errors.ts';
import { withSnakeCaseAliases } from '../../platform/graphql/snake-aliases.ts';
import type { Engine } from '../../platform/graphql/engine.ts';
import type { RequestContext } from '../context.ts';
import { createLoaders } from '../loaders.ts';

/** Products per FETCH (each rendered with its packs, prices and identifiers). */
export const CATALOGUE_EXPORT_BATCH = 100;

const compiled = new WeakMap<Engine, Map<string, DocumentNode>>();

function compile(engine: Engine, source: string): DocumentNode {
  const byEngine = compiled.get(engine) ?? new Map<string, DocumentNode>();
  compiled.set(engine, byEngine);
  let document = byEngine.get(source);
  if (!document) {
    document = engine.compile(source, withSnakeCaseAliases);
    byEngine.set(source, document);
  }
  return document;
}

/**
 * One statement at a time on the transaction's connection: a batch's loaders run side by
 * side, and a pg client must not be handed a query while it runs another.
 */
function serialised(tx: Queryable): Queryable {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    query: (text, params) => {
      const run = tail.then(() => tx.query(text, params));
      tail = run.catch(() => undefined);
      return run;
    },
  } as Queryable;
}

/** The open transaction seen as the database, so resolvers of a batch read its snapshot. */
function inTransaction(db: Database, tx: Queryable): Database {
  return {
    kind: db.kind,
    get roundTrips() { return db.roundTrips; },
    query: (text, params) => tx.query(text, params),
    transaction: (fn) => fn(tx),
    stream: () => { throw new Error('no stream inside a stream'); },
    close: async () => undefined,
  };
}

/**
 * Returns the NDJSON chunks of `country`'s catalogue. `document` is a `drug(id: $id)`
 * query whose single root field is one line.
 */
export async function catalogueExport(ctx: RequestContext, country: string, document: string): Promise<AsyncGenerator<string, void, undefined>> {
  if (!ctx.principal) throw new ApiError('unauthorized');
  return lines(ctx, country, compile(ctx.toolbox.engine, document));
}

async function* lines(ctx: RequestContext, country: string, document: DocumentNode): AsyncGenerator<string, void, undefined> {
  let count = 0;
  let asOf: string | null = null;
  const ids = ctx.db.stream<{ id: string; as_of: string }>(
    `SELECT id, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS as_of
       FROM products WHERE country = $1 AND merged_into IS NULL ORDER BY id`,
    [country],
    { batchSize: CATALOGUE_EXPORT_BATCH },
  );
  for await (const batch of ids) {
    const tx = serialised(batch.tx);
    // Fresh loaders per batch: nothing is remembered from one batch to the next.
    const batchCtx: RequestContext = { ...ctx, db: inTransaction(ctx.db, tx), loaders: createLoaders({ db: tx, now: ctx.now }), response: { headers: {} } };
    const results = await Promise.all(batch.rows.map((row) => ctx.toolbox.engine.run(document, { id: row.id }, batchCtx)));
    let chunk = '';
    for (const result of results) {
      if (result.errors?.length) {
        const known = result.errors.find((e) => e.originalError instanceof ApiError)?.originalError;
        if (known) throw known;
        ctx.log.error({ errors: result.errors.map((e) => ({ message: e.message, path: e.path, stack: e.originalError?.stack })) }, 'catalogue export failed');
        throw new ApiError('internal_error');
      }
      const record = Object.values(result.data ?? {})[0];
      if (record === null || record === undefined) continue;
      chunk += `${JSON.stringify(record)}\n`;
      count++;
    }
    asOf = batch.rows[0]!.as_of;
    yield chunk;
  }
  yield `${JSON.stringify({ _end: { country, count, as_of: asOf ?? ctx.now().toISOString() } })}\n`;
}
