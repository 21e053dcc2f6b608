import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';

/**
 * One advisory lock for every seeding step. Taken inside a transaction, it is released at commit, so two
 * processes starting at once on one PostgreSQL seed one after the other and the second finds the data there.
 * The lock is re-entrant within a session, so a nested step (a savepoint) may take it again.
 */
const SEED_LOCK_KEY = 7_310_001;

export async function lockSeeding(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
}
