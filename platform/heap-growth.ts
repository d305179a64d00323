/**
 * Bounded memory for register ingests. An ingest allocates, per engine chunk, record images
 * and statement parameters of several megabytes that outlive a few database round trips and
 * so land in V8's old generation; left to itself, V8 lets that generation grow to three or
 * four times the live set (100–200 MB for a full dm+d release) before a full collection,
 * and the process peaks at 0.6–1 GiB. Limiting the growth after each full collection to
 * `percent` of the live set keeps a full-size release under 400 MiB for about a third more
 * CPU (docs/performance.md, "Streamed releases at full size"). A hard heap cap instead
 * (`--max-old-space-size`) thrashes once the live set nears it, and fails outright above it.
 */
import { setFlagsFromString } from 'node:v8';

/** Applies to the rest of the process; 0 leaves V8's own growth. V8 reads the flag at every full collection. */
export function boundHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
