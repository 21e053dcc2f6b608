import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PRODUCTION_MSG, ProductionLinkAnswer, ProductionLinkQuery, ProductionZipQuery, type ProductionSelection } from '@portal/contract';
import { badRequest } from '../../errors.ts';
import type { Services } from '../../services/index.ts';

/** Files for the press (operators): a signed link to the zip of an order, a batch or a day's 待处理 orders, and the zip. */
export const adminProductionRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['admin: production'];

  app.get('/production/link', {
    schema: { tags, description: 'The orders of one SO number, one batch or one day (待处理, UTC+8), and a signed link to their zip.', querystring: ProductionLinkQuery, response: { 200: ProductionLinkAnswer } },
  }, async (request) => {
    const q = request.query;
    const given = [q.salesOrderNumber, q.batchId, q.day].filter((v) => v !== undefined && v !== '');
    if (given.length !== 1) throw badRequest(PRODUCTION_MSG.pickOne);
    const sel: ProductionSelection = q.salesOrderNumber ? { salesOrderNumber: q.salesOrderNumber.toUpperCase() } : q.batchId ? { batchId: q.batchId } : { day: q.day! };
    return services.production.link(sel);
  });
};

/**
 * The zip itself, at /api/downloads/production: outside /api/admin because a browser's download carries no
 * Authorization header. The link's signature, made for an operator by /api/admin/production/link and
 * valid for FILE_URL_TTL_SECONDS, stands for the operator's login.
 */
export const productionDownloadRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['admin: production'];
  app.get('/downloads/production', {
    config: { public: true },
    schema: { tags, description: 'The zip, streamed: <SO>_<作品名>/<组件>/<file>, a job ticket per order, manifest.csv. Signed link from /production/link.', querystring: ProductionZipQuery },
  }, async (request, reply) => {
    const sel = services.production.verifyLink(request.query);
    const { stream, fileName } = await services.production.zip(sel);
    reply.header('content-type', 'application/zip');
    reply.header('content-disposition', `attachment; filename="${fileName.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`);
    reply.header('cache-control', 'no-store');
    return reply.send(stream);
  });
};
