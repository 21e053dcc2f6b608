/**
 * The page's requests during batch-triage's page run (a drop of 300 folders, then 选择产品 on all), by
 * endpoint: count, first start, last end (ms from the run's start) and median duration. RUNS (1).
 * Run: node --import tsx tools/drop-timeline.ts
 */
import type { Request } from 'playwright-core';
import { dropBench, pageRun } from '../benchmarks/batch-triage.ts';
import { toolContext } from '../lib/tool-context.ts';
import { median } from '../lib/timing.ts';

const { ctx, cleanUp } = toolContext();
try {
  const { batch, server, page, cdp } = await dropBench(ctx);
  for (let run = 0; run < Number(process.env.RUNS ?? 1); run++) {
    const done: Array<{ endpoint: string; start: number; end: number }> = [];
    const starts = new Map<Request, number>();
    const t0 = performance.now();
    const onRequest = (r: Request) => starts.set(r, performance.now() - t0);
    const onFinished = (r: Request) => done.push({ endpoint: new URL(r.url()).pathname.replace(/\/[0-9a-f-]{20,}.*$/, '/:id'), start: starts.get(r) ?? 0, end: performance.now() - t0 });
    page.on('request', onRequest);
    page.on('requestfinished', onFinished);
    const r = await pageRun(page, cdp, server, batch.dirs, batch.files.length);
    page.off('request', onRequest);
    page.off('requestfinished', onFinished);
    const at = r.confirmedAt - t0;
    console.log(`run ${run + 1}: drop ${r.uploadMs.toFixed(0)} ms, check ${r.checkMs.toFixed(0)} ms: 确定 at ${at.toFixed(0)}, triaged at ${(at + r.checkMs).toFixed(0)}`);
    const by = new Map<string, typeof done>();
    for (const q of done.filter((d) => d.endpoint.startsWith('/api/'))) by.set(q.endpoint, [...(by.get(q.endpoint) ?? []), q]);
    for (const [endpoint, qs] of [...by].sort((a, b) => a[1][0]!.start - b[1][0]!.start)) {
      const first = Math.min(...qs.map((q) => q.start));
      const last = Math.max(...qs.map((q) => q.end));
      console.log(`${endpoint.padEnd(50)} n=${String(qs.length).padStart(5)} first ${first.toFixed(0).padStart(6)} last end ${last.toFixed(0).padStart(6)} median ${median(qs.map((q) => q.end - q.start)).toFixed(0).padStart(5)} ms`);
    }
  }
} finally {
  await cleanUp();
}
process.exit(0);
