import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ByConditionBody, CitiesQuery, CustomerLocation, DistrictsQuery, Region } from '@portal/contract';
import type { Services } from '../services/index.ts';

export const locationRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['addresses'];
  const { locations } = services;

  app.post('/customer-locations/byCondition', { schema: { tags, body: ByConditionBody, response: { 200: z.array(CustomerLocation) } } },
    async (request) => locations.byCondition(request.customer, request.body));

  // Regions are reference data: the console's address form needs them as much as the customer's page.
  const anyRole = { anyRole: true };
  app.get('/location-provinces', { config: anyRole, schema: { tags, response: { 200: z.array(Region) } } }, async () => locations.provinces());

  app.get('/location-cities/findByProvince', { config: anyRole, schema: { tags, querystring: CitiesQuery, response: { 200: z.array(Region) } } },
    async (request) => locations.cities(request.query.provinceId));

  app.get('/location-districts/findByCities', { config: anyRole, schema: { tags, querystring: DistrictsQuery, response: { 200: z.array(Region) } } },
    async (request) => locations.districts(request.query.cityId));
};
