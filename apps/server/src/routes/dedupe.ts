import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KnownHashesAnswer, KnownHashesBody, LINK_FILES_MAX, LinkFileAnswer, LinkFileBody, LinkFilesAnswer, LinkFilesBody } from '@portal/contract';
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

  app.post('/files/linkFiles', {
    schema: {
      tags,
      description: `linkFile for up to ${LINK_FILES_MAX} files in one call (a re-picked folder), scoped to the caller's hub exactly as linkFile: one answer per file, in the request's order. A bad path of any file refuses the call (400, nothing linked); a file named twice is refused (400).`,
      body: LinkFilesBody,
      response: { 200: LinkFilesAnswer },
    },
  }, async (request) => services.dedupe.linkMany(request.customer.hubId, request.body.files));
};
