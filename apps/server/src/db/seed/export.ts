import { shopClock } from '../../domain/production.ts';
import type { Db } from '../client.ts';
import {
  customers, objectOperations, objectPapers, optionItems, optionValues, priceLines, productCategories, productComponents,
  products, propertyConfigs,
} from '../schema/index.ts';
import type { CategoryInput, CatalogueInput } from './catalogue-schema.ts';

type Sorted = { id: number; sort?: number };
const bySortThenId = (a: Sorted, b: Sorted) => (a.sort ?? 0) - (b.sort ?? 0) || a.id - b.id;

/** `key: value` only when the value is set: the file leaves out what the import takes as absent. */
const opt = <K extends string, V>(key: K, value: V | null | undefined): Partial<Record<K, V>> =>
  (value === null || value === undefined ? {} : ({ [key]: value } as Record<K, V>));

const money = (amount: string) => Number(amount);

/** Rows by the id of their owner (a product's components, a SKU's price lines…), each list in table order. */
function byOwner<T>(rows: readonly T[], owner: (row: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const row of rows) {
    const list = out.get(owner(row));
    if (list) list.push(row);
    else out.set(owner(row), [row]);
  }
  return out;
}

/**
 * The shop's catalogue as it is in the database, in the file format of `npm run import-catalogue`
 * (db/seed/catalogue-schema.ts): what an operator downloads to edit and import again. Importing it back
 * unchanged changes nothing (test/api/admin-hubs.test.ts).
 * - categories are keyed `c<id>` (the table keeps no key; the import matches categories by name under their parent);
 * - components and SKUs an import cancelled are left out or kept cancelled as the import would have them: a
 *   cancelled SKU stays in the file with `cancelled: true`, a cancelled component is left out;
 * - a component's template is named as the file named it (its path in the store, without the product's folder);
 * - customer prices name the customer, as the file does.
 */
