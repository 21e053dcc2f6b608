import { and, count, eq, isNull, ne, sql } from 'drizzle-orm';
import { isPhoneNumber, type AdminAddressRow, type AdminHub, type AdminLogin } from '@portal/contract';
import type { Db } from '../db/client.ts';
import { customerHubs, customerLocations, customers, priceLines, salesOrders, users } from '../db/schema/index.ts';
import { AddCustomerError, addCustomer, checkPassword, customerNameFree, lockNames } from '../db/seed/customers.ts';
import { hashPassword } from '../db/seed/passwords.ts';
import { AppError, conflict, notFound } from '../errors.ts';
import type { AccountService } from './accounts.ts';
import { firstUnknownRegion } from './locations.ts';

const invalid = (message: string, code = 'invalid') => new AppError(422, code, message);

/**
 * The seed's refusals (db/seed/customers.ts, operators.ts) as the console's answers, for customer and staff logins alike:
 * a taken login or customer name is 409, the rest 422; anything else as it is.
 */
export function seedRefusal(e: unknown): unknown {
  if (!(e instanceof AddCustomerError)) return e;
  if (e.message.startsWith('登录名已存在')) return conflict(e.message, 'login-taken');
  if (e.message.startsWith('客户名称已存在')) return conflict(e.message, 'customer-name-taken');
  return invalid(e.message);
}

type AddressInput = { contact: string; phone: string; province: string; city: string; district: string; address: string; isDefault: boolean };

/**
 * The operator's administration of the customer hubs, their logins and their default addresses (every
 * hub: operators are not scoped). Logins are added with the command's own rules (db/seed/customers.ts).
 */
