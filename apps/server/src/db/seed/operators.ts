import type { Db } from '../client.ts';
import { operators } from '../schema/index.ts';
import { AddCustomerError, checkNewLogin, lockNames, loginTaken } from './customers.ts';
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
