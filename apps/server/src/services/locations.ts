import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { CustomerLocation } from '@portal/contract';
import type { Db } from '../db/client.ts';
import { customerLocations, locationCities, locationDistricts, locationProvinces } from '../db/schema/index.ts';
import { forbidden } from '../errors.ts';
import type { Caller } from '../plugins/auth.ts';

type Region = { province: string; city: string; district: string };

/**
 * Whether each address's province, city and district are one of the region tables' (the page's selects offer
 * only those; an integration could send 火星, or 深圳市 under 北京市, and the press would ship there: API probe).
 * Answers the index of the first that is not, or -1.
 */
export async function firstUnknownRegion(db: Db, list: readonly Region[]): Promise<number> {
  if (!list.length) return -1;
  const districts = [...new Set(list.map((l) => l.district.trim()))];
  const known = await db.select({ province: locationProvinces.name, city: locationCities.name, district: locationDistricts.name })
    .from(locationDistricts)
    .innerJoin(locationCities, eq(locationCities.id, locationDistricts.cityId))
    .innerJoin(locationProvinces, eq(locationProvinces.id, locationCities.provinceId))
    .where(inArray(locationDistricts.name, districts));
  const keys = new Set(known.map((r) => `${r.province}\u0000${r.city}\u0000${r.district}`));
  return list.findIndex((l) => !keys.has(`${l.province.trim()}\u0000${l.city.trim()}\u0000${l.district.trim()}`));
}

type Condition = { field: 'customerHubId' | 'isDefault' | 'customerId' | 'id'; operator: 'equals'; value: number | boolean | string };

export function createLocationService(db: Db) {
  return {
    /** Addresses of the caller's hub matching every condition; a condition naming another hub or customer is refused. */
    async byCondition(caller: Caller, q: { items: Condition[]; page: number; size: number; sort: string }): Promise<CustomerLocation[]> {
      const conds: SQL[] = [eq(customerLocations.hubId, caller.hubId)];
      for (const item of q.items) {
        if (item.field === 'customerHubId') {
          if (Number(item.value) !== caller.hubId) throw forbidden();
        } else if (item.field === 'customerId') {
          if (Number(item.value) !== caller.customerId) throw forbidden();
        } else if (item.field === 'isDefault') {
          conds.push(eq(customerLocations.isDefault, item.value === true || item.value === 'true'));
        } else {
          conds.push(eq(customerLocations.id, Number(item.value) || 0));
        }
      }
      const rows = await db.select().from(customerLocations).where(and(...conds))
        .orderBy(q.sort === 'id,asc' ? asc(customerLocations.id) : desc(customerLocations.id))
        .limit(q.size).offset(q.page * q.size);
      return rows.map((r) => ({
        id: r.id, customerHubId: r.hubId, customerId: r.customerId, contact: r.contact, phone: r.phone,
        province: r.province, city: r.city, district: r.district, address: r.address, isDefault: r.isDefault,
      }));
    },
    provinces: () => db.select().from(locationProvinces).orderBy(asc(locationProvinces.id)),
    cities: (provinceId: number) =>
      db.select({ id: locationCities.id, code: locationCities.code, name: locationCities.name }).from(locationCities)
        .where(eq(locationCities.provinceId, provinceId)).orderBy(asc(locationCities.id)),
    districts: (cityId: number) =>
      db.select({ id: locationDistricts.id, code: locationDistricts.code, name: locationDistricts.name }).from(locationDistricts)
        .where(eq(locationDistricts.cityId, cityId)).orderBy(asc(locationDistricts.id)),
  };
}
export type LocationService = ReturnType<typeof createLocationService>;