export async function exportCatalogue(db: Db): Promise<CatalogueInput & { name: string; prices: NonNullable<CatalogueInput['prices']> }> {
  const [categoryRows, productRows, componentRows, paperRows, operationRows, itemRows, valueRows, skuRows, priceRows, customerRows] = await Promise.all([
    db.select().from(productCategories),
    db.select().from(products),
    db.select().from(productComponents),
    db.select().from(objectPapers),
    db.select().from(objectOperations),
    db.select().from(optionItems),
    db.select().from(optionValues),
    db.select().from(propertyConfigs),
    db.select().from(priceLines),
    db.select({ id: customers.id, name: customers.name }).from(customers),
  ]);

  const childrenOf = (parentId: number | null): CategoryInput[] =>
    categoryRows.filter((c) => c.parentId === parentId).sort(bySortThenId).map((c) => {
      const children = childrenOf(c.id);
      return { key: `c${c.id}`, name: c.name, ...(children.length ? { children } : {}) };
    });

  const valueName = new Map(valueRows.map((v) => [v.id, v.name]));
  const componentsOf = byOwner(componentRows, (c) => c.productId);
  const papersOf = byOwner(paperRows, (x) => x.componentId);
  const operationsOf = byOwner(operationRows, (x) => x.componentId);
  const itemsOf = byOwner(itemRows, (i) => i.productId);
  const valuesOf = byOwner(valueRows, (v) => v.itemId);
  const skusOf = byOwner(skuRows, (s) => s.productId);
  const linesOf = byOwner(priceRows, (l) => l.propertyConfigId);
  const customerName = new Map(customerRows.map((c) => [c.id, c.name]));

  const productsOut = productRows.sort(bySortThenId).map((p) => {
    const all = (componentsOf.get(p.id) ?? []).sort(bySortThenId);
    // A product whose every component was cancelled keeps them in the file (the format needs one).
    const live = all.some((c) => !c.cancelled) ? all.filter((c) => !c.cancelled) : all;
    const componentName = new Map(all.map((c) => [c.uuid, c.name]));
    const items = (itemsOf.get(p.id) ?? []).sort(bySortThenId);
    return {
      number: p.number,
      name: p.name,
      categoryKey: `c${p.categoryId}`,
      ...opt('image', p.productImage),
      priceBasis: p.priceBasis,
      ...opt('priceUnit', p.priceUnit),
      pageCount: p.pageCount,
      ...opt('minNumberOfPages', p.minNumberOfPages),
      ...opt('maxNumberOfPages', p.maxNumberOfPages),
      cancelled: p.cancelled,
      components: live.map((c) => ({
        name: c.name,
        width: c.width,
        height: c.height,
        error: c.error,
        errorType: c.errorType,
        autoOrientationDetection: c.autoOrientationDetection,
        resolutionThreshold: c.resolutionThreshold,
        ...opt('resolutionLimit', c.resolutionLimit),
        ...opt('templateFile', c.templatePath?.startsWith(`${p.number}/`) ? c.templatePath.slice(p.number.length + 1) : c.templatePath),
        papers: (papersOf.get(c.id) ?? []).sort(bySortThenId).map((x) => ({
          name: x.name, ...opt('minPageCount', x.minPageCount), ...opt('maxPageCount', x.maxPageCount), ...opt('img', x.img),
        })),
        operations: (operationsOf.get(c.id) ?? []).sort(bySortThenId).map((x) => ({ name: x.name, combined: x.combined, ...opt('img', x.img) })),
      })),
      optionItems: items.map((i) => ({
        name: i.name,
        values: (valuesOf.get(i.id) ?? []).sort(bySortThenId).map((v) => ({ name: v.name, ...opt('remark', v.remark), ...opt('img', v.img) })),
      })),
      skus: (skusOf.get(p.id) ?? []).sort(bySortThenId).map((s) => ({
        number: s.number,
        skuNumber: s.skuNumber,
        options: s.optionValueIds.map((id) => valueName.get(id) ?? ''),
        saleable: s.saleable,
        cancelled: s.cancelled,
        default: s.jhiDefault,
        ...opt('minPageCount', s.minPageCount),
        ...opt('maxPageCount', s.maxPageCount),
        customToning: s.customToning,
        toning: s.toning,
        ...opt('componentSizes', s.componentSizes
          ? Object.fromEntries(Object.entries(s.componentSizes).map(([uuid, size]) => [componentName.get(uuid) ?? uuid, { width: size.width, height: size.height }]))
          : null),
      })),
    };
  });

  // Prices: per SKU, the retail line and each customer's lines from 1 and at each quantity break.
  const skusInOrder = productsOut.flatMap((p) => p.skus.map((s) => s.number));
  const skuIdOf = new Map(skuRows.map((s) => [s.number, s.id]));
  const prices = skusInOrder.flatMap((number) => {
    const lines = linesOf.get(skuIdOf.get(number) ?? -1) ?? [];
    if (lines.length === 0) return [];
    const retail = lines.find((l) => l.priceType === 'retail' && l.kind === 'unit' && l.minQuantity === 1);
    const customerIds = [...new Set(lines.filter((l) => l.priceType === 'customer').map((l) => l.entityId))].sort((a, b) => a - b);
    return [{
      sku: number,
      ...opt('retail', retail ? money(retail.amount) : null),
      customerPrices: customerIds.map((entityId) => {
        const mine = lines.filter((l) => l.priceType === 'customer' && l.entityId === entityId);
        const at = (kind: 'unit' | 'extraPage', from: number) => mine.find((l) => l.kind === kind && l.minQuantity === from);
        const unit = at('unit', 1);
        const extraPage = at('extraPage', 1);
        const breaks = [...new Set(mine.filter((l) => l.minQuantity > 1).map((l) => l.minQuantity))].sort((a, b) => a - b);
        return {
          customer: customerName.get(entityId) ?? String(entityId),
          amount: unit ? money(unit.amount) : 0,
          ...opt('extraPage', extraPage ? money(extraPage.amount) : null),
          breaks: breaks.map((from) => {
            const breakExtra = at('extraPage', from);
            return { from, amount: money((at('unit', from) ?? unit)?.amount ?? '0'), ...opt('extraPage', breakExtra ? money(breakExtra.amount) : null) };
          }),
        };
      }),
    }];
  });

  // The shop's day (UTC+8), as its orders and production zips count days.
  return { name: `导出 ${shopClock(new Date()).slice(0, 10)}`, categories: childrenOf(null), products: productsOut, prices };
}
