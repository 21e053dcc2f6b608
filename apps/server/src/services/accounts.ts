import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { customerHubs, operators, users } from '../db/schema/index.ts';
import { sameLogin } from '../db/seed/customers.ts';
import { verifyPassword } from '../db/seed/passwords.ts';
import { notFound } from '../errors.ts';
import type { LoginIdentity, SessionCheck } from '../plugins/auth.ts';

/**
 * How long a process trusts what it read about a login (disabled, token version). A change made through
 * this process takes effect at once (forget); one made through another process of the shop within this.
 */
const SESSION_CACHE_MS = 5_000;

export function createAccountService(db: Db, clock: () => number = Date.now) {
  const sessions = new Map<string, { disabled: boolean; version: number; until: number }>();

  async function readSession(role: 'customer' | 'operator', id: number) {
    const key = `${role}:${id}`;
    const now = clock();
    const cached = sessions.get(key);
    if (cached && cached.until > now) return cached;
    const table = role === 'operator' ? operators : users;
    const [row] = await db.select({ disabled: table.disabled, version: table.tokenVersion }).from(table).where(eq(table.id, id));
    // A login that no longer exists is as good as disabled.
    const entry = { disabled: row?.disabled ?? true, version: row?.version ?? -1, until: now + SESSION_CACHE_MS };
    if (sessions.size > 10_000) sessions.clear();
    sessions.set(key, entry);
    return entry;
  }

  return {
    /**
     * The customer or operator when the password is right, `{disabled: role}` when right but the login is
     * disabled (a customer is told to ask the shop, the shop's staff their administrator), else null (the
     * caller answers 401 without saying which was wrong).
     */
    async verifyLogin(login: string, password: string): Promise<LoginIdentity | { disabled: LoginIdentity['role'] } | null> {
      // The login as typed, else the one login equal to it but for case (new names are unique so: db/seed/customers.ts).
      const [customers, staff] = await Promise.all([
        db.select().from(users).where(sameLogin(users.login, login)).limit(2),
        db.select().from(operators).where(sameLogin(operators.login, login)).limit(2),
      ]);
      const exact = customers.some((c) => c.login === login) || staff.some((o) => o.login === login);
      const only = <T extends { login: string }>(rows: T[]) => (exact ? rows.find((r) => r.login === login) : customers.length + staff.length === 1 ? rows[0] : undefined);
      const u = only(customers);
      if (u) {
        if (!(await verifyPassword(password, u.passwordHash))) return null;
        if (u.disabled) return { disabled: 'customer' };
        return { role: 'customer', id: u.id, login: u.login, customerId: u.customerId, hubId: u.hubId, authorities: u.authorities, tokenVersion: u.tokenVersion };
      }
      const o = only(staff);
      if (!o || !(await verifyPassword(password, o.passwordHash))) return null;
      if (o.disabled) return { disabled: 'operator' };
      return { role: 'operator', id: o.id, login: o.login, tokenVersion: o.tokenVersion };
    },
    checkSession: (async (user) => {
      const s = await readSession(user.role, user.role === 'operator' ? user.operatorId : user.userId);
      if (s.disabled) return 'disabled';
      return s.version === user.version ? 'ok' : 'stale';
    }) satisfies SessionCheck,
    /** Drops what this process remembers of a login, after it was disabled or its password reset. */
    forget(role: 'customer' | 'operator', id: number) {
      sessions.delete(`${role}:${id}`);
    },
    async hubLite(hubId: number) {
      const [h] = await db.select({ id: customerHubs.id, name: customerHubs.name, batchAddressParsing: customerHubs.batchAddressParsing })
        .from(customerHubs).where(eq(customerHubs.id, hubId));
      if (!h) throw notFound();
      return h;
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
