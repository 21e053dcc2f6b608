import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import type { Db } from '../src/db/client.ts';

const SERVER = fileURLToPath(new URL('..', import.meta.url));
export const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A hash of everything that shapes a fresh database, so a prepared one is reused until they change. */
function schemaHash(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      // Relative names: two clones of the same commit share their templates.
      else if (!name.endsWith('.test.ts')) h.update(path.relative(SERVER, p)).update(readFileSync(p));
    }
  };
  for (const d of ['drizzle', 'src/db', 'assets']) if (existsSync(path.join(SERVER, d))) walk(path.join(SERVER, d));
  return h.digest('hex').slice(0, 16);
}

/**
 * PGlite needs seconds to create and migrate a database, so it is done once: a migrated, seeded DATA_DIR
 * is kept in the temp folder and each test copies it. PostgreSQL gets a template database the same way.
 */
export default async function setup(project: TestProject) {
  // The drills start the server as `npm start` runs it (e2e/support/server.ts): its bundle, made once here.
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { cwd: path.join(SERVER, '../..'), stdio: 'inherit' });
  const hash = schemaHash();
  const { openDb } = await import('../src/db/client.ts');
  const { seedDemo } = await import('../src/db/seed/demo.ts');

  const templateDir = path.join(os.tmpdir(), `portal-test-datadir-${hash}`);
  await prepareDataDir(templateDir, hash, async (db, dataDir) => {
    await seedDemo(db, { dataDir });
  });
  // Migrated and empty, for the tests of the seeds and the commands (initdb alone takes seconds).
  const emptyDir = path.join(os.tmpdir(), `portal-test-datadir-${hash}-empty`);
  await prepareDataDir(emptyDir, hash, async () => {});
  project.provide('pgliteEmptyDataDir', emptyDir);
  project.provide('pgliteTemplateDir', templateDir);

  const templateDb = `portal_tpl_${hash}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [templateDb]);
    if (exists.rowCount === 0) {
      const building = `${templateDb}_b${process.pid}`;
      await admin.query(`drop database if exists ${building}`);
      await admin.query(`create database ${building}`);
      const handle = await openDb({ databaseUrl: withDatabase(PG_ADMIN_URL, building) });
      await seedDemo(handle.db, { dataDir: templateDir });
      await handle.close();
      // Another run on this machine may have built the same template meanwhile (both found none): its stays.
      await admin.query(`alter database ${building} rename to ${templateDb}`).catch(async (err: unknown) => {
        if ((err as { code?: string }).code !== '42P04') throw err;
        await admin.query(`drop database ${building}`);
      });
    }
    // Mark the template as in use now, so another run over another schema leaves it alone for a day.
    await admin.query(`comment on database ${templateDb} is '${Date.now()}'`);
    // Old templates and databases left by killed runs. Another clone's run (another schema) may be using its
    // template right now: a template is old only when no run has used it for a day.
    const stale = await admin.query(`select datname, shobj_description(oid, 'pg_database') as used from pg_database
      where datname like 'portal_t%' and datname <> $1`, [templateDb]);
    for (const r of stale.rows as Array<{ datname: string; used: string | null }>) {
      // portal_test_<pid>_<n>: dropped only when the run that made it is gone.
      // portal_tpl_<hash>_b<pid>: a template another run is building.
      const pid = Number((/^portal_test_(\d+)_/.exec(r.datname) ?? /^portal_tpl_\w+_b(\d+)$/.exec(r.datname))?.[1]);
      const oldTemplate = !pid && r.datname.startsWith('portal_tpl_') && !(Date.now() - Number(r.used ?? 0) < 24 * 3600_000);
      const orphan = oldTemplate || (pid > 0 && !isAlive(pid));
      if (orphan) await admin.query(`drop database if exists ${r.datname} with (force)`).catch(() => {});
    }
  } finally {
    await admin.end();
  }
  project.provide('pgTemplateDb', templateDb);
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Makes `dir` once per schema: a DATA_DIR whose PGlite database is migrated, then filled by `fill`. */
async function prepareDataDir(dir: string, hash: string, fill: (db: Db, dataDir: string) => Promise<void>): Promise<void> {
  if (existsSync(path.join(dir, 'ready'))) return;
  const { openDb } = await import('../src/db/client.ts');
  const building = `${dir}.${process.pid}`;
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { recursive: true });
  const handle = await openDb({ dataDir: building });
  await fill(handle.db, building);
  await handle.close();
  await writeFile(path.join(building, 'ready'), hash);
  await rm(dir, { recursive: true, force: true });
  await rename(building, dir);
}

export function withDatabase(url: string, db: string) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplateDir: string;
    pgliteEmptyDataDir: string;
    pgTemplateDb: string;
  }
}
