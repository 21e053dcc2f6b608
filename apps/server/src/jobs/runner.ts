import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { longTasks } from '../db/schema/index.ts';
import { AppError } from '../errors.ts';
import { MediaError } from '../media/errors.ts';
import { HOST_PREFIX, isDeadHere, PROCESS_OWNER } from './owner.ts';

export type TaskContext = {
  taskId: string;
  hubId: number;
  /** Reports progress; cheap to call often (writes are throttled). */
  progress: (done: number, total: number) => void;
  signal: AbortSignal;
  /** 1 for the first run of the task, then one more for each claim (a retry, or a re-run after a crash). */
  attempt: number;
};

/**
 * Thrown by a handler that wants to be run again later (a webhook endpoint that failed): the task waits
 * `delayMs`, queued, then any process may claim it. Not counted as an unexpected error.
 */
export class RetryLater extends Error {
  constructor(message: string, readonly delayMs: number) {
    super(message);
  }
}

/** What a transaction can insert a task with (a Drizzle transaction or the database itself). */
type Inserter = Pick<Db, 'insert'>;

/** One handler per job name; payload and result types are checked by the compiler. */
export type JobHandler<P, R> = (payload: P, ctx: TaskContext) => Promise<R>;
/** The jobs a server knows, by name: what each takes and gives. */
export type JobTypes = Record<string, { payload: object; result: Record<string, unknown> }>;

const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 3;

/**
 * Runs long tasks stored as rows. Keep in mind:
 * - a task is claimed with FOR UPDATE SKIP LOCKED, so among several processes exactly one runs it;
 * - the claim is a lease renewed while the task runs; a task whose lease ran out (its process died) is
 *   claimed again, so a task survives a restart; handlers are idempotent for that reason;
 * - an error meant for the customer fails the task at once; an unexpected one is retried a few times.
 */
