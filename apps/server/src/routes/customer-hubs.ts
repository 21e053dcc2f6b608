import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { zId,
  Category, CategoryPageQuery, CategoryProductsPageQuery, HubLite, HubParams, PriceAnswer, PriceQuery, ProductDetailsAnswer,
  ProductDetailsQuery, ProductSummary, ProductsPageQuery, ProductsQuery, SkuRow,
} from '@portal/contract';
import type { Services } from '../services/index.ts';

export const customerHubRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['catalogue'];
  const { catalogue } = services;

  app.get('/customer-hubs/getLite/:customerHubId', { schema: { tags, params: HubParams, response: { 200: HubLite } } },
    async (request) => services.accounts.hubLite(request.params.customerHubId));

  app.get('/customer-hubs/getProductCategoryPage/:customerHubId', {
    schema: { tags, params: HubParams, querystring: CategoryPageQuery, response: { 200: z.array(Category) } },
  }, async (request) => catalogue.categoryTree(request.params.customerHubId));

  app.get('/customer-hubs/getProductsPage/:customerHubId', {
    schema: { tags, params: HubParams, querystring: ProductsPageQuery, response: { 200: z.array(ProductSummary) } },
  }, async (request, reply) => {
    const { items, total } = await catalogue.productsPage(request.params.customerHubId, request.query);
    reply.header('x-total-count', String(total));
    return items;
  });

  app.get('/customer-hubs/getProducts/:customerHubId', {
    schema: { tags, params: HubParams, querystring: ProductsQuery, response: { 200: z.array(ProductSummary) } },
  }, async (request) => catalogue.products(request.params.customerHubId, request.query));

  app.get('/customer-hubs/getCategoryProductsPage/:customerHubId', {
    schema: { tags, params: HubParams, querystring: CategoryProductsPageQuery, response: { 200: z.array(SkuRow) } },
  }, async (request, reply) => {
    const { items, total } = await catalogue.skuPage(request.params.customerHubId, request.query);
    reply.header('x-total-count', String(total));
    return items;
  });

  app.get('/customer-hubs/getProductDetails', {
    schema: { tags, querystring: ProductDetailsQuery, response: { 200: ProductDetailsAnswer } },
  }, async (request) => ({ state: 200 as const, message: await catalogue.productDetails(request.customer.hubId, request.query.productId) }));

  app.get('/price-lines/getByPriceTypeAndIdAndPropertyConfigId', {
    schema: { tags, querystring: PriceQuery, response: { 200: PriceAnswer } },
  }, async (request) => catalogue.customerPrice(request.customer.hubId, request.customer.customerId, request.query));

  app.get('/templates/:componentId/:fileName', {
    config: { public: true },
    schema: { tags, params: z.object({ componentId: zId, fileName: z.string().max(255) }),
      querystring: z.object({ exp: z.string().max(20), sig: z.string().max(100) }) },
  }, async (request, reply) => {
    const { componentId } = request.params;
    if (!services.urls.verify(`tpl:${componentId}`, request.query.exp, request.query.sig)) {
      return reply.status(403).send({ message: '链接已失效，请刷新页面后重试', code: 'bad-signature' });
    }
    const t = await catalogue.template(componentId);
    const stream = await services.templates.open(t.path);
    return reply
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(t.fileName)}`)
      .header('x-content-type-options', 'nosniff')
      .type(t.fileName.toLowerCase().endsWith('.pdf') ? 'application/pdf' : 'application/octet-stream')
      .send(stream);
  });
};
