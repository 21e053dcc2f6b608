/**
 * Drill: PostgreSQL restarts under a server that is busy (catalogue pages and small uploads). While the
 * database is away, answers fail cleanly (a 5xx with the generic message, never a crash, never a hang);
 * once it is back, the same server process answers again without a restart.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@portal/contract';
import {
  accessUrlOf, alive, createPgDatabase, errorOf, fetchBytes, isDone, noisePng, pgliteDataDir, postChunk, removeDir,
  restartPostgresExclusively, sha256, sleep, startChild, upload, type Child, type ChunkResult, type Upload,
} from '../helpers/drill.ts';

const VERSION = readdirSync('/etc/postgresql')[0] ?? '15';
const ctl = (action: 'start' | 'stop' | 'status') =>
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', VERSION, 'main', action], { stdio: 'pipe', timeout: 60_000 }).toString();
const pgRunning = () => {
  try {
    ctl('status');
    return true;
  } catch {
    return false;
  }
};

type Outcome = { at: number; what: string; status: number | 'error'; ms: number; body: string; error?: string };

describe('PostgreSQL restarts under load', () => {
  let c: Child;
  let dataDir: string;
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let unmark: () => Promise<void>;

  beforeAll(async () => {
    // No other drill may be using PostgreSQL while it is stopped.
    unmark = await restartPostgresExclusively();
    dataDir = await pgliteDataDir();
    db = await createPgDatabase();
    c = await startChild({ dataDir, databaseUrl: db.url });
  }, 300_000);

  afterAll(async () => {
    // PostgreSQL runs again whatever happened above.
    if (!pgRunning()) ctl('start');
    await c?.server.stop();
    await db?.drop().catch(() => {});
    await removeDir(dataDir);
    await unmark?.();
  }, 120_000);

  it('fails requests cleanly while it is down and answers again once it is back, without a restart of the server', async () => {
    const token = await c.login('demo', 'demo');
    const outcomes: Outcome[] = [];
    const sent: Array<{ u: Upload; r: ChunkResult | undefined }> = [];
    const t0 = Date.now();
    let stop = false;

    const timed = async (what: string, fn: () => Promise<{ status: number; body: string }>) => {
      const started = Date.now();
      try {
        const r = await fn();
        outcomes.push({ at: started - t0, what, status: r.status, ms: Date.now() - started, body: r.body });
      } catch (err) {
        outcomes.push({ at: started - t0, what, status: 'error', ms: Date.now() - started, body: '', error: String((err as Error).cause ?? err) });
      }
    };
    const pages = async () => {
      while (!stop) {
        await timed('products', async () => {
          const res = await c.call('GET', '/api/customer-hubs/getProductsPage/1?page=0&size=20', { token });
          return { status: res.status, body: await res.text() };
        });
        await sleep(50);
      }
    };
    const uploads = async () => {
      for (let i = 0; !stop; i++) {
        const u = upload(`负载/${i}.png`, await noisePng(40, 40));
        const entry: { u: Upload; r: ChunkResult | undefined } = { u, r: undefined };
        sent.push(entry);
        await timed('upload', async () => {
          entry.r = await postChunk(c.url, token, u, 1);
          return { status: entry.r.status, body: JSON.stringify(entry.r.body) };
        });
        await sleep(100);
      }
    };
    const load = Promise.all([pages(), pages(), uploads()]);

    await sleep(2000);
    const downAt = Date.now() - t0;
    ctl('stop');
    await sleep(4000);
    ctl('start');
    const upAt = Date.now() - t0;
    // Load goes on until the server has answered 200 to both kinds of request for a while after the restart.
    const until = Date.now() + 60_000;
    let recoveredAt: number | undefined;
    while (Date.now() < until) {
      await sleep(500);
      const after = outcomes.filter((o) => o.at > upAt);
      const lastFew = after.slice(-20);
      if (lastFew.length === 20 && lastFew.every((o) => o.status === 200)) {
        recoveredAt = lastFew[0]!.at;
        break;
      }
    }
    stop = true;
    await load;

    // The process never died.
    expect(alive(c.server.pid), `the server process died:\n${c.server.output()}`).toBe(true);
    // No request failed at the connection (a crash or a reset) and none hung.
    const broken = outcomes.filter((o) => o.status === 'error');
    expect(broken, `requests that got no answer:\n${JSON.stringify(broken.slice(0, 5))}`).toEqual([]);
    for (const o of outcomes) expect(o.ms, `${o.what} at ${o.at} ms took ${o.ms} ms`).toBeLessThan(30_000);
    // Every answer is a success or a clean 503 with its message (an upload refusal shape carries it too).
    const failures = outcomes.filter((o) => o.status !== 200);
    for (const o of failures) {
      const status = o.status as number;
      const body = JSON.parse(o.body) as { message: unknown; state?: number };
      const message = typeof body.message === 'string' ? body.message : (body.message as { error?: string }).error;
      // The database being away is said as such: 503, 服务暂时不可用，请稍后重试 (and Retry-After).
      expect(status, `${o.what} at ${o.at} ms answered ${status}: ${o.body}`).toBe(503);
      expect(message, `${o.what} at ${o.at} ms: ${o.body}`).toBe(SERVER_MSG.unavailable);
      expect(o.body).not.toMatch(/ECONNREFUSED|terminating connection|at .*\.ts:\d+|stack/i);
    }
    // The same process answers again.
    expect(recoveredAt, `no steady 200s within 60 s after PostgreSQL came back:\n${JSON.stringify(outcomes.slice(-10))}`).toBeDefined();
    const res = await c.call('GET', '/api/customer-hubs/getProductsPage/1?page=0&size=20', { token });
    expect(res.status).toBe(200);
    // Uploads refused during the outage go through when sent again, byte for byte.
    const retried = sent.filter((s) => !s.r || !isDone(s.r));
    for (const s of retried) {
      const r = await postChunk(c.url, token, s.u, 1);
      expect(isDone(r), `${s.u.filePath}: ${r.status} ${errorOf(r)}`).toBe(true);
      s.r = r;
    }
    for (const s of sent) {
      const served = await fetchBytes(c.url, accessUrlOf(s.r!)!);
      expect(sha256(served.bytes), s.u.filePath).toBe(sha256(s.u.bytes));
    }
    console.info(`[postgres-restart] ${outcomes.length} requests, ${failures.length} failed cleanly (${[...new Set(failures.map((f) => f.status))].join(', ')}); down ${downAt}–${upAt} ms, steady 200s from ${recoveredAt} ms (${(recoveredAt ?? 0) - upAt} ms after the start); ${sent.length} uploads, ${retried.length} sent again, all byte-identical`);
  }, 180_000);
});
