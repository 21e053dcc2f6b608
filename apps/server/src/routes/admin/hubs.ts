import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminAddress2, AdminAddressParams, AdminAddressRow, AdminDisableBody, AdminHub, AdminHubCreate, AdminHubParams, AdminHubUpdate, AdminLogin,
  AdminLoginCreate, AdminLoginParams, AdminPasswordBody, ErrorAnswer,
} from '@portal/contract';
import type { Services } from '../../services/index.ts';

const Id = z.object({ id: z.number().int() });

export const adminHubRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['admin'];
  const { adminHubs } = services;
  const refusals = { 404: ErrorAnswer, 409: ErrorAnswer, 422: ErrorAnswer };

  app.get('/hubs', { schema: { tags, response: { 200: z.array(AdminHub) } } }, async () => adminHubs.list());
  app.post('/hubs', { schema: { tags, body: AdminHubCreate, response: { 200: Id } } }, async (request) => adminHubs.create(request.body));
  app.patch('/hubs/:hubId', { schema: { tags, description: 'Rename a hub, or switch its batchAddressParsing.', params: AdminHubParams, body: AdminHubUpdate, response: { 200: Id, ...refusals } } },
    async (request) => adminHubs.update(request.params.hubId, request.body));

  app.get('/hubs/:hubId/logins', { schema: { tags, params: AdminHubParams, response: { 200: z.array(AdminLogin), 404: ErrorAnswer } } },
    async (request) => adminHubs.logins(request.params.hubId));
  app.post('/hubs/:hubId/logins', { schema: { tags, description: 'A customer login of the hub; 409 when the login name is taken (by a customer or an operator).', params: AdminHubParams, body: AdminLoginCreate, response: { 200: AdminLogin, ...refusals } } },
    async (request) => adminHubs.addLogin(request.params.hubId, request.body));
  app.post('/logins/:loginId/password', { schema: { tags, description: 'A new password; the tokens given out before stop working.', params: AdminLoginParams, body: AdminPasswordBody, response: { 200: AdminLogin, ...refusals } } },
    async (request) => adminHubs.resetPassword(request.params.loginId, request.body.password));
  app.post('/logins/:loginId/disabled', { schema: { tags, description: 'Disable (or enable) a login: it cannot log in and its tokens answer 401.', params: AdminLoginParams, body: AdminDisableBody, response: { 200: AdminLogin, 404: ErrorAnswer } } },
    async (request) => adminHubs.setDisabled(request.params.loginId, request.body.disabled));

  app.get('/hubs/:hubId/addresses', { schema: { tags, params: AdminHubParams, response: { 200: z.array(AdminAddressRow), 404: ErrorAnswer } } },
    async (request) => adminHubs.addresses(request.params.hubId));
  app.post('/hubs/:hubId/addresses', { schema: { tags, description: 'A default address replaces the hub\'s former default.', params: AdminHubParams, body: AdminAddress2, response: { 200: Id, ...refusals } } },
    async (request) => adminHubs.addAddress(request.params.hubId, request.body));
  app.put('/addresses/:addressId', { schema: { tags, params: AdminAddressParams, body: AdminAddress2, response: { 200: Id, ...refusals } } },
    async (request) => adminHubs.updateAddress(request.params.addressId, request.body));
  app.delete('/addresses/:addressId', { schema: { tags, params: AdminAddressParams, response: { 200: Id, 404: ErrorAnswer } } },
    async (request) => adminHubs.removeAddress(request.params.addressId));
};
