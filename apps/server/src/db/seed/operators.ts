import { eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { operators, users } from '../schema/index.ts';
import { AddCustomerError, checkNewLogin } from './customers.ts';
import { hashPassword } from './passwords.ts';

/**
 * Adds an operator login (the shop's staff: /admin, every hub). Refuses a login name taken by an operator
 * or a customer, since one login form serves both.
 */
export async function addOperator(db: Db, input: { login: string; password: string }): Promise<{ id: number; login: string }> {
  const login = checkNewLogin(input.login, input.password);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [customer] = await tx.select({ id: users.id }).from(users).where(eq(users.login, login));
    const [operator] = await tx.select({ id: operators.id }).from(operators).where(eq(operators.login, login));
    if (customer || operator) throw new AddCustomerError(`登录名已存在：${login}`);
    const [row] = await tx.insert(operators).values({ login, passwordHash }).returning({ id: operators.id });
    if (!row) throw new Error('insert returned no row');
    return { id: row.id, login };
  });
}
