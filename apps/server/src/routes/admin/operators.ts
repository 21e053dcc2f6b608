import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AdminDisableBody, AdminOperator, AdminOperatorCreate, AdminOperatorParams, AdminPasswordBody, ErrorAnswer } from '@portal/contract';
import type { Services } from '../../services/index.ts';

/** 员工账号: the shop's staff logins, administered as a hub's customer logins are (hubs.ts). */
export const adminOperatorRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['admin'];
  const { adminOperators } = services;
  const refusals = { 404: ErrorAnswer, 409: ErrorAnswer, 422: ErrorAnswer };

  app.get('/operators', { schema: { tags, description: 'The operator logins; `self` marks the caller\'s own.', response: { 200: z.array(AdminOperator) } } },
    async (request) => adminOperators.list(request.operator.operatorId));
  app.post('/operators', { schema: { tags, description: 'An operator login (add-operator\'s rules); 409 when the login name is taken (by a customer or an operator).', body: AdminOperatorCreate, response: { 200: AdminOperator, ...refusals } } },
    async (request) => adminOperators.add(request.operator.operatorId, request.body));
  app.post('/operators/:operatorId/password', { schema: { tags, description: 'A new password; the tokens given out before stop working.', params: AdminOperatorParams, body: AdminPasswordBody, response: { 200: AdminOperator, ...refusals } } },
    async (request) => adminOperators.resetPassword(request.operator.operatorId, request.params.operatorId, request.body.password));
  app.post('/operators/:operatorId/disabled', { schema: { tags, description: 'Disable (or enable) an operator login: it cannot log in and its tokens answer 401. 409 for the caller\'s own login and for the last enabled one.', params: AdminOperatorParams, body: AdminDisableBody, response: { 200: AdminOperator, ...refusals } } },
    async (request) => adminOperators.setDisabled(request.operator.operatorId, request.params.operatorId, request.body.disabled));
};
