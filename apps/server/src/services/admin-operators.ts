import { eq, sql } from 'drizzle-orm';
import { SERVER_MSG, type AdminOperator } from '@portal/contract';
import type { Db } from '../db/client.ts';
import { operators } from '../db/schema/index.ts';
import { checkPassword } from '../db/seed/customers.ts';
import { addOperator } from '../db/seed/operators.ts';
import { hashPassword } from '../db/seed/passwords.ts';
import { conflict, notFound } from '../errors.ts';
import { seedRefusal } from './admin-hubs.ts';
import type { AccountService } from './accounts.ts';

const GONE = '员工账号不存在';

/**
 * The shop's staff logins (员工账号), administered by any operator as a hub's customer logins are (admin-hubs.ts):
 * added with add-operator's rules (db/seed/operators.ts), disabled or enabled, given a new password. Disabling and a new
 * password end the login's sessions on their next call (its token version; accounts.forget for this process).
 * `callerId`: the operator making the call, whose row is marked `self` and who cannot disable it.
 */
export function createAdminOperatorService(db: Db, accounts: AccountService) {
  const row = { id: operators.id, login: operators.login, disabled: operators.disabled, createdAt: operators.createdAt };
  const out = (r: { id: number; login: string; disabled: boolean; createdAt: Date }, callerId: number): AdminOperator =>
    ({ ...r, createdAt: r.createdAt.toISOString(), self: r.id === callerId });
  async function byId(id: number, callerId: number) {
    const [r] = await db.select(row).from(operators).where(eq(operators.id, id));
    if (!r) throw notFound(GONE);
    return out(r, callerId);
  }
  const refusalOf = seedRefusal;

  return {
    async list(callerId: number): Promise<AdminOperator[]> {
      const rows = await db.select(row).from(operators).orderBy(operators.id);
      return rows.map((r) => out(r, callerId));
    },

    async add(callerId: number, input: { login: string; password: string }): Promise<AdminOperator> {
      try {
        const r = await addOperator(db, input);
        return await byId(r.id, callerId);
      } catch (e) {
        throw refusalOf(e);
      }
    },

    /** A new password; the login's tokens given out before stop working (its token version moves on). */
    async resetPassword(callerId: number, id: number, password: string): Promise<AdminOperator> {
      try {
        checkPassword(password);
      } catch (e) {
        throw refusalOf(e);
      }
      const passwordHash = await hashPassword(password);
      const [o] = await db.update(operators).set({ passwordHash, tokenVersion: sql`${operators.tokenVersion} + 1` })
        .where(eq(operators.id, id)).returning({ id: operators.id });
      if (!o) throw notFound(GONE);
      accounts.forget('operator', id);
      return byId(id, callerId);
    },

    /**
     * Disables (or enables) a login: it cannot log in, and its tokens are refused from the next call on. Neither the
     * caller's own login nor the last enabled one: the shop would be locked out of its console (only
     * `add-operator --reset` would let it back in).
     */
    async setDisabled(callerId: number, id: number, disabled: boolean): Promise<AdminOperator> {
      if (disabled && id === callerId) throw conflict(SERVER_MSG.operatorDisableSelf, 'self');
      await db.transaction(async (tx) => {
        if (disabled) {
          // The enabled logins' rows locked, in one order, to the transaction's end: two operators disabling each other
          // at once would each see the other still enabled, and leave none (PostgreSQL; a waiting lock re-reads the row).
          const enabled = await tx.select({ id: operators.id }).from(operators).where(eq(operators.disabled, false)).orderBy(operators.id).for('update');
          if (enabled.some((o) => o.id === id) && enabled.every((o) => o.id === id)) throw conflict(SERVER_MSG.lastOperator, 'last-operator');
        }
        const [o] = await tx.update(operators).set({ disabled }).where(eq(operators.id, id)).returning({ id: operators.id });
        if (!o) throw notFound(GONE);
      });
      accounts.forget('operator', id);
      return byId(id, callerId);
    },
  };
}
export type AdminOperatorService = ReturnType<typeof createAdminOperatorService>;
