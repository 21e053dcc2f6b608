import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { serverFile } from '../paths.ts';

/**
 * PGlite on its own thread (db/pglite-worker.mjs), with the calls Drizzle's PGlite driver makes:
 * `query(sql, params, {rowMode, parsers})` and `transaction(fn)`.
 *
 * Why: PGlite is PostgreSQL compiled to WebAssembly. In the server's thread every statement's parse,
 * plan and execution, and the garbage of its glue, ran on the event loop: measured on a 500 MB
 * upload, 0.4 s of the main thread's 0.96 s per batch, against 0.55 s on PostgreSQL, and the
 * catalogue picker's p50 (docs/decisions.md, Stack; bench/HISTORY.md). On its own thread the engine runs beside
 * the HTTP work, and a long statement no longer stalls every other request.
 *
 * Keep in mind:
 * - parsers are functions and cannot cross threads: the worker leaves a column of a type with a
 *   parser as PostgreSQL's text, and the parser runs here on it (Drizzle passes ones that keep the
 *   text of dates and intervals);
 * - an error comes back as an Error with the database error's fields (code, detail, constraint…);
 * - a transaction is held open in the worker until `fn` settles here; meanwhile PGlite runs no
 *   other statement, as in one thread;
 * - the worker keeps the process alive only while a call is waiting for it.
 */
export type PgliteResults = { rows: unknown[]; fields: Array<{ name: string; dataTypeID: number }>; affectedRows?: number };
type QueryOptions = { rowMode?: 'array' | 'object'; parsers?: Record<number, (value: string, typeId?: number) => unknown> };

export interface PgliteTransaction {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<PgliteResults>;
  /** Rolls the transaction back once `fn` returns (Drizzle rolls back by throwing, and never calls this). */
  rollback(): Promise<void>;
}

export interface PgliteThread {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<PgliteResults>;
  transaction<T>(fn: (tx: PgliteTransaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: Record<string, unknown> & { name: string; message: string } };

const WORKER_URL = pathToFileURL(serverFile('src/db/pglite-worker.mjs'));

/** The worker's error as an Error of this thread, with the database's fields (code, detail…) on it. */
function revive(data: Record<string, unknown> & { name: string; message: string }): Error {
  const { name, message, stack, ...fields } = data;
  const err = Object.assign(new Error(message), fields);
  err.name = name;
  if (typeof stack === 'string') err.stack = `${err.stack}\n    at (PGlite thread)\n${stack}`;
  return err;
}

/** Runs the parsers the worker left to this thread over the columns of their types. */
function parse(result: PgliteResults, options: QueryOptions | undefined): PgliteResults {
  const parsers = options?.parsers;
  if (!parsers) return result;
  const columns = result.fields.flatMap((f, i) => (parsers[f.dataTypeID] ? [{ i, name: f.name, parser: parsers[f.dataTypeID]!, type: f.dataTypeID }] : []));
  if (columns.length === 0) return result;
  const arrays = options?.rowMode === 'array';
  for (const row of result.rows as Array<Record<string | number, unknown>>) {
    for (const c of columns) {
      const key = arrays ? c.i : c.name;
      const value = row[key];
      if (typeof value === 'string') row[key] = c.parser(value, c.type);
    }
  }
  return result;
}

export async function openPgliteThread(o: { dataDir: string; startParams: string[]; loadDataDir?: Blob }): Promise<PgliteThread> {
  const worker = new Worker(WORKER_URL, { workerData: { dataDir: o.dataDir, startParams: o.startParams, loadDataDir: o.loadDataDir } });
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let failure: Error | null = null;

  const settle = (answer: Answer) => {
    const call = waiting.get(answer.id);
    if (!call) return;
    waiting.delete(answer.id);
    if (waiting.size === 0) worker.unref();
    if (answer.ok) call.resolve(answer.value);
    else call.reject(revive(answer.error));
  };
  const fail = (err: Error) => {
    failure ??= err;
    for (const call of waiting.values()) call.reject(failure);
    waiting.clear();
  };
  worker.on('message', settle);
  worker.on('error', (err) => fail(new Error(`the PGlite thread failed: ${err.message}`, { cause: err })));
  worker.on('exit', (code) => fail(new Error(`the PGlite thread ended (exit code ${code})`)));

  const call = <T>(message: Record<string, unknown>, id = nextId++): Promise<T> => {
    if (failure) return Promise.reject(failure);
    return new Promise<T>((resolve, reject) => {
      if (waiting.size === 0) worker.ref();
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      if (id !== 0) worker.postMessage({ ...message, id });
    });
  };
  // Id 0 is the worker's answer to its start: PGlite open (or why not).
  await call({}, 0);

  const query = (txId: number | undefined) => async (sql: string, params: unknown[] = [], options?: QueryOptions) => {
    const text = options?.parsers ? Object.keys(options.parsers).map(Number) : [];
    const result = await call<PgliteResults>({ op: 'query', sql, params, rowMode: options?.rowMode ?? 'object', text, txId });
    return parse(result, options);
  };

  return {
    query: query(undefined),
    async transaction<T>(fn: (tx: PgliteTransaction) => Promise<T>): Promise<T> {
      const txId = await call<number>({ op: 'begin' });
      let rolledBack = false;
      const tx: PgliteTransaction = {
        query: query(txId),
        rollback: async () => {
          rolledBack = true;
        },
      };
      let value: T;
      try {
        value = await fn(tx);
      } catch (err) {
        // The error that made the rollback is the one to report, whatever the rollback answers.
        await call({ op: 'end', txId, commit: false }).catch(() => undefined);
        throw err;
      }
      await call({ op: 'end', txId, commit: !rolledBack });
      return value;
    },
    async close() {
      if (failure) return;
      await call({ op: 'close' });
      await worker.terminate();
    },
  };
}
