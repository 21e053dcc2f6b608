import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BulkFixBody, BulkFixPreviewAnswer, BulkFixStarted, BulkFixTaskAnswer, BulkFixUndoAnswer, BulkFixUndoBody } from '@portal/contract';
import type { Services } from '../services/index.ts';

/** Fixing files in bulk (issue #20 item 2): sample, apply as a long task, progress, undo. */
export const bulkFixRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['bulk-fix'];

  app.post('/bulk-fix/preview', {
    schema: { tags, description: 'What each fix would do to each file (sizes, share cut or padded, whether it stays warned), with a few before/after samples. Changes nothing.', body: BulkFixBody, response: { 200: BulkFixPreviewAnswer } },
  }, async (request) => services.bulkFix.preview(request.customer.hubId, request.body));

  app.post('/bulk-fix/apply', {
    schema: { tags, description: 'Applies the fixes as a long task (state 100 with its taskId); the works are checked again when it ends.', body: BulkFixBody, response: { 200: BulkFixStarted } },
  }, async (request) => services.bulkFix.start(request.customer.hubId, request.body));

  app.get('/bulk-fix/tasks/:taskId', {
    schema: { tags, description: 'Progress of a bulk fix; when finished, each file\'s fix (its id for undo) and each work\'s new state.', params: z.object({ taskId: z.uuid() }), response: { 200: BulkFixTaskAnswer } },
  }, async (request) => services.bulkFix.status(request.customer.hubId, request.params.taskId));

  app.post('/bulk-fix/undo', {
    schema: { tags, description: 'Undoes fixes by id, or every fix of a task: the works point to their files as they were and are checked again.', body: BulkFixUndoBody, response: { 200: BulkFixUndoAnswer } },
  }, async (request) => services.bulkFix.undo(request.customer.hubId, request.body));
};
