import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { lockDataDir } from './data-dir-lock.ts';
import { createHubLock, type HubLock } from './hub-lock.ts';
import type { PgliteThread } from './pglite-thread.ts';
import * as schema from './schema/index.ts';
import { serverFile } from '../paths.ts';

export type Schema = typeof schema;
/** The one database type the services see, whether PGlite or PostgreSQL is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export const MIGRATIONS_DIR = serverFile('drizzle');

export type DbHandle = {
  db: Db;
  /**
   * The same database for statements whose commit need not wait for the disk (PostgreSQL's
   * synchronous_commit off, on connections of their own): a crash of the database or the machine may
   * lose their last fraction of a second, never leave them half done. Only for records that are safe
   * to lose and redo (a chunk's: services/uploads.ts). The next ordinary commit makes them durable too.
   * PGlite's is `db`.
   */
  asyncCommitDb: Db;
  kind: 'pglite' | 'postgres';
  /** A hub's file changes and orders one at a time, across the shop's processes (db/hub-lock.ts). */
  hubLock: HubLock;
  close: () => Promise<void>;
};

export type DbOptions =
  | { databaseUrl: string; poolSize?: number }
  | { dataDir: string; loadDataDir?: Blob | File };

/**
 * PostgreSQL settings of the embedded database, for its memory: PGlite runs in this process, and
 * initdb's default of 128 MB of shared buffers would be resident in it. A print shop's tables fit
 * in far less; the operating system's page cache keeps the data files warm anyway.
 */
const PGLITE_SETTINGS = ['shared_buffers=16MB', 'temp_buffers=2MB', 'wal_buffers=1MB'];

/**
 * Creates a new PGlite data directory (initdb) in a child process. initdb runs a second
 * PostgreSQL inside the first and peaks near a gigabyte resident; in a child, that peak goes
 * away with it instead of staying the server's high-water mark for good.
 */
function initPgliteInChild(dir: string): Promise<void> {
  // The CommonJS entry's folder also holds the ES module one.
  const entry = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), 'index.js')).href;
  const code = `const { PGlite } = await import(${JSON.stringify(entry)}); const db = await PGlite.create(${JSON.stringify(dir)}); await db.close();`;
  return new Promise((resolve, reject) => {
    // An empty environment: the server's preloads (NODE_OPTIONS: tsx, profilers) are of no use here.
    execFile(process.execPath, ['--input-type=module', '-e', code], { env: {}, maxBuffer: 16 * 1024 * 1024 }, (err, _stdout, stderr) => {
      if (err) reject(new Error(`PGlite could not create its database in ${dir}: ${stderr || err.message}`, { cause: err }));
      else resolve();
    });
  });
}

/** The advisory lock key the migrations are run under (any number the shop's database uses for nothing else). */
const MIGRATION_LOCK = 7_340_101;

/**
 * Opens the database and runs the committed migrations. PGlite keeps its files in DATA_DIR/pglite, for
 * one process at a time (db/data-dir-lock.ts); a DATABASE_URL switches to PostgreSQL, which processes
 * share, with the same schema and migrations. Only the driver in use is loaded: PGlite's WebAssembly
 * alone is tens of megabytes a PostgreSQL server does not need.
 */
export async function openDb(options: DbOptions): Promise<DbHandle> {
  if ('databaseUrl' in options) {
    const [{ default: pg }, { drizzle }, { migrate }] = await Promise.all([
      import('pg'), import('drizzle-orm/node-postgres'), import('drizzle-orm/node-postgres/migrator'),
    ]);
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle client losing its connection (database restarted) must not crash the process.
    pool.on('error', () => {});
    const db = drizzle(pool, { schema }) as unknown as Db;
    // Processes of one shop may start together (README, Scaling out): one migrates while the others
    // wait on a session lock, then find nothing left to do.
    const lock = await pool.connect();
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migrate(db as never, { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      lock.release();
    }
    const asyncCommitPool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10, options: '-c synchronous_commit=off' });
    asyncCommitPool.on('error', () => {});
    const asyncCommitDb = drizzle(asyncCommitPool, { schema }) as unknown as Db;
    const lockPool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    lockPool.on('error', () => {});
    const hubLock = createHubLock(lockPool);
    return { db, asyncCommitDb, kind: 'postgres', hubLock, close: async () => void (await Promise.all([pool.end(), asyncCommitPool.end(), hubLock.close()])) };
  }
  const dir = path.join(options.dataDir, 'pglite');
  await mkdir(dir, { recursive: true });
  // Before anything reads or writes PGlite's files: a second process on them destroys the database.
  const unlock = lockDataDir(options.dataDir);
  let client: PgliteThread | undefined;
  try {
    if (!options.loadDataDir && !existsSync(path.join(dir, 'PG_VERSION'))) await initPgliteInChild(dir);
    const [{ openPgliteThread }, { drizzle }, { migrate }] = await Promise.all([
      import('./pglite-thread.ts'), import('drizzle-orm/pglite'), import('drizzle-orm/pglite/migrator'),
    ]);
    client = await openPgliteThread({
      dataDir: dir,
      startParams: PGLITE_SETTINGS.flatMap((s) => ['-c', s]),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    // Drizzle's PGlite driver makes only the calls the thread's client answers (db/pglite-thread.ts).
    const db = drizzle({ client: client as never, schema }) as unknown as Db;
    await migrate(db as never, { migrationsFolder: MIGRATIONS_DIR });
    const opened = client;
    return { db, asyncCommitDb: db, kind: 'pglite', hubLock: createHubLock(), close: () => opened.close().finally(unlock) };
  } catch (err) {
    await client?.close().catch(() => undefined);
    unlock();
    throw err;
  }
}
