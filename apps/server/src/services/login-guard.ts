import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { loginFailures } from '../db/schema/index.ts';

/**
 * Failed logins, counted in the database so that every process of the shop shares them. Keep in mind:
 * - guesses are limited per login and client address: after `maxFailures` within the window that
 *   address gets 429 for that login, even with the right password, until the window ends; other
 *   addresses are not touched, so an attacker can lock out only themselves;
 * - a login guessed at from many addresses (failures of the login within the window reach
 *   `maxFailures × ATTACKED_FACTOR`) is slowed down, not locked: every try of it waits `slowdownMs`
 *   before its answer, and its real owner still gets in;
 * - a success forgets that address's failures for the login.
 */
const ATTACKED_FACTOR = 4;

export type LoginVerdict = { retryAfterSeconds: number; slowdownMs: number };

export function createLoginGuard(db: Db, o: { maxFailures: number; windowSeconds: number; slowdownMs?: number }) {
  const window = sql.raw(`interval '${Math.floor(o.windowSeconds)} seconds'`);
  const slowdownMs = o.slowdownMs ?? 1000;
  const key = (login: string) => login.trim().toLowerCase();
  let failuresSincePrune = 0;

  return {
    /** Whether a try of `login` from `address` may go ahead, and how long to hold it first. */
    async check(address: string, login: string): Promise<LoginVerdict> {
      const [own, all] = await Promise.all([
        db.select({ count: loginFailures.count, left: sql<number>`extract(epoch from ${loginFailures.windowStart} + ${window} - now())` })
          .from(loginFailures)
          .where(and(eq(loginFailures.login, key(login)), eq(loginFailures.address, address), gt(loginFailures.windowStart, sql`now() - ${window}`))),
        db.select({ n: sql<number>`coalesce(sum(${loginFailures.count}), 0)::int` }).from(loginFailures)
          .where(and(eq(loginFailures.login, key(login)), gt(loginFailures.windowStart, sql`now() - ${window}`))),
      ]);
      const mine = own[0];
      const retryAfterSeconds = mine && mine.count >= o.maxFailures ? Math.max(1, Math.ceil(Number(mine.left))) : 0;
      const attacked = (all[0]?.n ?? 0) >= o.maxFailures * ATTACKED_FACTOR;
      return { retryAfterSeconds, slowdownMs: attacked ? slowdownMs : 0 };
    },

    async fail(address: string, login: string) {
      const stale = sql`${loginFailures.windowStart} <= now() - ${window}`;
      await db.insert(loginFailures).values({ login: key(login), address, count: 1 }).onConflictDoUpdate({
        target: [loginFailures.login, loginFailures.address],
        set: {
          count: sql`case when ${stale} then 1 else ${loginFailures.count} + 1 end`,
          windowStart: sql`case when ${stale} then now() else ${loginFailures.windowStart} end`,
        },
      });
      // Old windows go now and then, not on every failure.
      if (++failuresSincePrune >= 100) {
        failuresSincePrune = 0;
        await db.delete(loginFailures).where(lt(loginFailures.windowStart, sql`now() - ${window}`));
      }
    },

    async succeed(address: string, login: string) {
      await db.delete(loginFailures).where(and(eq(loginFailures.login, key(login)), eq(loginFailures.address, address)));
    },
  };
}
export type LoginGuard = ReturnType<typeof createLoginGuard>;