export function createTaskRunner<J extends JobTypes>(deps: {
  db: Db;
  /** Every job name, each of which must get exactly one handler before the runner is used. */
  names: ReadonlyArray<keyof J & string>;
  log: { info: (o: object, m: string) => void; error: (o: object, m: string) => void };
  pollMs?: number;
  concurrency?: number;
  /** Claims after which an unexpectedly failing task is failed for good (default 3; Infinity: the handler decides). */
  maxAttempts?: number;
}) {
  const { db, log } = deps;
  const handlers = new Map<string, JobHandler<never, Record<string, unknown>>>();
  const workerId = PROCESS_OWNER;
  const pollMs = deps.pollMs ?? 1000;
  const concurrency = deps.concurrency ?? 2;
  const maxAttempts = deps.maxAttempts ?? MAX_ATTEMPTS;
  // A runner claims only its own jobs: the webhook lane's slow endpoints never hold up a customer's parse.
  const mineByName = inArray(longTasks.name, [...deps.names]);
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  const active = new Set<Promise<void>>();
  /** The tasks this runner is running now (the process's other runners share its lease owner). */
  const runningIds = new Set<string>();
  const abort = new AbortController();

  async function claim() {
    const rows = (await db.execute(sql`
      update ${longTasks} set status = 'running', locked_by = ${workerId},
        locked_until = now() + make_interval(secs => ${LEASE_MS / 1000}), attempts = attempts + 1, updated_at = now()
      where id = (
        select id from ${longTasks}
        where status in ('queued', 'running') and (locked_until is null or locked_until < now()) and ${mineByName}
        order by created_at
        for update skip locked
        limit 1)
      returning id, hub_id, name, payload, attempts`)) as unknown as { rows: unknown[] };
    const r = rows.rows[0] as { id: string; hub_id: number; name: string; payload: Record<string, unknown>; attempts: number } | undefined;
    return r;
  }

  async function runOne(task: { id: string; hub_id: number; name: string; payload: Record<string, unknown>; attempts: number }) {
    const mine = and(eq(longTasks.id, task.id), eq(longTasks.lockedBy, workerId));
    const renew = setInterval(() => {
      db.update(longTasks).set({ lockedUntil: sql`now() + make_interval(secs => ${LEASE_MS / 1000})` }).where(mine).catch(() => {});
    }, LEASE_MS / 3);
    let lastWrite = 0;
    let pending: { done: number; total: number } | undefined;
    // Progress is written one write at a time, in order, and the task is finished after the last: on a
    // pool, an earlier write that landed late overwrote a later one, and a finished task said 0 of 60.
    let writing: Promise<unknown> = Promise.resolve();
    const flush = () => {
      if (!pending) return;
      const p = pending;
      pending = undefined;
      lastWrite = Date.now();
      writing = writing.then(() => db.update(longTasks).set({ progressDone: p.done, progressTotal: p.total, updatedAt: new Date() }).where(mine)).catch(() => {});
    };
    try {
      if (task.attempts > maxAttempts) throw new AppError(500, 'too-many-attempts', '任务多次失败，请重新上传');
      const handler = handlers.get(task.name);
      if (!handler) throw new AppError(500, 'unknown-job', `unknown job ${task.name}`);
      const result = await handler(task.payload as never, {
        taskId: task.id, hubId: task.hub_id, signal: abort.signal, attempt: task.attempts,
        progress: (done, total) => {
          pending = { done, total };
          if (Date.now() - lastWrite > 250) flush();
        },
      });
      flush();
      await writing;
      await db.update(longTasks).set({ status: 'finished', result, lockedUntil: null, updatedAt: new Date(),
        progressDone: sql`greatest(${longTasks.progressDone}, ${longTasks.progressTotal})` }).where(mine);
    } catch (err) {
      const userFacing = !(err instanceof RetryLater)
        && (err instanceof MediaError || (err instanceof AppError && err.status < 500) || task.attempts >= maxAttempts);
      if (abort.signal.aborted) {
        // Shutting down: leave it to be claimed again after the lease.
      } else if (err instanceof RetryLater) {
        // Queued again, unleased: any process takes it once the wait is over (and a restart does not hurry it).
        await db.update(longTasks).set({ status: 'queued', lockedBy: null, error: err.message, updatedAt: new Date(),
          lockedUntil: sql`now() + make_interval(secs => ${err.delayMs / 1000})` }).where(mine).catch(() => {});
      } else if (userFacing) {
        const message = err instanceof Error && (err instanceof MediaError || err instanceof AppError) ? err.message : '任务执行失败，请重新上传';
        await db.update(longTasks).set({ status: 'failed', error: message, lockedUntil: null, updatedAt: new Date() }).where(mine).catch(() => {});
      } else {
        log.error({ err, taskId: task.id }, 'task failed; it will be retried');
        await db.update(longTasks).set({ lockedUntil: sql`now() + interval '2 seconds'`, updatedAt: new Date() }).where(mine).catch(() => {});
      }
    } finally {
      clearInterval(renew);
    }
  }

  async function tick() {
    timer = undefined;
    if (stopped) return;
    try {
      while (!stopped && runningIds.size < concurrency) {
        const task = await claim();
        if (!task) break;
        runningIds.add(task.id);
        const p = runOne(task).finally(() => {
          runningIds.delete(task.id);
          active.delete(p);
          poke();
        });
        active.add(p);
      }
    } catch (err) {
      log.error({ err }, 'task claim failed');
    }
    if (!stopped && !timer) timer = setTimeout(tick, pollMs);
  }

  /**
   * A task leased by a process of this host that is gone (killed, crashed: see isDeadHere) is free now rather than
   * when its lease runs out, so a restart goes on with the customer's parse at once. Leases of
   * other hosts are left to run out: their processes cannot be seen from here.
   */
  async function reclaimDead() {
    const held = await db.select({ id: longTasks.id, lockedBy: longTasks.lockedBy }).from(longTasks)
      .where(and(eq(longTasks.status, 'running'), mineByName, sql`${longTasks.lockedBy} like ${`${HOST_PREFIX}%`}`, sql`${longTasks.lockedUntil} > now()`));
    const dead = held.filter((t) => isDeadHere(t.lockedBy));
    for (const t of dead) {
      await db.update(longTasks).set({ lockedUntil: null }).where(and(eq(longTasks.id, t.id), eq(longTasks.lockedBy, t.lockedBy!)));
    }
    if (dead.length) log.info({ tasks: dead.map((t) => t.id) }, 'took back the tasks of dead processes');
  }

  function poke() {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, 0);
  }

  return {
    workerId,
    /** Gives job `name` its handler; a name registered twice, or not known, stops the server. */
    register<N extends keyof J & string>(name: N, handler: JobHandler<J[N]['payload'], J[N]['result']>) {
      if (!deps.names.includes(name)) throw new Error(`job ${name} is not one of the known jobs (${deps.names.join(', ')})`);
      if (handlers.has(name)) throw new Error(`job ${name} has two handlers`);
      handlers.set(name, handler as JobHandler<never, Record<string, unknown>>);
    },
    /** Refuses to go on (at start-up) while a known job has no handler. */
    assertComplete() {
      const missing = deps.names.filter((n) => !handlers.has(n));
      if (missing.length) throw new Error(`no handler for the job${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
    },
    async enqueue<N extends keyof J & string>(hubId: number, name: N, payload: J[N]['payload']): Promise<string> {
      const id = randomUUID();
      await db.insert(longTasks).values({ id, hubId, name, payload: payload as Record<string, unknown> });
      poke();
      return id;
    },
    /**
     * Adds tasks inside the caller's transaction (an outbox: the task exists exactly when what caused it
     * does). Call poke() after the commit; until then the poll finds them.
     */
    async insertIn<N extends keyof J & string>(tx: Inserter, tasks: ReadonlyArray<{ hubId: number; name: N; payload: J[N]['payload'] }>): Promise<string[]> {
      const rows = tasks.map((t) => ({ id: randomUUID(), hubId: t.hubId, name: t.name, payload: t.payload as Record<string, unknown> }));
      for (let i = 0; i < rows.length; i += 500) await tx.insert(longTasks).values(rows.slice(i, i + 500));
      return rows.map((r) => r.id);
    },
    /** Looks for work now rather than at the next poll. */
    poke,
    async get(hubId: number, id: string) {
      const [t] = await db.select().from(longTasks).where(and(eq(longTasks.id, id), eq(longTasks.hubId, hubId), mineByName));
      return t;
    },
    /** Starts claiming, after taking back the leases of this host's dead processes (see reclaimDead). */
    start() {
      if (!stopped) return;
      stopped = false;
      reclaimDead().catch((err: unknown) => log.error({ err }, 'could not reclaim the tasks of dead processes')).finally(poke);
    },
    /** Stops claiming; waits for running tasks (up to graceMs), then abandons them to be re-run. */
    async stop(graceMs = 20_000) {
      stopped = true;
      if (timer) clearTimeout(timer);
      const all = Promise.all(active);
      const timeout = new Promise((r) => setTimeout(r, graceMs).unref());
      await Promise.race([all, timeout]);
      abort.abort();
      // What is still running here is given back at once, for the next process to take, and its claim uncounted:
      // a stop is no failure of the task (a task stopped by four restarts failed as 任务多次失败). A process that
      // dies instead (kill -9, a crash) keeps its claims counted: the task may be what kills it.
      if (runningIds.size === 0) return;
      await db.update(longTasks).set({ lockedUntil: null, attempts: sql`greatest(${longTasks.attempts} - 1, 0)` })
        .where(and(eq(longTasks.lockedBy, workerId), eq(longTasks.status, 'running'), inArray(longTasks.id, [...runningIds]))).catch(() => {});
    },
  };
}
export type TaskRunner = ReturnType<typeof createTaskRunner>;
