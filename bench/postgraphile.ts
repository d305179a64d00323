/**
 * The peer of the public GraphQL nested query: PostGraphile 4 (library mode, its own
 * graphql 15) serving the same tables of BENCH_DB_URL, in its own process. The catalogue has
 * no foreign keys for product → ATC node, ATC node → parent and ingredient → substance, so
 * smart tags declare them; PostGraphile then answers the same nested shape drugref does.
 * Production settings: no query log, no schema watch, no GraphiQL, default pool (10).
 */
import { createServer } from 'node:http';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { AddressInfo } from 'node:net';
import type * as PostGraphile from 'postgraphile';
import { serveParent } from './processes.ts';

const require = createRequire(import.meta.url);

/**
 * npm installed two copies of graphql 15 (under postgraphile and under graphile-build-pg),
 * and graphql refuses types from another copy; in this process every `graphql` resolves to
 * postgraphile's. (`npm dedupe` would make this unnecessary.)
 */
function singleGraphql(): void {
  const graphqlDir = dirname(require.resolve('graphql/package.json', { paths: [dirname(require.resolve('postgraphile/package.json'))] }));
  const loader = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (request: string, ...rest: unknown[]): string {
    if (request === 'graphql' || request.startsWith('graphql/')) return require.resolve(request.replace(/^graphql/, graphqlDir));
    return resolve.call(this, request, ...rest);
  };
}
singleGraphql();

// CommonJS whose re-exports (graphile-utils) Node's ESM loader cannot see: required instead.
const { makeJSONPgSmartTagsPlugin, postgraphile } = require('postgraphile') as typeof PostGraphile;

const tags = makeJSONPgSmartTagsPlugin({
  version: 1,
  config: {
    class: {
      products: { tags: { foreignKey: '(atc_code) references atc_nodes (code)' } },
      atc_nodes: { tags: { foreignKey: '(parent_code) references atc_nodes (code)' } },
      product_ingredients: { tags: { foreignKey: '(unii) references substances (unii)' } },
    },
  },
});

const middleware = postgraphile(process.env.BENCH_DB_URL!, 'public', {
  appendPlugins: [tags],
  disableQueryLog: true,
  watchPg: false,
  graphiql: false,
  retryOnInitFail: false,
  setofFunctionsContainNulls: false,
  ignoreRBAC: true,
});
const server = createServer(middleware);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
serveParent(async (m) => {
  throw new Error(`unknown request ${m.type}`);
}, async () => {
  await new Promise((resolve) => server.close(resolve));
  await middleware.release();
});
process.send!({ type: 'ready', url: `http://127.0.0.1:${port}` });
