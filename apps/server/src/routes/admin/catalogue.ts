import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CatalogueFile, CatalogueImportAnswer, CatalogueImportQuery, CatalogueImportRefusal } from '@portal/contract';
import type { Services } from '../../services/index.ts';

/** A catalogue file may be far larger than an ordinary JSON call (BODY_LIMIT_BYTES). */
const CATALOGUE_MAX_BYTES = 20 * 1024 * 1024;

export const adminCatalogueRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  // The file's text goes to the command's own reader (byte order mark, every problem at once), not to
  // Fastify's JSON parser; only within this plugin.
  // Its bytes, not Fastify's UTF-8 reading of them: a file in another encoding is refused, not imported as ���.
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: CATALOGUE_MAX_BYTES }, (_request, body, done) => done(null, body));

  app.post('/catalogue/import', {
    schema: {
      tags: ['admin'],
      description: 'The catalogue JSON file as the body (application/json), checked as `npm run import-catalogue` checks it; 422 lists every problem {path, message}. dryRun=true only checks. Templates named in it must already be in the shop\'s store.',
      querystring: CatalogueImportQuery,
      response: { 200: CatalogueImportAnswer, 422: CatalogueImportRefusal },
    },
  }, async (request) => services.adminCatalogue.import(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
    { dryRun: request.query.dryRun === 'true', prune: request.query.prune === 'true' }));

  app.get('/catalogue/export', {
    schema: {
      tags: ['admin'],
      description: 'The catalogue as it is, in the file format of `npm run import-catalogue`, as a download (catalogue-<date>.json): edited and imported again, it changes what was edited; imported unchanged, nothing.',
      response: { 200: CatalogueFile },
    },
  }, async (_request, reply) => {
    const file = await services.adminCatalogue.export();
    void reply.header('content-disposition', `attachment; filename="catalogue-${file.name.slice(-10)}.json"`);
    return file;
  });
};
