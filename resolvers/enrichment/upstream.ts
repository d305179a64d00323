/**
 * The enrichment domain's service: the one upstream client, added to the app-level
 * `Services` by declaration merging, and the helpers every enrichment resolver uses to
 * reach it and to report where its answer came from.
 */
import type { RequestContext } from '../context.ts';
import { isApiError } from '../../platform/errors.ts';
import { noteCache } from '../../platform/upstream/client.ts';
import type { Fetched, UpstreamCall, UpstreamClient } from '../../platform/upstream/client.ts';
import type { HttpSourceId } from '../../platform/upstream/sources.ts';

declare module '../context.ts' {
  interface Services {
    /** Optional in the type so other domains' tests may pass their own services. */
    upstream?: UpstreamClient;
  }
}

/** The app's upstream client; its absence is a wiring fault, never a caller's. */
export function upstreamOf(ctx: RequestContext): UpstreamClient {
  const client = ctx.services.upstream;
  if (!client) throw new Error('services.upstream is not configured');
  return client;
}

/** Fetches through the cache and folds the answer's origin into `x-service-cache`. */
export async function fetchSource<T>(ctx: RequestContext, source: HttpSourceId, call: UpstreamCall): Promise<Fetched<T>> {
  try {
    const answer = await upstreamOf(ctx).fetch<T>(source, call);
    noteCache(ctx.response.headers, answer.cache);
    return answer;
  } catch (err) {
    // A 502 was asked of the upstream now and nothing cached could stand in: `live`.
    if (isApiError(err) && err.status === 502) noteCache(ctx.response.headers, 'live');
    throw err;
  }
}
