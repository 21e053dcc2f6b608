// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs here, so a
// statement's parse, plan and execution never hold up the server's event loop (db/pglite-thread.ts
// is the other end, and says why). Plain JavaScript: a worker thread does not inherit the TypeScript
// loader under every runner (Vitest's forks do not), and this file is small.
//
// Messages in:  { id, op: 'query', sql, params, rowMode, text: number[], txId? }
//               { id, op: 'begin' } → a transaction's id; { id, op: 'end', txId, commit }; { id, op: 'close' }
// Messages out: { id, ok: true, value } or { id, ok: false, error: { name, message, ...the error's fields } }
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse, protocol } from '@electric-sql/pglite';

const { dataDir, startParams, loadDataDir } = workerData;
const keepText = (value) => value;

/** Open transactions by id: the PGlite transaction, and how the main thread wants it to end. */
const transactions = new Map();
let nextTxId = 1;

/**
 * Transactions begun and not yet ended. PGlite is one session: a prepared statement from outside a
 * transaction must not run while one is open, or it would run inside it. PGlite's public
 * runExclusive() holds only its query lock (a transaction holds it only statement by statement), so
 * this thread waits for no open transaction itself; then, in the same tick, it queues on the query
 * lock, where a transaction begun later queues its BEGIN behind it (the lock is first come, first
 * served).
 */
let openTransactions = 0;
let whenNoTransaction = [];
async function outsideTransactions() {
  while (openTransactions > 0) await new Promise((resolve) => whenNoTransaction.push(resolve));
}

/** An error as plain data: its own fields (code, detail, constraint…) survive the trip, functions do not. */
function plain(err) {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const out = { name: err.name, message: err.message, stack: err.stack };
  for (const [key, value] of Object.entries(err)) {
    if (key === 'queryOptions' || typeof value === 'function') continue;
    try {
      structuredClone(value);
      out[key] = value;
    } catch {
      // Not cloneable: left out.
    }
  }
  return out;
}

const ROLLBACK = Symbol('rollback');

/**
 * Statements run often are prepared once, by name. PGlite's own query() sends six protocol
 * messages per statement, each its own trip into the WebAssembly, with an unnamed Parse that parses,
 * analyses and plans the text anew every time. A prepared one is a single trip: Bind, Execute, Sync.
 * Keep in mind:
 * - a text is prepared the second time it comes, so statements run once (most of a migration,
 *   one-off reports) take PGlite's own path and are never kept;
 * - at most PREPARED_MAX texts are kept, for the life of the thread: PostgreSQL plans a prepared
 *   statement again by itself when a table it reads changes, except when its rows change shape
 *   (then it refuses, and the text is prepared anew: see query());
 * - a named statement outlives a rolled-back transaction (PostgreSQL's rule), so one prepared inside
 *   a transaction stays good.
 */
const PREPARED_MAX = 500;
const seen = new Set();
const prepared = new Map();
let statements = 0;

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Parses and describes `text` as a named statement: its parameter types and, for one that answers rows, its row description. */
async function prepare(db, text) {
  const name = `portal_${++statements}`;
  const { messages } = await db.execProtocol(concat([protocol.serialize.parse({ name, text }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync()]), { syncToFs: false });
  const statement = {
    name,
    types: parse.parseDescribeStatementResults(messages),
    rowDescription: messages.find((m) => m.name === 'rowDescription'),
  };
  prepared.set(text, statement);
  return statement;
}

/** PGlite's query(), for a statement run before: the same answer, in one trip (see PREPARED_MAX). */
async function runPrepared(db, statement, params, options, inTransaction) {
  const values = params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serializer = db.serializers[statement.types[i]];
    return serializer ? serializer(value) : value.toString();
  });
  const { messages } = await db.execProtocol(concat([
    protocol.serialize.bind({ statement: statement.name, values }), protocol.serialize.execute({}), protocol.serialize.sync(),
  ]), { syncToFs: false });
  if (!inTransaction) await db.syncToFs();
  const answer = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
  return parse.parseResults(answer, db.parsers, options)[0];
}

