import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDataDir } from '../../../test/helpers/data-dir.ts';
import { openDb, type DbHandle } from '../client.ts';
import * as schema from '../schema/index.ts';
import { addCustomer } from './customers.ts';
import { seedDemo, type SeedDemoResult } from './demo.ts';
import { verifyPassword } from './passwords.ts';

describe('seedDemo', () => {
  let handle: DbHandle;
  let dataDir: string;
  let results: SeedDemoResult[];
  const n = async (t: PgTable) => (await handle.db.select({ n: count() }).from(t))[0]?.n ?? 0;

  beforeAll(async () => {
    dataDir = await emptyDataDir('seed-demo-');
    handle = await openDb({ dataDir });
    // Two starts at once: the seeding lock lets one seed and the other find it done.
    results = await Promise.all([seedDemo(handle.db, { dataDir }), seedDemo(handle.db, { dataDir })]);
  });
  afterAll(async () => {
    await handle?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('seeds once', () => {
    expect(results.filter((r) => r.seeded)).toHaveLength(1);
  });

  it('creates hubs 1 and 2 with their customer, login and default address', async () => {
    const hubs = await handle.db.select().from(schema.customerHubs).orderBy(schema.customerHubs.id);
    expect(hubs.map((h) => [h.id, h.name, h.batchAddressParsing])).toEqual([[1, '演示门店客户', false], [2, '分批收货客户', true]]);
    const users = await handle.db.select().from(schema.users).orderBy(schema.users.hubId);
    expect(users.map((u) => [u.login, u.hubId, u.authorities])).toEqual([['demo', 1, ['ROLE_USER']], ['partial', 2, ['ROLE_USER']]]);
    expect(await verifyPassword('demo', users[0]!.passwordHash)).toBe(true);
    expect(await verifyPassword('partial', users[1]!.passwordHash)).toBe(true);
    expect(await verifyPassword('wrong', users[0]!.passwordHash)).toBe(false);
    expect(users[0]!.passwordHash).toMatch(/^\$2[aby]\$10\$/);
    const customers = await handle.db.select().from(schema.customers).orderBy(schema.customers.id);
    expect(customers.map((c) => [c.hubId, c.name])).toEqual([[1, '演示客户'], [2, '分批收货客户']]);
    expect(users.map((u) => u.customerId)).toEqual(customers.map((c) => c.id));

    const addresses = await handle.db.select().from(schema.customerLocations).where(eq(schema.customerLocations.isDefault, true));
    expect(addresses.map((a) => a.hubId).sort()).toEqual([1, 2]);
    for (const a of addresses) {
      expect(a.contact && a.phone && a.address).toBeTruthy();
      // The address names a real province / city / district of the regions tables.
      const [found] = await handle.db.select({ d: schema.locationDistricts.id }).from(schema.locationDistricts)
        .innerJoin(schema.locationCities, eq(schema.locationDistricts.cityId, schema.locationCities.id))
        .innerJoin(schema.locationProvinces, eq(schema.locationCities.provinceId, schema.locationProvinces.id))
        .where(and(eq(schema.locationProvinces.name, a.province), eq(schema.locationCities.name, a.city), eq(schema.locationDistricts.name, a.district)));
      expect(found, `${a.province} ${a.city} ${a.district}`).toBeDefined();
    }
  });

  it('loads the demo catalogue: 8 products over every price basis, 34 SKUs, one not saleable, one without price', async () => {
    expect(await n(schema.products)).toBe(8);
    const bases = await handle.db.select({ basis: schema.products.priceBasis }).from(schema.products);
    expect(new Set(bases.map((b) => b.basis))).toEqual(new Set(['print', 'copy', 'area']));
    const skus = await handle.db.select().from(schema.propertyConfigs);
    expect(skus).toHaveLength(34);
    expect(skus.filter((s) => !s.saleable).map((s) => s.number)).toEqual(['PH6-PL-NB']);
    const unpriced = await handle.db.select({ number: schema.propertyConfigs.number }).from(schema.propertyConfigs)
      .leftJoin(schema.priceLines, eq(schema.priceLines.propertyConfigId, schema.propertyConfigs.id)).where(isNull(schema.priceLines.id));
    expect(unpriced.map((s) => s.number)).toEqual(['PO-A2-PP']);
    // Customer prices are keyed by the seeded customers' ids.
    const customers = await handle.db.select().from(schema.customers);
    for (const c of customers) {
      const [lines] = await handle.db.select({ n: count() }).from(schema.priceLines)
        .where(and(eq(schema.priceLines.priceType, 'customer'), eq(schema.priceLines.entityId, c.id)));
      expect(lines?.n).toBe(87);
    }
    // The inconsistent pair: 珠光 with 留白边 has no SKU.
    expect(skus.some((s) => s.sku.includes('珠光') && s.sku.includes('留白边'))).toBe(false);
    // Every component has its template in DATA_DIR/templates.
    const components = await handle.db.select().from(schema.productComponents);
    expect(components).toHaveLength(10);
    for (const c of components) expect((await stat(path.join(dataDir, 'templates', c.templatePath ?? 'missing'))).isFile()).toBe(true);
    const categories = await handle.db.select().from(schema.productCategories);
    const roots = categories.filter((c) => c.parentId === null).map((c) => c.name);
    expect(roots).toEqual(['照片', '宣传品', '办公印刷']);
  });

  it('does nothing on a second start', async () => {
    const before = await Promise.all([schema.customerHubs, schema.users, schema.products, schema.propertyConfigs, schema.priceLines, schema.locationDistricts].map(n));
    expect(await seedDemo(handle.db, { dataDir })).toEqual({ seeded: false });
    expect(await Promise.all([schema.customerHubs, schema.users, schema.products, schema.propertyConfigs, schema.priceLines, schema.locationDistricts].map(n))).toEqual(before);
  });

  it('leaves the hub sequence after the demo hubs', async () => {
    const r = await addCustomer(handle.db, { hub: 'new', hubName: '第三个客户', login: 'third', password: 'secret3' });
    expect(r.hubId).toBe(3);
  });
});
