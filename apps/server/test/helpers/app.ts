import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDb, type DbHandle } from '../../src/db/client.ts';
import { PG_ADMIN_URL, withDatabase } from '../global-setup.ts';
import { remote } from './remote.ts';

export type DbKind = 'pglite' | 'postgres';
export const DB_KINDS: DbKind[] = ['pglite', 'postgres'];

let counter = 0;

export type TestApp = {
  app: FastifyInstance;
  url: string;
  config: Config;
  db: DbHandle;
  /** fetch against the running server; JSON bodies are sent as JSON. */
  call: (method: string, path: string, opts?: { token?: string; body?: unknown; headers?: Record<string, string> }) => Promise<Response>;
  login: (username: string, password: string) => Promise<string>;
  close: () => Promise<void>;
  /** Stops the server but keeps its data, for a restart with startApp(kind, env, t.keep). */
  stop: () => Promise<void>;
  keep: { dataDir: string; databaseUrl?: string; dbName?: string };
};

/**
 * A real server on a free port over a real database: a copy of the prepared PGlite DATA_DIR, or a fresh
 * PostgreSQL database cloned from the prepared template.
 */
export async function startApp(kind: DbKind, env: Record<string, string> = {}, reuse?: { dataDir: string; databaseUrl?: string; dbName?: string }): Promise<TestApp> {
  let dataDir = reuse?.dataDir ?? '';
  if (!reuse) {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-test-'));
    await cp(inject('pgliteTemplateDir'), dataDir, { recursive: true });
  }
  let dbName: string | undefined = reuse?.dbName;
  let databaseUrl: string | undefined = reuse?.databaseUrl;
  if (kind === 'postgres' && !reuse) {
    dbName = `portal_test_${process.pid}_${++counter}_${Date.now() % 100000}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${dbName} template ${inject('pgTemplateDb')}`);
    await admin.end();
    databaseUrl = withDatabase(PG_ADMIN_URL, dbName);
  }
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SEED_DEMO: 'true', DATABASE_URL: databaseUrl, ...env });
  const db = await openDb(databaseUrl ? { databaseUrl } : { dataDir });
  const app = await buildApp(config, { db, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const { call, login } = remote(url);

  return {
    app, url, config, db, call, login,
    keep: { dataDir, databaseUrl, dbName },
    async stop() {
      // Responses a test never read would keep their connections, and close() would wait for them.
      app.server.closeAllConnections();
      await app.close();
      await db.close();
    },
    async close() {
      if (app.server.listening) {
        app.server.closeAllConnections();
        await app.close();
      }
      await db.close().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
      if (dbName) {
        const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
        await admin.connect();
        await admin.query(`drop database if exists ${dbName} with (force)`);
        await admin.end();
      }
    },
  };
}