/** One statement, prepared when it comes again (see PREPARED_MAX), else by PGlite's own path. */
async function query(db, tx, text, params, options) {
  let statement = prepared.get(text);
  if (!statement && seen.has(text) && prepared.size < PREPARED_MAX) statement = 'prepare';
  if (!statement) {
    if (seen.size < PREPARED_MAX * 4) seen.add(text);
    return (tx ?? db).query(text, params, options);
  }
  // Exclusive as PGlite's own query() is: inside a transaction (whose lock is held) the query lock
  // only; outside, after every open transaction (see openTransactions).
  if (!tx) await outsideTransactions();
  const answer = await db.runExclusive(async () => {
    const s = statement === 'prepare' ? (prepared.get(text) ?? (await prepare(db, text))) : statement;
    try {
      return await runPrepared(db, s, params, options, tx !== undefined);
    } catch (err) {
      // A table it reads changed the shape of its rows ("cached plan must not change result type"):
      // forgotten, so the next time prepares it anew. Outside a transaction PGlite's own path answers
      // this time; inside one, the failed statement has aborted it, so the error stands.
      if (err?.code !== '0A000' || !/cached plan/.test(err.message)) throw err;
      if (prepared.get(text) === s) prepared.delete(text);
      if (tx) throw err;
      await db.execProtocol(concat([protocol.serialize.close({ type: 'S', name: s.name }), protocol.serialize.sync()]), { syncToFs: false });
      return null;
    }
  });
  return answer ?? (tx ?? db).query(text, params, options);
}

async function begin(db) {
  const txId = nextTxId++;
  let started;
  const opened = new Promise((resolve) => (started = resolve));
  let finish;
  const ending = new Promise((resolve) => (finish = resolve));
  // The transaction stays open until the main thread's 'end': PGlite commits when this callback
  // returns and rolls back when it throws.
  openTransactions++;
  const done = db.transaction(async (tx) => {
    transactions.set(txId, { tx, finish, done: undefined });
    started();
    if (!(await ending)) throw ROLLBACK;
  }).catch((err) => {
    if (err !== ROLLBACK) throw err;
  }).finally(() => {
    transactions.delete(txId);
    if (--openTransactions > 0) return;
    const waiting = whenNoTransaction;
    whenNoTransaction = [];
    for (const resolve of waiting) resolve();
  });
  // A transaction that could not even begin answers its error now.
  await Promise.race([opened, done]);
  const entry = transactions.get(txId);
  if (!entry) throw new Error('the transaction could not begin');
  entry.done = done;
  return txId;
}

async function handle(db, msg) {
  switch (msg.op) {
    case 'query': {
      const tx = msg.txId === undefined ? undefined : transactions.get(msg.txId)?.tx;
      if (msg.txId !== undefined && !tx) throw new Error('the transaction has ended');
      const parsers = {};
      for (const oid of msg.text) parsers[oid] = keepText;
      return query(db, tx, msg.sql, msg.params, { rowMode: msg.rowMode, parsers });
    }
    case 'begin':
      return begin(db);
    case 'end': {
      const entry = transactions.get(msg.txId);
      if (!entry) throw new Error('the transaction has ended');
      entry.finish(msg.commit);
      await entry.done;
      return null;
    }
    case 'close':
      await db.close();
      return null;
    default:
      throw new Error(`unknown operation ${msg.op}`);
  }
}

let db;
try {
  db = await PGlite.create(dataDir, { ...(loadDataDir ? { loadDataDir } : {}), startParams: [...PGlite.defaultStartParams, ...startParams] });
} catch (err) {
  parentPort.postMessage({ id: 0, ok: false, error: plain(err) });
  process.exit(1);
}
parentPort.on('message', (msg) => {
  handle(db, msg).then(
    (value) => parentPort.postMessage({ id: msg.id, ok: true, value }),
    (err) => parentPort.postMessage({ id: msg.id, ok: false, error: plain(err) }),
  );
});
parentPort.postMessage({ id: 0, ok: true, value: null });
