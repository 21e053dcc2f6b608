import { and, asc, desc, eq, type SQL } from 'drizzle-orm';
import type { CustomerLocation } from '@portal/contract';
import type { Db } from '../db/client.ts';
import { customerLocations, locationCities, locationDistricts, locationProvinces } from '../db/schema/index.ts';
import { forbidden } from '../errors.ts';
import type { Caller } from '../plugins/auth.ts';

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
