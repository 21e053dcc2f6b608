import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BatchDraft, CreateDraftBody, DraftIdParams, OpenDraftAnswer, SaveDraftBody, SavedDraftAnswer } from '@portal/contract';
import type { Config } from '../config.ts';
import type { Services } from '../services/index.ts';

/**
 * The login's open batch draft (issue #21 item 3). The body limit is four times the draft's: a draft
 * over its limit but under that is refused by the service with its own message (413).
 */
export const draftRoutes: FastifyPluginAsyncZod<{ services: Services; config: Config }> = async (app, { services, config }) => {
  const tags = ['batch-drafts'];
  const bodyLimit = config.draftMaxBytes * 4;
  /** The document's size as it came (the body's length; it holds the document and a version number). */
  const bytesOf = (headers: Record<string, unknown>, body: unknown) =>
    Number(headers['content-length']) || Buffer.byteLength(JSON.stringify(body));

  app.get('/batch-drafts/open', { schema: { tags, description: 'The caller\'s open batch draft, or null.', response: { 200: OpenDraftAnswer } } },
    async (request) => ({ draft: await services.drafts.open(request.customer) }));

  app.get('/batch-drafts/:id', { schema: { tags, params: DraftIdParams, response: { 200: BatchDraft } } },
    async (request) => services.drafts.get(request.customer, request.params.id));

  app.post('/batch-drafts', {
    bodyLimit,
    schema: { tags, description: 'Opens the caller\'s draft (version 1); 409 when one is open, 413 over DRAFT_MAX_BYTES.', body: CreateDraftBody, response: { 200: SavedDraftAnswer } },
  }, async (request) => services.drafts.create(request.customer, request.body.document, bytesOf(request.headers, request.body)));

  app.put('/batch-drafts/:id', {
    bodyLimit,
    schema: { tags, description: 'Saves the document over `version`; 409 when the draft has another version or is closed, 413 over DRAFT_MAX_BYTES.', params: DraftIdParams, body: SaveDraftBody, response: { 200: SavedDraftAnswer } },
  }, async (request) => services.drafts.save(request.customer, request.params.id, request.body.version, request.body.document, bytesOf(request.headers, request.body)));

  app.delete('/batch-drafts/:id', { schema: { tags, description: '重置: closes the draft.', params: DraftIdParams, response: { 200: z.object({ closed: z.literal(true) }) } } },
    async (request) => {
      await services.drafts.discard(request.customer, request.params.id);
      return { closed: true as const };
    });
};
