import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KnownHashesAnswer, KnownHashesBody, LinkFileAnswer, LinkFileBody } from '@portal/contract';
import type { Services } from '../services/index.ts';

/** Bytes the shop already has are not sent (issue #21 item 2). */
export const dedupeRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['files'];
  app.post('/files/knownHashes', {
    schema: {
      tags,
      description: 'Which of these sha256 hashes the caller\'s hub stores. Only the caller\'s hub is searched; another hub\'s hash is answered as unknown.',
      body: KnownHashesBody,
      response: { 200: KnownHashesAnswer },
    },
  }, async (request) => services.dedupe.known(request.customer.hubId, request.body.hashes));

  app.post('/files/linkFile', {
    schema: {
      tags,
      description: 'Stores a file of an upload batch (folderId + filePath) from bytes the caller\'s hub already stores with this sha256 and size: answered as the chunk that completes an upload, or {linked: false} (send the bytes).',
      body: LinkFileBody,
      response: { 200: LinkFileAnswer },
    },
  }, async (request) => services.dedupe.link(request.customer.hubId, request.body));
};
