import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openPgliteThread, type PgliteThread } from './pglite-thread.ts';

// The prepared DATA_DIR of the test run (global-setup): a migrated database, copied.
let dir: string;
let db: PgliteThread;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'portal-pglite-thread-'));
  await cp(path.join(inject('pgliteTemplateDir'), 'pglite'), dir, { recursive: true });
  db = await openPgliteThread({ dataDir: dir, startParams: [] });
  await db.query('create table t (id serial primary key, name text unique, at timestamptz, meta jsonb, data bytea, big int8)');
});
afterAll(async () => {
  await db?.close();
  await rm(dir, { recursive: true, force: true });
});

const insert = 'insert into t (name, at, meta, data, big) values ($1, $2, $3, $4, $5) returning *';

describe('PGlite on its own thread', () => {
  it('answers as PGlite does, and the same again once the statement is prepared', async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const r = await db.query(insert, [`n${i}`, new Date('2026-01-02T03:04:05Z'), JSON.stringify({ a: [i] }), Buffer.from([1, 2, i]), 9_007_199_254_740_993n]);
      answers.push(r);
    }
    for (const [i, r] of answers.entries()) {
      expect(r.affectedRows).toBe(1);
      expect(r.fields.map((f) => f.name)).toEqual(['id', 'name', 'at', 'meta', 'data', 'big']);
      const row = r.rows[0] as Record<string, unknown>;
      expect(row.name).toBe(`n${i}`);
      expect(row.at).toEqual(new Date('2026-01-02T03:04:05Z'));
      expect(row.meta).toEqual({ a: [i] });
      expect(Array.from(row.data as Uint8Array)).toEqual([1, 2, i]);
      expect(row.big).toBe(9_007_199_254_740_993n);
    }
  });

  it('runs the caller\'s parsers here on the text of their types, in array rows too', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await db.query("select name, at, null::timestamptz as none from t where name = $1", ['n0'], {
        rowMode: 'array',
        parsers: { 1184: (text: string) => `parsed:${text}` },
      });
      expect(r.rows).toEqual([['n0', 'parsed:2026-01-02 03:04:05+00', null]]);
    }
  });

  it('gives back a database error with its fields, prepared or not', async () => {
    for (let i = 0; i < 3; i++) {
      const err = await db.query(insert, ['n0', null, null, null, null]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(err).toMatchObject({ code: '23505', constraint: 't_name_key', table: 't' });
      expect((err as Error).message).toMatch(/duplicate key/);
    }
    // The session is usable after the errors.
    expect((await db.query('select count(*)::int as n from t')).rows).toEqual([{ n: 3 }]);
  });

  it('commits a transaction, and rolls one back when its function throws or asks to', async () => {
    const one = await db.transaction(async (tx) => {
      await tx.query(insert, ['tx1', null, null, null, null]);
      return (await tx.query('select count(*)::int as n from t')).rows;
    });
    expect(one).toEqual([{ n: 4 }]);
    await expect(db.transaction(async (tx) => {
      await tx.query(insert, ['tx2', null, null, null, null]);
      throw new Error('changed my mind');
    })).rejects.toThrow('changed my mind');
    await db.transaction(async (tx) => {
      await tx.query(insert, ['tx3', null, null, null, null]);
      await tx.rollback();
    });
    // A failed statement aborts the transaction, and the rollback leaves nothing.
    await expect(db.transaction(async (tx) => {
      await tx.query(insert, ['tx4', null, null, null, null]);
      await tx.query(insert, ['n0', null, null, null, null]);
    })).rejects.toMatchObject({ code: '23505' });
    const names = (await db.query('select name from t order by id')).rows.map((r) => (r as { name: string }).name);
    expect(names).toEqual(['n0', 'n1', 'n2', 'tx1']);
  });

  it('runs a prepared statement from outside a transaction only once the open one has ended', async () => {
    const count = 'select count(*)::int as n from t where name like $1';
    await db.query(count, ['iso%']);
    // Prepared now: the next one takes the prepared path.
    let outside: Promise<unknown> | undefined;
    const inside = await db.transaction(async (tx) => {
      await tx.query(insert, ['iso1', null, null, null, null]);
      outside = db.query(count, ['iso%']).then((r) => r.rows);
      // Give the outside statement every chance to slip in while the transaction is open.
      for (let i = 0; i < 5; i++) await tx.query('select pg_sleep(0.01)');
      const seen = (await tx.query(count, ['iso%'])).rows;
      await tx.rollback();
      return seen;
    });
    expect(inside).toEqual([{ n: 1 }]);
    // Run inside the rolled-back transaction it would have counted the row, or been rolled back with it.
    expect(await outside).toEqual([{ n: 0 }]);
  });

  it('prepares a statement again when a table it reads changes its columns', async () => {
    await db.query('create table shapes (a int)');
    await db.query('insert into shapes values (1)');
    for (let i = 0; i < 3; i++) expect((await db.query('select * from shapes')).rows).toEqual([{ a: 1 }]);
    await db.query('alter table shapes add column b text default \'x\'');
    for (let i = 0; i < 3; i++) expect((await db.query('select * from shapes')).rows).toEqual([{ a: 1, b: 'x' }]);
  });

  it('keeps the event loop free while a statement runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = performance.now();
    await db.query('select count(*) from generate_series(1, 3000000)');
    const ms = performance.now() - started;
    clearInterval(timer);
    // On the server's own thread the loop would not turn once until the statement ended.
    expect(ms).toBeGreaterThan(100);
    expect(ticks).toBeGreaterThan(ms / 10 / 4);
  });
});
