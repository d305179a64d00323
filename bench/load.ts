/**
 * The load generator, in its own process (pinned away from the servers' CPU): runs
 * autocannon for each `run` request and replies with the figures the report needs.
 */
import autocannon from 'autocannon';
import { serveParent } from './processes.ts';

/** One load run as the orchestrator asks for it. */
export interface LoadRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
}

/** What a run measured. */
export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

serveParent(async (m) => {
  if (m.type !== 'run') throw new Error(`unknown request ${m.type}`);
  const r = m.load as LoadRequest;
  const result = await autocannon({
    url: r.url, method: r.method, headers: r.headers, connections: r.connections, duration: r.seconds,
    ...(r.body ? { body: r.body } : {}),
  });
  const measured: LoadResult = {
    requests: result.requests.total,
    rps: Math.round(result.requests.total / result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
  return { result: measured };
}, async () => undefined);
process.send!({ type: 'ready' });
