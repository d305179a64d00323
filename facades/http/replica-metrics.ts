/**
 * Prometheus metrics of the read replicas (DATABASE_REPLICA_URLS), read from the database
 * module's replica states at scrape time. Nothing is registered without replicas.
 */
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { Database, ReplicaState } from '../../platform/db.ts';

export function registerReplicaMetrics(registry: Registry, db: Database): void {
  const states = db.replicaStates?.bind(db);
  if (!states) return;
  type Metric = Gauge | Counter;
  // Gauges are set and counters (reset each scrape) incremented to the state's running total.
  const fill = (value: (s: ReplicaState) => number | null) => function collect(this: Metric) {
    this.reset();
    for (const s of states()) {
      const v = value(s);
      if (v === null) continue;
      if (this instanceof Gauge) this.set({ replica: s.name }, v);
      else this.inc({ replica: s.name }, v);
    }
  };
  const labelNames = ['replica'];
  new Gauge({ name: 'drugref_db_replica_serving', help: 'Whether the read replica serves reads (0: skipped as down, lagging or not a standby).', labelNames, registers: [registry], collect: fill((s) => (s.serving ? 1 : 0)) });
  new Gauge({ name: 'drugref_db_replica_lag_seconds', help: 'Replay lag of the read replica at its last check.', labelNames, registers: [registry], collect: fill((s) => (s.lagMs === null ? null : s.lagMs / 1000)) });
  new Counter({ name: 'drugref_db_replica_skipped_total', help: 'Times the read replica stopped serving reads (down, lagging or not a standby).', labelNames, registers: [registry], collect: fill((s) => s.skips) });
  new Counter({ name: 'drugref_db_replica_reads_total', help: 'Statements and streams the read replica served.', labelNames, registers: [registry], collect: fill((s) => s.reads) });
}
