import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { objectPapers, productComponents, products, propertyConfigs, works } from '../db/schema/index.ts';
import { suggestProducts, type SuggestProduct } from '../domain/suggest.ts';
import { notFound } from '../errors.ts';
import pLimit from 'p-limit';
import { visibleTo } from './catalogue.ts';
import type { CheckService } from './check.ts';

/** Works measured at once: each measures its files a few at a time already. */
const WORKS_AT_ONCE = 4;

/**
 * 推荐产品 (issue #20 item 3): for works of the caller's hub, the products and SKUs of the hub's visible
 * catalogue (saleable SKUs only) that the works' files fit as they are, best first (domain/suggest.ts).
 * The files are measured as checkFile measures them (services/check.ts measure).
 */
export function createSuggestService(deps: { db: Db; check: CheckService }) {
  const { db } = deps;

  /** The hub's visible products with their live components (and papers' page counts) and saleable SKUs, in catalogue order. */
  async function catalogueOf(hubId: number): Promise<SuggestProduct[]> {
    const list = await db.select({ id: products.id, number: products.number, name: products.name, pageCount: products.pageCount, minNumberOfPages: products.minNumberOfPages, maxNumberOfPages: products.maxNumberOfPages })
      .from(products).where(visibleTo(hubId)).orderBy(asc(products.sort), asc(products.id));
    if (list.length === 0) return [];
    const ids = list.map((p) => p.id);
    const [comps, skus] = await Promise.all([
      db.select().from(productComponents).where(and(inArray(productComponents.productId, ids), eq(productComponents.cancelled, false)))
        .orderBy(asc(productComponents.sort), asc(productComponents.id)),
      db.select().from(propertyConfigs).where(and(inArray(propertyConfigs.productId, ids), eq(propertyConfigs.cancelled, false), eq(propertyConfigs.saleable, true)))
        .orderBy(asc(propertyConfigs.id)),
    ]);
    const pages = comps.length === 0 ? [] : await db.select({
      componentId: objectPapers.componentId,
      min: sql<number | null>`min(${objectPapers.minPageCount})`.mapWith((v: unknown) => (v === null ? null : Number(v))),
      max: sql<number | null>`max(${objectPapers.maxPageCount})`.mapWith((v: unknown) => (v === null ? null : Number(v))),
    }).from(objectPapers).where(inArray(objectPapers.componentId, comps.map((c) => c.id))).groupBy(objectPapers.componentId);
    const pagesOf = new Map(pages.map((p) => [p.componentId, p]));
    return list.map((p) => ({
      ...p,
      components: comps.filter((c) => c.productId === p.id).map((c) => {
        const n = pagesOf.get(c.id);
        return {
          id: c.id, uuid: c.uuid, name: c.name, width: c.width, height: c.height, error: c.error, errorType: c.errorType,
          autoOrientationDetection: c.autoOrientationDetection, resolutionThreshold: c.resolutionThreshold, resolutionLimit: c.resolutionLimit,
          pages: n && (n.min !== null || n.max !== null) ? { min: n.min, max: n.max } : null,
        };
      }),
      skus: skus.filter((s) => s.productId === p.id).map((s) => ({
        id: s.id, number: s.number, sku: s.sku, skuNumber: s.skuNumber, jhiDefault: s.jhiDefault, minPageCount: s.minPageCount, maxPageCount: s.maxPageCount,
        toning: s.toning, customToning: s.customToning, componentSizes: s.componentSizes ?? {},
      })),
    }));
  }

  return {
    async suggest(hubId: number, req: { workUuids: string[]; limit: number }) {
      const uuids = [...new Set(req.workUuids)];
      const found = await db.select({ uuid: works.uuid, files: works.files }).from(works)
        .where(and(eq(works.hubId, hubId), inArray(works.uuid, uuids)));
      // Another hub's work is not found, as in every call of a customer.
      if (found.length !== uuids.length) throw notFound('作品不存在，请重新上传');
      const catalogue = await catalogueOf(hubId);
      const byUuid = new Map(found.map((w) => [w.uuid, w]));
      const out = await pLimit(WORKS_AT_ONCE).map(uuids, async (uuid) => {
        const items = await deps.check.measure(hubId, byUuid.get(uuid)!.files);
        return { workUuid: uuid, suggestions: suggestProducts(items, catalogue, req.limit) };
      });
      return { works: out };
    },
  };
}
export type SuggestService = ReturnType<typeof createSuggestService>;
