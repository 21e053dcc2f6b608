import type { ProductDetails, ProductSummary } from '@portal/contract';
import type { TestApp } from './app.ts';

/** A demo product's details and one of its SKUs, found in the caller's hub by the product and SKU numbers as a customer would pick them. */
export async function findSku(t: Pick<TestApp, 'call'>, token: string, productNumber: string, skuNumber?: string) {
  const { customerHubId } = (await (await t.call('GET', '/api/account', { token })).json()) as { customerHubId: number };
  const list = (await (await t.call('GET', `/api/customer-hubs/getProductsPage/${customerHubId}?page=0&size=100&productName=${encodeURIComponent(productNumber)}`, { token })).json()) as ProductSummary[];
  const summary = list.find((p) => p.number === productNumber);
  if (!summary) throw new Error(`no product ${productNumber}`);
  const res = await t.call('GET', `/api/customer-hubs/getProductDetails?productId=${summary.id}`, { token });
  const product = ((await res.json()) as { message: ProductDetails }).message;
  const config = skuNumber ? product.propertyConfigs.find((c) => c.number === skuNumber) : product.propertyConfigs.find((c) => c.saleable);
  if (!config) throw new Error(`no sku ${skuNumber}`);
  return { product, config, productId: product.id, propertyConfigId: config.id };
}
