/** Scratch: the triage part of batch-triage alone, N runs of 2,000 works; BENCH_PAGE_PROF for profiles. */
import { triageRun } from '../benchmarks/batch-triage.ts';
import { buildWebIfStale, openBatchUpload, startBrowser } from '../lib/browser.ts';
import { startBenchServer } from '../lib/server.ts';
import { toolContext } from '../lib/tool-context.ts';

const { ctx, cleanUp } = toolContext();
try {
  buildWebIfStale(ctx);
  const [server, browser] = await Promise.all([startBenchServer(ctx), startBrowser(ctx)]);
  const { page } = await openBatchUpload(ctx, browser, server, '?portalTest');
  await triageRun(page, 20);
  // The main thread's CPU time (ThreadTime) tells runs apart on a busy machine, where wall times do not.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  for (let i = 0; i < Number(process.env.RUNS ?? 2); i++) {
    const a = await metrics();
    const r = await triageRun(page, Number(process.env.WORKS ?? 2000));
    const b = await metrics();
    const d = (k: string) => Math.round(((b[k] ?? 0) - (a[k] ?? 0)) * 1000);
    console.log(JSON.stringify({ ...r, cpuMs: d('ThreadTime'), scriptMs: d('ScriptDuration'), layoutMs: d('LayoutDuration'), styleMs: d('RecalcStyleDuration') }));
  }
} finally {
  await cleanUp();
}
