import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { operators } from '../schema/index.ts';
import { AddCustomerError, checkNewLogin, checkPassword, lockNames, loginTaken, sameLogin } from './customers.ts';
import { hashPassword } from './passwords.ts';

/**
 * Adds an operator login (the shop's staff: /admin, every hub). Refuses a login name taken by an operator
 * or a customer, whatever its case, since one login form serves both.
 */
export async function addOperator(db: Db, input: { login: string; password: string }): Promise<{ id: number; login: string }> {
  const login = checkNewLogin(input.login, input.password);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    await lockNames(tx);
    if (await loginTaken(tx, login)) throw new AddCustomerError(`登录名已存在：${login}`);
    const [row] = await tx.insert(operators).values({ login, passwordHash }).returning({ id: operators.id });
    if (!row) throw new Error('insert returned no row');
    return { id: row.id, login };
  });
}

/**
 * Gives an existing operator login a new password and enables it (`add-operator --reset`): the way back in for a shop
 * that lost every operator's password or disabled them all, without SQL. Its earlier tokens stop working.
 */
export async function resetOperator(db: Db, input: { login: string; password: string }): Promise<{ id: number; login: string }> {
  checkPassword(input.password);
  const login = input.login.trim();
  // The login as typed, else the one equal to it but for case (as 登录 finds it: services/accounts.ts).
  const rows = await db.select({ id: operators.id, login: operators.login }).from(operators).where(sameLogin(operators.login, login));
  const found = rows.find((r) => r.login === login) ?? (rows.length === 1 ? rows[0] : undefined);
  if (!found) throw new AddCustomerError(`没有这个操作员账号：${login}`);
  const passwordHash = await hashPassword(input.password);
  await db.update(operators).set({ passwordHash, disabled: false, tokenVersion: sql`${operators.tokenVersion} + 1` }).where(eq(operators.id, found.id));
  return found;
}
