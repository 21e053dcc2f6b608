import pg from 'pg';
import type { BenchContext } from './types.ts';

/** Where a PostgreSQL server is looked for: the tests' and CI's local PostgreSQL unless BENCH_DATABASE_URL says otherwise. */
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, empty PostgreSQL database for one benchmark, dropped when it ends; null (with the reason
 * logged) when no PostgreSQL answers at ADMIN_URL.
 */
export async function tempDatabase(ctx: BenchContext): Promise<string | null> {
  const name = `portal_bench_${process.pid}_${Date.now() % 1_000_000}`;
  try {
    await admin((c) => c.query(`create database ${name}`));
  } catch (err) {
    ctx.log(`no PostgreSQL at ${new URL(ADMIN_URL).host} (${err instanceof Error ? err.message : String(err)}): set BENCH_DATABASE_URL to measure on PostgreSQL`);
    return null;
  }
  ctx.defer(() => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined));
  return withDatabase(ADMIN_URL, name);
}
