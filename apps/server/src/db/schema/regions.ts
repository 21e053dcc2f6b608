import { integer, pgTable, text, index } from 'drizzle-orm/pg-core';

/** Mainland China regions; ids are the official division codes. */
export const locationProvinces = pgTable('location_provinces', {
  id: integer('id').primaryKey(),
  code: text('code').notNull(),
  name: text('name').notNull(),
});

export const locationCities = pgTable('location_cities', {
  id: integer('id').primaryKey(),
  code: text('code').notNull(),
  name: text('name').notNull(),
  provinceId: integer('province_id').notNull().references(() => locationProvinces.id),
}, (t) => [index('location_cities_province_idx').on(t.provinceId)]);

export const locationDistricts = pgTable('location_districts', {
  id: integer('id').primaryKey(),
  code: text('code').notNull(),
  name: text('name').notNull(),
  cityId: integer('city_id').notNull().references(() => locationCities.id),
}, (t) => [index('location_districts_city_idx').on(t.cityId)]);
