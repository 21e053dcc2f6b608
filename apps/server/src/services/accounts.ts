import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { customerHubs, users } from '../db/schema/index.ts';
import { verifyPassword } from '../db/seed/passwords.ts';
import { notFound } from '../errors.ts';

export function createAccountService(db: Db) {
  return {
    /** The user when the password is right, else null (the caller answers 401 without saying which was wrong). */
    async verifyLogin(login: string, password: string) {
      const [u] = await db.select().from(users).where(eq(users.login, login));
      if (!u) return null;
      return (await verifyPassword(password, u.passwordHash)) ? u : null;
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
