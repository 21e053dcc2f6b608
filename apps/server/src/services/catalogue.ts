import { and, asc, count, eq, ilike, inArray, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Category, ProductDetails, ProductSummary, SkuRow } from '@portal/contract';
import type { Db } from '../db/client.ts';
import {
  hubProducts, objectOperations, objectPapers, optionItems, optionValues, priceLines, productCategories,
  productComponents, products, propertyConfigs,
} from '../db/schema/index.ts';
import { DEFAULT_UNIT_NAME, type PriceBasis, type PriceLineInput } from '../domain/pricing.ts';
import { notFound, PRODUCT_GONE } from '../errors.ts';
import type { FileUrls } from './file-urls.ts';
import { escapeLike } from '../db/like.ts';

type Page<T> = { items: T[]; total: number };

/**
 * Products a hub may see: not cancelled, and listed for the hub when the hub has a list at all. The hub
 * is a number, or a placeholder in a prepared statement.
 */
export function visibleTo(hubId: number | Placeholder): SQL {
  return and(
    eq(products.cancelled, false),
    sql`(not exists (select 1 from ${hubProducts} hp where hp.hub_id = ${hubId})
         or exists (select 1 from ${hubProducts} hp where hp.hub_id = ${hubId} and hp.product_id = ${products.id}))`,
  ) as SQL;
}

/** The name of one counted unit: the product's own, else the basis's (area is always ㎡). */
const unitNameOf = (basis: PriceBasis, unit: string | null) => (basis === 'area' ? DEFAULT_UNIT_NAME.area : unit ?? DEFAULT_UNIT_NAME[basis]);