export function createAdminHubService(db: Db, accounts: AccountService) {
  async function hubExists(hubId: number) {
    const [h] = await db.select({ id: customerHubs.id }).from(customerHubs).where(eq(customerHubs.id, hubId));
    if (!h) throw notFound('客户中心不存在');
  }
  const refusalOf = seedRefusal;
  /** The operator picks hubs by name (orders, logins, prices): two of one name would be told apart by id alone. */
  async function nameFree(tx: Pick<Db, 'select'>, name: string, hubId?: number) {
    const [taken] = await tx.select({ id: customerHubs.id }).from(customerHubs)
      .where(and(eq(customerHubs.name, name), hubId === undefined ? undefined : ne(customerHubs.id, hubId)));
    if (taken) throw conflict(`客户中心名称已存在：${name}`, 'name-taken');
  }
  const loginOut = (r: { id: number; login: string; hubId: number; customerId: number; customerName: string; disabled: boolean; createdAt: Date }): AdminLogin =>
    ({ ...r, createdAt: r.createdAt.toISOString() });
  const loginRow = {
    id: users.id, login: users.login, hubId: users.hubId, customerId: users.customerId, customerName: customers.name, disabled: users.disabled, createdAt: users.createdAt,
  };
  async function loginById(loginId: number) {
    const [r] = await db.select(loginRow).from(users).innerJoin(customers, eq(customers.id, users.customerId)).where(eq(users.id, loginId));
    if (!r) throw notFound('登录不存在');
    return loginOut(r);
  }
  async function checkAddress(a: AddressInput) {
    if (!isPhoneNumber(a.phone)) throw invalid('联系电话格式不正确', 'bad-address');
    if (await firstUnknownRegion(db, [a]) >= 0) throw invalid('省、市、区不正确，请从列表中选择', 'bad-address');
  }

  return {
    async list(): Promise<AdminHub[]> {
      const logins = db.select({ hubId: users.hubId, n: count().as('login_count') }).from(users).groupBy(users.hubId).as('logins');
      const orders = db.select({ hubId: salesOrders.hubId, n: count().as('order_count') }).from(salesOrders).groupBy(salesOrders.hubId).as('orders');
      const priced = db.select({ hubId: customers.hubId, n: sql<number>`count(distinct ${priceLines.propertyConfigId})`.as('priced_count') }).from(customers)
        .innerJoin(priceLines, and(eq(priceLines.priceType, 'customer'), eq(priceLines.entityId, customers.id))).groupBy(customers.hubId).as('priced');
      const pricedOf = db.select({ customerId: priceLines.entityId, n: count().as('price_count') }).from(priceLines)
        .where(eq(priceLines.priceType, 'customer')).groupBy(priceLines.entityId).as('priced_of');
      const [rows, names, defaults, unpriced] = await Promise.all([
        db.select({
          id: customerHubs.id, name: customerHubs.name, batchAddressParsing: customerHubs.batchAddressParsing, createdAt: customerHubs.createdAt,
          logins: logins.n, orders: orders.n, priced: priced.n,
        }).from(customerHubs)
          .leftJoin(logins, eq(logins.hubId, customerHubs.id))
          .leftJoin(orders, eq(orders.hubId, customerHubs.id))
          .leftJoin(priced, eq(priced.hubId, customerHubs.id))
          .orderBy(customerHubs.id),
        db.select({ hubId: customers.hubId, name: customers.name }).from(customers).orderBy(customers.id),
        db.selectDistinct({ hubId: customerLocations.hubId }).from(customerLocations).where(eq(customerLocations.isDefault, true)),
        // A customer with a login and no price sees 暂无 everywhere, though its hub's other customer has prices (console walk).
        db.selectDistinct({ hubId: customers.hubId, name: customers.name, id: customers.id }).from(customers)
          .innerJoin(users, eq(users.customerId, customers.id))
          .leftJoin(pricedOf, eq(pricedOf.customerId, customers.id))
          .where(isNull(pricedOf.n)).orderBy(customers.id),
      ]);
      const withDefault = new Set(defaults.map((d) => d.hubId));
      const namesOf = new Map<number, string[]>();
      for (const c of names) namesOf.set(c.hubId, [...(namesOf.get(c.hubId) ?? []), c.name]);
      const unpricedOf = new Map<number, string[]>();
      for (const c of unpriced) unpricedOf.set(c.hubId, [...(unpricedOf.get(c.hubId) ?? []), c.name]);
      // What a shop must do before a new hub can order is said on its row: a hub of the console has no price until an
      // import names its customer, and no address (a LAN walk's new customer found out at 提交订单).
      return rows.map(({ priced: n, ...r }) => ({
        ...r, createdAt: r.createdAt.toISOString(), logins: Number(r.logins ?? 0), orders: Number(r.orders ?? 0),
        customerNames: namesOf.get(r.id) ?? [], pricedSkus: Number(n ?? 0), hasDefaultAddress: withDefault.has(r.id),
        unpricedCustomers: unpricedOf.get(r.id) ?? [],
      }));
    },

    /** A new hub with its customer (prices are per customer; the customer takes the hub's name unless given). */
    async create(input: { name: string; batchAddressParsing: boolean; customerName?: string | undefined }) {
      return db.transaction(async (tx) => {
        await lockNames(tx);
        await nameFree(tx, input.name);
        await customerNameFree(tx, input.customerName || input.name).catch((e: unknown) => Promise.reject(refusalOf(e)));
        const [hub] = await tx.insert(customerHubs).values({ name: input.name, batchAddressParsing: input.batchAddressParsing }).returning({ id: customerHubs.id });
        await tx.insert(customers).values({ hubId: hub!.id, name: input.customerName || input.name });
        return { id: hub!.id };
      });
    },

    async update(hubId: number, input: { name?: string | undefined; batchAddressParsing?: boolean | undefined }) {
      const set = { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.batchAddressParsing !== undefined ? { batchAddressParsing: input.batchAddressParsing } : {}) };
      if (Object.keys(set).length === 0) throw invalid('没有要修改的内容');
      return db.transaction(async (tx) => {
        await lockNames(tx);
        if (input.name !== undefined) await nameFree(tx, input.name, hubId);
        const [h] = await tx.update(customerHubs).set(set).where(eq(customerHubs.id, hubId)).returning({ id: customerHubs.id });
        if (!h) throw notFound('客户中心不存在');
        return { id: h.id };
      });
    },

    async logins(hubId: number): Promise<AdminLogin[]> {
      await hubExists(hubId);
      const rows = await db.select(loginRow).from(users).innerJoin(customers, eq(customers.id, users.customerId)).where(eq(users.hubId, hubId)).orderBy(users.id);
      return rows.map(loginOut);
    },

    async addLogin(hubId: number, input: { login: string; password: string; customerName?: string | undefined }): Promise<AdminLogin> {
      await hubExists(hubId);
      try {
        const r = await addCustomer(db, { hub: hubId, login: input.login, password: input.password, customer: input.customerName });
        return await loginById(r.userId);
      } catch (e) {
        throw refusalOf(e);
      }
    },

    /** A new password; the login's tokens given out before stop working (its token version moves on). */
    async resetPassword(loginId: number, password: string): Promise<AdminLogin> {
      try {
        checkPassword(password);
      } catch (e) {
        throw refusalOf(e);
      }
      const passwordHash = await hashPassword(password);
      const [u] = await db.update(users).set({ passwordHash, tokenVersion: sqlIncrement() }).where(eq(users.id, loginId)).returning({ id: users.id });
      if (!u) throw notFound('登录不存在');
      accounts.forget('customer', loginId);
      return loginById(loginId);
    },

    /** A disabled login cannot log in, and its tokens are refused from the next call on. */
    async setDisabled(loginId: number, disabled: boolean): Promise<AdminLogin> {
      const [u] = await db.update(users).set({ disabled }).where(eq(users.id, loginId)).returning({ id: users.id });
      if (!u) throw notFound('登录不存在');
      accounts.forget('customer', loginId);
      return loginById(loginId);
    },

    async addresses(hubId: number): Promise<AdminAddressRow[]> {
      await hubExists(hubId);
      return db.select({
        id: customerLocations.id, hubId: customerLocations.hubId, contact: customerLocations.contact, phone: customerLocations.phone,
        province: customerLocations.province, city: customerLocations.city, district: customerLocations.district, address: customerLocations.address,
        isDefault: customerLocations.isDefault,
      }).from(customerLocations).where(eq(customerLocations.hubId, hubId)).orderBy(customerLocations.id);
    },

    /** A hub's address; a default one replaces the hub's former default (one default per hub). */
    async addAddress(hubId: number, a: AddressInput): Promise<{ id: number }> {
      await checkAddress(a);
      return db.transaction(async (tx) => {
        await lockHubAddresses(tx, hubId);
        const [customer] = await tx.select({ id: customers.id }).from(customers).where(eq(customers.hubId, hubId)).orderBy(customers.id).limit(1);
        if (!customer) throw notFound('客户中心不存在');
        if (a.isDefault) await tx.update(customerLocations).set({ isDefault: false }).where(eq(customerLocations.hubId, hubId));
        const [row] = await tx.insert(customerLocations).values({ hubId, customerId: customer.id, ...a }).returning({ id: customerLocations.id });
        return { id: row!.id };
      });
    },

    async updateAddress(addressId: number, a: AddressInput): Promise<{ id: number }> {
      await checkAddress(a);
      return db.transaction(async (tx) => {
        const [where] = await tx.select({ hubId: customerLocations.hubId }).from(customerLocations).where(eq(customerLocations.id, addressId));
        if (!where) throw notFound('地址不存在');
        await lockHubAddresses(tx, where.hubId);
        const [row] = await tx.update(customerLocations).set(a).where(eq(customerLocations.id, addressId)).returning({ id: customerLocations.id, hubId: customerLocations.hubId });
        if (!row) throw notFound('地址不存在');
        if (a.isDefault) {
          await tx.update(customerLocations).set({ isDefault: false })
            .where(and(eq(customerLocations.hubId, row.hubId), ne(customerLocations.id, addressId)));
        }
        return { id: row.id };
      });
    },

    async removeAddress(addressId: number): Promise<{ id: number }> {
      const [row] = await db.delete(customerLocations).where(eq(customerLocations.id, addressId)).returning({ id: customerLocations.id });
      if (!row) throw notFound('地址不存在');
      return { id: row.id };
    },
  };
}
export type AdminHubService = ReturnType<typeof createAdminHubService>;

/**
 * Changes to a hub's addresses one after another (its row locked to the transaction's end), the hub first
 * in every path: two operators setting a default at once each cleared the other defaults before either
 * insert was seen, and the hub kept three (PostgreSQL, 8 at once).
 */
async function lockHubAddresses(tx: Pick<Db, 'select'>, hubId: number): Promise<void> {
  await tx.select({ id: customerHubs.id }).from(customerHubs).where(eq(customerHubs.id, hubId)).for('update');
}

const sqlIncrement = () => sql`${users.tokenVersion} + 1`;
