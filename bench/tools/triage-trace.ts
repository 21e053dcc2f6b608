/**
 * Scratch: the triage part of batch-triage under Chromium's tracing; prints each main-thread task over
 * 50 ms with what it spent its time in (trace events' self time by name, JS entry points by function).
 * WORKS (2000), RUNS (1); TRACE_OUT=<file> keeps the last trace (open it in DevTools' Performance panel).
 */
import { writeFile } from 'node:fs/promises';
import { triageRun } from '../benchmarks/batch-triage.ts';
import { buildWebIfStale, openBatchUpload, startBrowser } from '../lib/browser.ts';
import { startBenchServer } from '../lib/server.ts';
import { toolContext } from '../lib/tool-context.ts';

interface TraceEvent { name: string; cat: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: { name?: string; data?: Record<string, unknown> } }

const { ctx, cleanUp } = toolContext();

function report(events: TraceEvent[]): void {
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const count = (pid: number, tid: number) => events.filter((e) => e.pid === pid && e.tid === tid).length;
  const main = mains.sort((a, b) => count(b.pid, b.tid) - count(a.pid, a.tid))[0];
  if (!main) throw new Error('no renderer main thread in the trace');
  const own = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && typeof e.dur === 'number').sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const tasks = own.filter((e) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask');
  const top: TraceEvent[] = [];
  for (const t of tasks) if (!top.length || t.ts >= top[top.length - 1]!.ts + top[top.length - 1]!.dur!) top.push(t);
  const long = top.filter((t) => t.dur! > 50_000);
  console.log(`tasks over 50 ms: ${long.map((t) => (t.dur! / 1000).toFixed(0)).join(' ')}`);
  for (const t of long) {
    const inside = own.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur! <= t.ts + t.dur!);
    // Self time: each event's duration less its direct children's.
    const self = new Map<string, number>();
    const stack: TraceEvent[] = [];
    const selfOf = new Map<TraceEvent, number>();
    for (const e of inside) {
      while (stack.length && e.ts >= stack[stack.length - 1]!.ts + stack[stack.length - 1]!.dur!) stack.pop();
      selfOf.set(e, e.dur!);
      const parent = stack[stack.length - 1];
      if (parent) selfOf.set(parent, selfOf.get(parent)! - e.dur!);
      stack.push(e);
    }
    const label = (e: TraceEvent) => {
      const d = e.args?.data ?? {};
      if (e.name === 'FunctionCall' || e.name === 'v8.callFunction') return `${e.name} ${String(d.functionName ?? '')} ${String(d.url ?? '').split('/').pop()}:${String(d.lineNumber ?? '')}`;
      if (e.name === 'EventDispatch') return `EventDispatch ${String(d.type ?? '')}`;
      if (e.name === 'TimerFire' || e.name === 'FireAnimationFrame') return e.name;
      return e.name;
    };
    for (const [e, s] of selfOf) self.set(label(e), (self.get(label(e)) ?? 0) + s);
    const firstJs = inside.find((e) => e.name === 'FunctionCall' || e.name === 'EventDispatch' || e.name === 'TimerFire' || e.name === 'FireAnimationFrame' || e.name === 'ResourceFetcher::requestResource' || e.name === 'Receive mojo message');
    console.log(`${(t.dur! / 1000).toFixed(0).padStart(6)} ms at ${((t.ts - top[0]!.ts) / 1000).toFixed(0).padStart(6)}  [${firstJs ? label(firstJs) : '?'}]  ${[...self].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`).join(' | ')}`);
  }
}

try {
  buildWebIfStale(ctx);
  const [server, browser] = await Promise.all([startBenchServer(ctx), startBrowser(ctx)]);
  const { page } = await openBatchUpload(ctx, browser, server, '?portalTest');
  await triageRun(page, 20);
  for (let i = 0; i < Number(process.env.RUNS ?? 1); i++) {
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8', 'v8.execute', 'blink'] });
    const r = await triageRun(page, Number(process.env.WORKS ?? 2000));
    const buf = await browser.stopTracing();
    console.log(JSON.stringify(r));
    const parsed = JSON.parse(buf.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
    const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
    report(events);
    if (process.env.TRACE_OUT) await writeFile(process.env.TRACE_OUT, buf);
  }
} finally {
  await cleanUp();
}
