import { and, eq, sql, type Column } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { customerHubs, customers, operators, users } from '../schema/index.ts';
import { hashPassword } from './passwords.ts';

export type AddCustomerInput = {
  /** An existing hub's id, or 'new' to create a hub named `hubName`. */
  hub: number | 'new';
  hubName?: string | undefined;
  /** Only for a new hub: per-row delivery addresses (batchAddressParsing). */
  batchAddress?: boolean | undefined;
  login: string;
  password: string;
  /** The customer the login acts for; created in the hub when no customer of the hub has this name. */
  customer?: string | undefined;
};

export type AddCustomerResult = {
  hubId: number;
  hubCreated: boolean;
  customerId: number;
  customerName: string;
  customerCreated: boolean;
  userId: number;
  login: string;
};

/** A refusal worth telling the operator as it is (existing login, unknown hub …). */
export class AddCustomerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddCustomerError';
  }
}

/** The trimmed login name when it and the password may be used for a new login; else AddCustomerError. */
export function checkNewLogin(rawLogin: string, password: string): string {
  const login = rawLogin.trim();
  if (!/^[^\s]{1,50}$/.test(login)) throw new AddCustomerError('登录名不能为空，不能含空格，最长 50 个字符');
  checkPassword(password);
  return login;
}

export function checkPassword(password: string) {
  if (password.length < 4) throw new AddCustomerError('密码至少 4 个字符');
  if (password.trim() === '') throw new AddCustomerError('密码不能全是空格');
  // bcrypt ignores everything after 72 bytes; refusing is better than silently accepting a shorter password.
  if (Buffer.byteLength(password) > 72) throw new AddCustomerError('密码最长 72 字节');
}

/** Any number the shop's database uses for nothing else (db/client.ts has the migrations'). */
const NAMES_LOCK = 7_340_102;

/**
 * Hub and customer names are checked and taken one transaction after another (a lock to the transaction's
 * end; call it inside one): a name checked free and then inserted twice at once made twins (PostgreSQL).
 */
export async function lockNames(tx: Pick<Db, 'execute'>): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${NAMES_LOCK})`);
}

/**
 * Whether a login name is taken by a customer or an operator, whatever its case: one login form serves both, and a
 * customer types `Demo` as readily as `demo` (the console made the two as two logins: console walk, 2026-11-30).
 */
export async function loginTaken(db: Pick<Db, 'select'>, login: string): Promise<boolean> {
  const [customer] = await db.select({ id: users.id }).from(users).where(sameLogin(users.login, login)).limit(1);
  const [operator] = await db.select({ id: operators.id }).from(operators).where(sameLogin(operators.login, login)).limit(1);
  return customer !== undefined || operator !== undefined;
}

/** A login column equal to `login` but for case. */
export const sameLogin = (column: Column, login: string) => sql`lower(${column}) = lower(${login})`;

/**
 * A new customer's name is no other customer's (check it in a transaction that holds `lockNames`): the catalogue's prices name customers, and two of one name
 * stopped every import (有多个客户名为…; API probe, 2026-11-30: the console made them).
 */
export async function customerNameFree(db: Pick<Db, 'select'>, name: string): Promise<void> {
  const [taken] = await db.select({ id: customers.id }).from(customers).where(eq(customers.name, name)).limit(1);
  if (taken) throw new AddCustomerError(`客户名称已存在：${name}（目录按客户名称定价，请换一个名称）`);
}

/**
 * Adds a login for a customer of a hub, creating the hub and the customer when asked to. Refuses a login
 * that exists. Everything happens in one transaction, so a refusal leaves nothing half made.
 */
export async function addCustomer(db: Db, input: AddCustomerInput): Promise<AddCustomerResult> {
  const login = checkNewLogin(input.login, input.password);
  if (input.hub === 'new' && !input.hubName?.trim()) throw new AddCustomerError('新建客户中心需要 --hub-name');
  if (input.hub !== 'new' && input.batchAddress) throw new AddCustomerError('--batch-address 只能用于 --hub new');
  const passwordHash = await hashPassword(input.password);

  try {
    return await db.transaction(async (tx) => {
      await lockNames(tx);
      if (await loginTaken(tx, login)) throw new AddCustomerError(`登录名已存在：${login}`);

      let hubId: number;
      let hubName: string;
      let hubCreated = false;
      if (input.hub === 'new') {
        hubName = input.hubName?.trim() ?? '';
        const [hub] = await tx.insert(customerHubs).values({ name: hubName, batchAddressParsing: input.batchAddress ?? false })
          .returning({ id: customerHubs.id });
        if (!hub) throw new Error('insert returned no row');
        hubId = hub.id;
        hubCreated = true;
      } else {
        const [hub] = await tx.select({ id: customerHubs.id, name: customerHubs.name }).from(customerHubs).where(eq(customerHubs.id, input.hub));
        if (!hub) throw new AddCustomerError(`客户中心不存在: ${input.hub}`);
        hubId = hub.id;
        hubName = hub.name;
      }

      const wanted = input.customer?.trim();
      let customer: { id: number; name: string } | undefined;
      let customerCreated = false;
      if (wanted) {
        [customer] = await tx.select({ id: customers.id, name: customers.name }).from(customers)
          .where(and(eq(customers.hubId, hubId), eq(customers.name, wanted))).orderBy(customers.id).limit(1);
      } else {
        const existing = await tx.select({ id: customers.id, name: customers.name }).from(customers).where(eq(customers.hubId, hubId)).orderBy(customers.id);
        if (existing.length > 1) {
          throw new AddCustomerError(`客户中心 ${hubId} 有多个客户（${existing.map((c) => c.name).join('、')}），请指定客户名称（命令行：--customer）`);
        }
        customer = existing[0];
      }
      if (!customer) {
        // A hub's first customer takes the hub's name unless told otherwise; prices are looked up by this name.
        await customerNameFree(tx, wanted || hubName);
        const [created] = await tx.insert(customers).values({ hubId, name: wanted || hubName }).returning({ id: customers.id, name: customers.name });
        if (!created) throw new Error('insert returned no row');
        customer = created;
        customerCreated = true;
      }

      const [user] = await tx.insert(users).values({ login, passwordHash, customerId: customer.id, hubId, authorities: ['ROLE_USER'] })
        .returning({ id: users.id });
      if (!user) throw new Error('insert returned no row');
      return { hubId, hubCreated, customerId: customer.id, customerName: customer.name, customerCreated, userId: user.id, login };
    });
  } catch (e) {
    // Two runs adding the same login at once: the unique index refuses the second.
    if (!(e instanceof AddCustomerError) && /users_login_uq/.test(errorText(e))) throw new AddCustomerError(`登录名已存在: ${login}`);
    throw e;
  }
}

function errorText(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  return `${e.message} ${e.cause instanceof Error ? e.cause.message : ''} ${String((e as { constraint?: unknown }).constraint ?? '')}`;
}
