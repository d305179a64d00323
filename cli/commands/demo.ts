/**
 * `drugref demo load` loads the bundled demo catalogue through the ingest engine (idempotent:
 * a second run writes no change record); `drugref demo update` ingests the demo's second
 * state (changed prices, new, withdrawn and removed products, recalls) so the change feed
 * and webhooks have something to deliver on demand.
 */
import { loadConfig } from '../../platform/config.ts';
import { loadDemoCatalogue, updateDemoCatalogue, updateLine } from '../demo-catalogue.ts';
import { openConfiguredDatabase } from '../database.ts';
import { formatReport, progressBar } from '../ingest-output.ts';
import { buildDemoImage, demoImageReady } from '../demo-image.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);

/** `demo load` or `demo update`. */
export async function runDemo(step: 'load' | 'update'): Promise<number> {
  const db = await openConfiguredDatabase(loadConfig());
  const bar = progressBar();
  try {
    const options = bar.onProgress ? { onProgress: bar.onProgress } : {};
    const report = step === 'load' ? await loadDemoCatalogue(db, options) : await updateDemoCatalogue(db, options);
    bar.stop();
    out(step === 'load' ? 'Demo catalogue (demonstration data, not for clinical use):' : updateLine(report));
    formatReport(report).forEach(out);
    return 0;
  } finally {
    bar.stop();
    await db.close();
  }
}

/** `demo image`: builds the first-start image unless the current one exists already. */
export async function prepareDemoImage(): Promise<number> {
  if (await demoImageReady()) {
    out('Demo database image is up to date.');
    return 0;
  }
  const started = performance.now();
  const { path, line } = await buildDemoImage();
  out(`${line}\nDemo database image prepared in ${((performance.now() - started) / 1000).toFixed(1)} s: ${path}`);
  return 0;
}
