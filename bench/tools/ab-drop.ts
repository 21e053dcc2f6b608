/**
 * batch-triage's page run (a drop of 300 folders, then 选择产品 on all until triaged) and the upload alone,
 * alternating RUNS times (3); prints each run's ms and ratio, tagged TAG. For A/B runs of two builds: build
 * the e2e app of each (`npx vite build --mode e2e` in apps/web) and run this after each.
 * Run: TAG=after node --import tsx tools/ab-drop.ts
 */
import { dropBench, pageRun, uploadAlone } from '../benchmarks/batch-triage.ts';
import { toolContext } from '../lib/tool-context.ts';

const { ctx, cleanUp } = toolContext();
try {
  const { batch, server, page, cdp } = await dropBench(ctx);
  for (let run = 0; run < Number(process.env.RUNS ?? 3); run++) {
    const r = await pageRun(page, cdp, server, batch.dirs, batch.files.length);
    const a = await uploadAlone(server, batch.files, []);
    console.log(`${process.env.TAG ?? ''} drop ${r.uploadMs.toFixed(0)} check ${r.checkMs.toFixed(0)} alone ${a.ms.toFixed(0)} ratio ${((r.uploadMs + r.checkMs) / a.ms).toFixed(2)}`);
  }
} finally {
  await cleanUp();
}
process.exit(0);
