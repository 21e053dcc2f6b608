/**
 * Load with autocannon (closed loop: each of `connections` keep-alive connections sends its next
 * request when the previous answer arrived), run in this process on its one JavaScript thread.
 *
 * Latencies are taken from autocannon's `response` events with their fractional milliseconds:
 * autocannon's own histogram keeps whole milliseconds, too coarse for a bare route's 1–3 ms.
 */
import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { cpuSecondsOf } from './proc.ts';

interface AutocannonOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
  timeout?: number;
}
interface AutocannonResult {
  errors: number;
  timeouts: number;
  non2xx: number;
  resets: number;
  mismatches: number;
  duration: number;
  statusCodeStats: Record<string, { count: number }>;
  latency: { p50: number; p99: number };
  requests: { average: number; sent: number };
}
type Autocannon = (o: AutocannonOptions, cb: (err: Error | null, result: AutocannonResult) => void) => EventEmitter & { stop(): void };

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface LoadTarget {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  /** Exact percentiles (nearest rank) of the 2xx answers' latencies, in ms. */
  p50Ms: number;
  p99Ms: number;
  /** 2xx answers per second over the run. */
  reqPerS: number;
  ok: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  resets: number;
  /** e.g. `200:51234` or `200:51000 429:3`. */
  statusCodes: string;
  /** autocannon's own p50 / p99 (whole ms), as a cross-check. */
  autocannonP50: number;
  autocannonP99: number;
  durationS: number;
  /** CPU seconds of this process (the client) during the run, and of `pid` (the server) when given. */
  clientCpuS: number;
  serverCpuS: number;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: Float64Array | number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function once(target: LoadTarget, o: { connections: number; durationS: number; record?: number[] }): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    const tracker = autocannon({ ...target, connections: o.connections, duration: o.durationS, timeout: 10 }, (err, result) => (err ? reject(err) : resolve(result)));
    const record = o.record;
    if (record) {
      tracker.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
        if (statusCode >= 200 && statusCode < 300) record.push(responseTime);
      });
    }
  });
}

/** A short untimed run (JIT, connection set-up, caches), then the measured one. */
export async function loadTest(target: LoadTarget, o: { connections: number; durationS: number; warmupS: number; pid?: number }): Promise<LoadResult> {
  if (o.warmupS > 0) await once(target, { connections: o.connections, durationS: o.warmupS });
  const latencies: number[] = [];
  const clientBefore = process.cpuUsage();
  const serverBefore = o.pid ? cpuSecondsOf(o.pid) : 0;
  const r = await once(target, { connections: o.connections, durationS: o.durationS, record: latencies });
  const client = process.cpuUsage(clientBefore);
  const serverCpuS = o.pid ? cpuSecondsOf(o.pid) - serverBefore : Number.NaN;
  const sorted = Float64Array.from(latencies).sort();
  return {
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    reqPerS: sorted.length / r.duration,
    ok: sorted.length,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    resets: r.resets,
    statusCodes: Object.entries(r.statusCodeStats).map(([code, s]) => `${code}:${s.count}`).join(' ') || 'none',
    autocannonP50: r.latency.p50,
    autocannonP99: r.latency.p99,
    durationS: r.duration,
    clientCpuS: (client.user + client.system) / 1e6,
    serverCpuS,
  };
}

/** Throws when a run had anything but 2xx answers: a latency of refused or failed calls means nothing. */
export function assertAllOk(label: string, r: LoadResult): void {
  if (r.non2xx > 0 || r.errors > 0 || r.ok === 0) {
    throw new Error(`${label}: ${r.non2xx} non-2xx answers and ${r.errors} errors (${r.timeouts} timeouts) of ${r.ok + r.non2xx} (status codes ${r.statusCodes}); every call must answer 2xx`);
  }
}