export function createCatalogueService(db: Db, urls: FileUrls) {
  async function allCategories() {
    return db.select().from(productCategories).orderBy(asc(productCategories.sort), asc(productCategories.id));
  }

  /** The category and every category below it. */
  async function categoryAndDescendants(categoryId: number): Promise<number[]> {
    const cats = await allCategories();
    const ids = new Set([categoryId]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const c of cats) if (c.parentId !== null && ids.has(c.parentId) && !ids.has(c.id)) { ids.add(c.id); grew = true; }
    }
    return [...ids];
  }

  async function productFilter(hubId: number, q: { productCategoryId?: number; productName?: string }) {
    const conds: SQL[] = [visibleTo(hubId)];
    if (q.productCategoryId) conds.push(inArray(products.categoryId, await categoryAndDescendants(q.productCategoryId)));
    if (q.productName) {
      const like = `%${escapeLike(q.productName)}%`;
      conds.push(or(ilike(products.name, like), ilike(products.number, like)) as SQL);
    }
    return and(...conds) as SQL;
  }

  const summaryColumns = {
    id: products.id,
    number: products.number,
    name: products.name,
    productImage: products.productImage,
    productCategoryId: products.categoryId,
    productCategoryName: productCategories.name,
    pageCount: products.pageCount,
    minNumberOfPages: products.minNumberOfPages,
    maxNumberOfPages: products.maxNumberOfPages,
  };

  /**
   * The product picker's page, prepared once: it is asked for on every keystroke, and building the
   * statement anew cost more CPU than PostgreSQL spent running it. productFilter's conditions with
   * placeholders: cats (the category and those below it) and like (the name filter) are null when
   * not given.
   */
  const ph = sql.placeholder;
  const pageStatement = db.select({ ...summaryColumns, total: sql<number>`count(*) over ()`.mapWith(Number) }).from(products)
    .innerJoin(productCategories, eq(productCategories.id, products.categoryId))
    .where(and(
      visibleTo(ph('hubId')),
      sql`(${ph('cats')}::integer[] is null or ${products.categoryId} = any(${ph('cats')}::integer[]))`,
      sql`(${ph('like')}::text is null or ${products.name} ilike ${ph('like')} or ${products.number} ilike ${ph('like')})`,
    ))
    .orderBy(asc(products.sort), asc(products.id)).limit(ph('limit')).offset(ph('offset'))
    .prepare('catalogue_products_page');

  /** checkSpec's two statements, prepared: every checkFile runs them. */
  const specStatement = db.select({
    priceBasis: products.priceBasis,
    pageCount: products.pageCount, minNumberOfPages: products.minNumberOfPages, maxNumberOfPages: products.maxNumberOfPages,
    configId: propertyConfigs.id, minPageCount: propertyConfigs.minPageCount, maxPageCount: propertyConfigs.maxPageCount,
    componentSizes: propertyConfigs.componentSizes,
  }).from(products)
    .innerJoin(productCategories, eq(productCategories.id, products.categoryId))
    .leftJoin(propertyConfigs, and(eq(propertyConfigs.id, ph('propertyConfigId')), eq(propertyConfigs.productId, products.id), eq(propertyConfigs.cancelled, false)))
    .where(and(eq(products.id, ph('productId')), visibleTo(ph('hubId'))))
    .prepare('catalogue_check_spec');
  const specComponents = db.select().from(productComponents)
    .where(and(eq(productComponents.productId, ph('productId')), eq(productComponents.cancelled, false)))
    .orderBy(asc(productComponents.sort), asc(productComponents.id)).prepare('catalogue_check_components');

  /**
   * The customer's price lines of a SKU, with what its product's price counts: what domain/pricing.ts
   * needs to price a work. A product the hub may not see, or a SKU not of the product, is not found.
   */
  async function priceTable(hubId: number, customerId: number, q: { productId: number; propertyConfigId: number }) {
    const [cfg] = await db.select({ id: propertyConfigs.id, saleable: propertyConfigs.saleable, basis: products.priceBasis, unit: products.priceUnit })
      .from(propertyConfigs).innerJoin(products, eq(products.id, propertyConfigs.productId))
      .where(and(eq(propertyConfigs.id, q.propertyConfigId), eq(propertyConfigs.productId, q.productId), visibleTo(hubId)));
    if (!cfg) throw notFound('商品配置不存在');
    const lines: PriceLineInput[] = await db.select({ kind: priceLines.kind, minQuantity: priceLines.minQuantity, amount: priceLines.amount }).from(priceLines)
      .where(and(eq(priceLines.priceType, 'customer'), eq(priceLines.entityId, customerId), eq(priceLines.propertyConfigId, q.propertyConfigId)));
    return { propertyConfigId: cfg.id, saleable: cfg.saleable, product: { basis: cfg.basis, unitName: unitNameOf(cfg.basis, cfg.unit) }, lines };
  }

  return {
    /** The category tree, pruned to branches that hold at least one product the hub may order. */
    async categoryTree(hubId: number): Promise<Category[]> {
      const cats = await allCategories();
      const counts = await db
        .select({ categoryId: products.categoryId, n: count() })
        .from(products)
        .where(visibleTo(hubId))
        .groupBy(products.categoryId);
      const withProducts = new Set(counts.map((c) => c.categoryId));
      const nodes = new Map<number, Category>(cats.map((c) => [c.id, { id: c.id, name: c.name, parentId: c.parentId, categories: [] }]));
      const roots: Category[] = [];
      for (const c of cats) {
        const node = nodes.get(c.id)!;
        const parent = c.parentId === null ? undefined : nodes.get(c.parentId);
        if (parent) parent.categories.push(node);
        else roots.push(node);
      }
      const keep = (n: Category): boolean => {
        n.categories = n.categories.filter(keep);
        return withProducts.has(n.id) || n.categories.length > 0;
      };
      return roots.filter(keep);
    },

    /**
     * One statement for the page and the total (a window count is taken before LIMIT): the product
     * picker asks for this page on every keystroke, and on PGlite each statement costs a round of the
     * embedded engine's protocol. Only a page past the end, which has no row to carry the total, counts apart.
     */
    async productsPage(hubId: number, q: { page: number; size: number; productCategoryId?: number; productName?: string }): Promise<Page<ProductSummary>> {
      const rows = await pageStatement.execute({
        hubId, limit: q.size, offset: q.page * q.size,
        cats: q.productCategoryId ? await categoryAndDescendants(q.productCategoryId) : null,
        like: q.productName ? `%${escapeLike(q.productName)}%` : null,
      });
      const total = rows[0]?.total ?? (q.page > 0 ? (await db.select({ n: count() }).from(products).where(await productFilter(hubId, q)))[0]?.n ?? 0 : 0);
      return { items: rows.map(({ total: _total, ...r }) => ({ ...r, productImage: urls.asset(r.productImage) })), total };
    },

    async products(hubId: number, q: { keyword?: string; productCategoryId?: number }): Promise<ProductSummary[]> {
      const where = await productFilter(hubId, { productCategoryId: q.productCategoryId, productName: q.keyword });
      const rows = await db.select(summaryColumns).from(products).innerJoin(productCategories, eq(productCategories.id, products.categoryId))
        .where(where).orderBy(asc(products.sort), asc(products.id)).limit(1000);
      return rows.map((r) => ({ ...r, productImage: urls.asset(r.productImage) }));
    },

    /** SKU rows for the table picker; the name filter matches the product name, its number or the SKU text. */
    async skuPage(hubId: number, q: { page: number; size: number; productCategoryId?: number; productName?: string }): Promise<Page<SkuRow>> {
      const conds: SQL[] = [await productFilter(hubId, { productCategoryId: q.productCategoryId }), eq(propertyConfigs.cancelled, false)];
      if (q.productName) {
        const like = `%${escapeLike(q.productName)}%`;
        conds.push(or(ilike(products.name, like), ilike(products.number, like), ilike(propertyConfigs.sku, like)) as SQL);
      }
      const where = and(...conds);
      const [rows, [total]] = await Promise.all([
        db.select({
          id: propertyConfigs.id, number: propertyConfigs.number, sku: propertyConfigs.sku, skuNumber: propertyConfigs.skuNumber,
          productId: products.id, productName: products.name, productNumber: products.number, saleable: propertyConfigs.saleable,
        }).from(propertyConfigs).innerJoin(products, eq(products.id, propertyConfigs.productId))
          .where(where).orderBy(asc(products.sort), asc(products.id), asc(propertyConfigs.id)).limit(q.size).offset(q.page * q.size),
        db.select({ n: count() }).from(propertyConfigs).innerJoin(products, eq(products.id, propertyConfigs.productId)).where(where),
      ]);
      return { items: rows, total: total?.n ?? 0 };
    },

    async productDetails(hubId: number, productId: number): Promise<ProductDetails> {
      const [row] = await db.select({ ...summaryColumns, priceBasis: products.priceBasis, priceUnit: products.priceUnit }).from(products)
        .innerJoin(productCategories, eq(productCategories.id, products.categoryId))
        .where(and(eq(products.id, productId), visibleTo(hubId)));
      if (!row) throw notFound('商品不存在');
      const p = { ...row, priceUnit: unitNameOf(row.priceBasis, row.priceUnit) };
      const [comps, items, configs] = await Promise.all([
        db.select().from(productComponents).where(eq(productComponents.productId, productId)).orderBy(asc(productComponents.sort), asc(productComponents.id)),
        db.select().from(optionItems).where(eq(optionItems.productId, productId)).orderBy(asc(optionItems.sort), asc(optionItems.id)),
        db.select().from(propertyConfigs).where(and(eq(propertyConfigs.productId, productId), eq(propertyConfigs.cancelled, false))).orderBy(asc(propertyConfigs.id)),
      ]);
      const compIds = comps.map((c) => c.id);
      const itemIds = items.map((i) => i.id);
      const [papers, ops, values] = await Promise.all([
        compIds.length ? db.select().from(objectPapers).where(inArray(objectPapers.componentId, compIds)).orderBy(asc(objectPapers.id)) : [],
        compIds.length ? db.select().from(objectOperations).where(inArray(objectOperations.componentId, compIds)).orderBy(asc(objectOperations.id)) : [],
        itemIds.length ? db.select().from(optionValues).where(inArray(optionValues.itemId, itemIds)).orderBy(asc(optionValues.sort), asc(optionValues.id)) : [],
      ]);
      return {
        ...p,
        productImage: urls.asset(p.productImage),
        components: comps.map((c) => {
          const templateUrl = c.templatePath ? urls.template(c.id, c.templateFileName ?? 'template') : null;
          return {
            id: c.id, uuid: c.uuid, name: c.name, cancelled: c.cancelled, width: c.width, height: c.height, error: c.error,
            errorType: c.errorType, autoOrientationDetection: c.autoOrientationDetection,
            resolutionThreshold: c.resolutionThreshold, resolutionLimit: c.resolutionLimit,
            objectPapers: papers.filter((x) => x.componentId === c.id)
              .map((x) => ({ id: x.id, paper: x.name, img: urls.asset(x.img), minPageCount: x.minPageCount, maxPageCount: x.maxPageCount })),
            objectOperations: ops.filter((x) => x.componentId === c.id).map((x) => ({ id: x.id, name: x.name, combined: x.combined, img: urls.asset(x.img) })),
            templateFileUpload: Boolean(c.templatePath),
            templateFileName: c.templateFileName,
            templateFileUrl: templateUrl,
            templateRelativeUrl: templateUrl,
          };
        }),
        objectItems: items.map((i) => ({
          item: { id: i.id, name: i.name },
          itemValues: values.filter((v) => v.itemId === i.id).map((v) => ({ id: v.id, itemValue: v.name, remark: v.remark, img: urls.asset(v.img) })),
        })),
        propertyConfigs: configs.map((c) => ({
          id: c.id, number: c.number, sku: c.sku, skuNumber: c.skuNumber, optionValueIds: c.optionValueIds, productId: p.id,
          productName: p.name, productNumber: p.number, saleable: c.saleable, cancelled: c.cancelled, jhiDefault: c.jhiDefault,
          minPageCount: c.minPageCount, maxPageCount: c.maxPageCount, customToning: c.customToning, toning: c.toning,
        })),
      };
    },

    /**
     * What checkFile needs of a SKU, in two statements instead of productDetails' eight: the product's
     * page rules, the SKU's (with its component sizes), and the live components. The same refusals as
     * productDetails: a product the hub may not see is not found, and so is a cancelled or foreign SKU.
     */
    async checkSpec(hubId: number, productId: number, propertyConfigId: number) {
      const [[row], comps] = await Promise.all([specStatement.execute({ hubId, productId, propertyConfigId }), specComponents.execute({ productId })]);
      if (!row) throw notFound('商品不存在', PRODUCT_GONE);
      if (row.configId === null) throw notFound('商品配置不存在', PRODUCT_GONE);
      return {
        product: { pageCount: row.pageCount, minNumberOfPages: row.minNumberOfPages, maxNumberOfPages: row.maxNumberOfPages, priceBasis: row.priceBasis },
        config: { id: row.configId, minPageCount: row.minPageCount, maxPageCount: row.maxPageCount, componentSizes: row.componentSizes ?? {} },
        components: comps,
      };
    },

    priceTable,

    /**
     * The customer's price of one counted unit of a SKU at a quantity (the line with the highest minimum not
     * above it), and of an extra page (copy basis), with what the product counts.
     */
    async customerPrice(hubId: number, customerId: number, q: { productId: number; propertyConfigId: number; quantity: number }) {
      const table = await priceTable(hubId, customerId, q);
      const at = (kind: PriceLineInput['kind']) => table.lines.filter((l) => l.kind === kind && l.minQuantity <= q.quantity)
        .sort((a, b) => b.minQuantity - a.minQuantity)[0];
      const unit = at('unit');
      const extra = table.product.basis === 'copy' ? at('extraPage') : undefined;
      return {
        amount: unit ? Number(unit.amount) : null, propertyConfigId: table.propertyConfigId, quantity: q.quantity, saleable: table.saleable,
        priceBasis: table.product.basis, priceUnit: table.product.unitName, extraPageAmount: extra ? Number(extra.amount) : null,
        breaks: table.lines.filter((l) => l.kind === 'unit' && l.minQuantity > 1).sort((a, b) => a.minQuantity - b.minQuantity)
          .map((l) => ({ from: l.minQuantity, amount: Number(l.amount) })),
      };
    },

    async template(componentId: number) {
      const [c] = await db.select({ path: productComponents.templatePath, name: productComponents.templateFileName })
        .from(productComponents).where(eq(productComponents.id, componentId));
      if (!c?.path) throw notFound('模板文件不存在');
      return { path: c.path, fileName: c.name ?? 'template' };
    },
  };
}
export type CatalogueService = ReturnType<typeof createCatalogueService>;
