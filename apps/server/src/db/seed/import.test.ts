import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDataDir } from '../../../test/helpers/data-dir.ts';
import { openDb, type DbHandle } from '../client.ts';
import * as schema from '../schema/index.ts';
import type { CatalogueInput } from './catalogue-schema.ts';
import { ASSETS_DIR, DEMO_CATALOGUE_FILE } from './demo.ts';
import {
  CatalogueImportError, catalogueStoreDirs, componentUuid, formatProblem, importCatalogue, parseCatalogueFile, validateCatalogue,
  type ImportOptions,
} from './import.ts';

const demoText = await readFile(DEMO_CATALOGUE_FILE, 'utf8');
const demoJson = (): CatalogueInput => JSON.parse(demoText) as CatalogueInput;

function parseOk(data: unknown) {
  const r = validateCatalogue(data);
  if (!r.ok) throw new Error(r.problems.map(formatProblem).join('\n'));
  return r.catalogue;
}

describe('parseCatalogueFile', () => {
  it('says where a file stops being JSON, by line and column', () => {
    const r = parseCatalogueFile('{\n  "products": [\n    {name: 1}\n]}');
    // In Chinese, with the character found there (V8's words are English).
    expect(r.ok ? '' : r.problems[0]!.message).toBe('不是有效的 JSON：第3行第6列附近有错误（此处是“n”）');
    const cut = parseCatalogueFile('{"products": [');
    expect(cut.ok ? '' : cut.problems[0]!.message).toBe('不是有效的 JSON：内容不完整，文件在结尾前中断');
  });

  it('accepts the demo catalogue', () => {
    const r = parseCatalogueFile(demoText);
    expect(r.ok).toBe(true);
  });

  it('names every bad field by its path, several at once', () => {
    const bad = demoJson() as unknown as {
      products: Array<Record<string, unknown> & { components: Array<Record<string, unknown>>; skus: Array<Record<string, unknown>> }>;
      prices: Array<Record<string, unknown>>;
    } & Record<string, unknown>;
    const p = bad.products;
    p[2]!.components[0]!.width = 0;
    p[5]!.components[1]!.height = -3;
    p[0]!.categoryKey = '不存在的分类';
    p[1]!.skus[0]!.options = ['光面', '珠光'];
    p[4]!.skus[1]!.number = 'PH5-GL-NB';
    p[4]!.skus[2]!.minPageCount = 60;
    p[4]!.skus[2]!.maxPageCount = 30;
    p[6]!.components[0]!.extra = true;
    p[3]!.components.push({ ...p[3]!.components[0]! });
    bad.prices[0]!.sku = 'NO-SUCH-SKU';
    bad.customers = [{ name: '演示客户' }];

    const r = parseCatalogueFile(JSON.stringify(bad));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const lines = r.problems.map(formatProblem);
    const paths = r.problems.map((x) => x.path);
    expect(lines).toContain('products[2].components[0].width（产品 PO-A3）: 必须大于0');
    expect(lines.some((l) => /^products\[5\]\.components\[1\]\.height（产品 [^）]+）: 必须大于0$/.test(l))).toBe(true);
    expect(paths).toContain('products[0].categoryKey');
    expect(paths).toContain('products[1].skus[0].options[1]');
    expect(paths).toContain('products[4].skus[1].number');
    expect(paths).toContain('products[4].skus[2].maxPageCount');
    expect(paths).toContain('products[6].components[0].extra');
    expect(paths).toContain('products[3].components[1].name');
    expect(paths).toContain('prices[0].sku');
    expect(paths).toContain('customers');
    expect(r.problems.every((x) => x.message.length > 0)).toBe(true);
  });

  it('names the broken references too when a field has the wrong type or value (they came only once those were fixed)', () => {
    const bad = demoJson() as unknown as {
      products: Array<Record<string, unknown> & { skus: Array<Record<string, unknown> & { options: unknown[] }> }>;
      prices: Array<Record<string, unknown> & { customerPrices?: Array<Record<string, unknown>> }>;
    };
    const p = bad.products;
    p[0]!.priceBasis = 'per-sheet';
    p[1]!.name = '';
    p[2]!.categoryKey = 'no-such-category';
    p[5]!.number = p[4]!.number;
    bad.prices[0]!.amount = '八毛';
    bad.prices[1]!.sku = 'NO-SUCH-SKU';
    const r = parseCatalogueFile(JSON.stringify(bad));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((x) => x.path)).toEqual(expect.arrayContaining([
      'products[0].priceBasis', 'products[1].name', 'prices[0].amount',
      'products[2].categoryKey', 'products[5].number', 'prices[1].sku',
    ]));
  });

  it('names the product or SKU a problem is in and the value found, as the operator searches the file for them (console walk)', () => {
    const bad = demoJson() as unknown as {
      products: Array<Record<string, unknown> & { components: Array<Record<string, unknown>> }>;
      prices: Array<Record<string, unknown> & { customerPrices: Array<Record<string, unknown>> }>;
    };
    bad.prices[0]!.customerPrices[0]!.amount = '1,200.50';
    bad.prices[1]!.retail = '１２';
    bad.products[2]!.components[0]!.width = 0;
    const r = parseCatalogueFile(JSON.stringify(bad));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const lines = r.problems.map(formatProblem);
    expect(lines).toContain('prices[0].customerPrices[0].amount（SKU PH5-GL-NB）: 必须是数字（此处是“1,200.50”）');
    expect(lines.find((l) => l.startsWith('prices[1].retail'))).toMatch(/^prices\[1\]\.retail（SKU [^）]+）: .*（此处是“１２”）$/);
    expect(lines).toContain('products[2].components[0].width（产品 PO-A3）: 必须大于0');
  });

  it('says a CSV or spreadsheet text is not a catalogue, which is a JSON file', () => {
    const csv = parseCatalogueFile('\uFEFFSKU,价格,客户\r\nPH5-GL-NB,"1,200.50",演示客户\r\n');
    expect(csv.ok ? '' : csv.problems[0]!.message).toBe('产品目录须是 JSON 文件（可在控制台“导出当前目录”得到一份），不能导入 CSV 或 Excel 表格');
  });

  it('reports only the field problems of a file too broken for its references to be followed', () => {
    const r = parseCatalogueFile(JSON.stringify({ categories: 'none', products: [{ number: 7, skus: 'x' }], prices: {} }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((x) => x.path)).toEqual(expect.arrayContaining(['categories', 'prices']));
  });

  it('reports wrong types and bad enum values by path', () => {
    const bad = demoJson() as unknown as { products: Array<{ components: Array<Record<string, unknown>>; skus: Array<Record<string, unknown>> }> };
    bad.products[0]!.components[0]!.errorType = 'inch';
    bad.products[0]!.components[0]!.width = '127';
    bad.products[1]!.skus[0]!.toning = 'Auto';
    delete bad.products[2]!.components[0]!.name;
    const r = parseCatalogueFile(JSON.stringify(bad));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((x) => x.path)).toEqual(expect.arrayContaining([
      'products[0].components[0].errorType', 'products[0].components[0].width', 'products[1].skus[0].toning', 'products[2].components[0].name',
    ]));
    expect(r.problems.find((x) => x.path === 'products[2].components[0].name')?.message).toBe('必填');
  });

  it('refuses text that is not JSON, and paths that leave the template folder', () => {
    const notJson = parseCatalogueFile('{"categories": [');
    expect(notJson.ok).toBe(false);
    const bad = demoJson();
    const comp = bad.products[0]?.components[0];
    if (comp) comp.templateFile = '../../etc/passwd';
    const r = validateCatalogue(bad);
    expect(r.ok ? [] : r.problems.map((x) => x.path)).toEqual(['products[0].components[0].templateFile']);
  });

  it('refuses a product without its price basis, and prices that do not fit the basis', () => {
    const bad = demoJson();
    const at = (n: string) => bad.products.findIndex((p) => p.number === n);
    const priceOf = (sku: string) => bad.prices!.findIndex((p) => p.sku === sku);
    const missing = demoJson();
    delete (missing.products[at('PH-5')] as Record<string, unknown>).priceBasis;
    (missing.products[at('PH-6')] as Record<string, unknown>).priceBasis = 'page';
    const basis = validateCatalogue(missing);
    expect(basis.ok ? [] : basis.problems.map(formatProblem)).toEqual([
      `products[${at('PH-5')}].priceBasis（产品 PH-5）: 必填：按张 "print"、按份 "copy" 或按平方米 "area"`,
      `products[${at('PH-6')}].priceBasis（产品 PH-6）: 必须是 "print"、"copy" 或 "area"（此处是“page”）`,
    ]);

    bad.products[at('KT-6090')]!.priceUnit = '块';
    // extra pages on a product priced by prints; a brochure SKU (up to 48 pages, base 20) without its extra-page price
    bad.prices![priceOf('PO-A3-CP')]!.customerPrices![0]!.extraPage = 0.5;
    delete bad.prices![priceOf('BR-SS-C157-GL')]!.customerPrices![0]!.extraPage;
    bad.prices![priceOf('PH5-GL-WB')]!.customerPrices![0]!.breaks = [{ from: 500, amount: 0.5 }, { from: 100, amount: 0.6 }];
    bad.prices![priceOf('PH5-MT-NB')]!.customerPrices![0]!.breaks = [{ from: 1, amount: 0.5 }];
    const r = validateCatalogue(bad);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const problem = (path: string) => r.problems.find((x) => x.path === path)?.message;
    expect(problem(`products[${at('KT-6090')}].priceUnit`)).toBe('按平方米计价的单位固定为㎡，不能另设');
    expect(problem(`prices[${priceOf('PO-A3-CP')}].customerPrices[0].extraPage`)).toBe('产品 PO-A3 不按份计价（priceBasis: "print"），没有加页价');
    expect(problem(`prices[${priceOf('BR-SS-C157-GL')}].customerPrices[0].extraPage`)).toBe('必填：SKU BR-SS-C157-GL 可超过产品的基础页数，需要每页的加页价');
    expect(problem(`prices[${priceOf('PH5-GL-WB')}].customerPrices[0].breaks[1].from`)).toBe('必须大于上一档的 500（按数量从小到大）');
    expect(problem(`prices[${priceOf('PH5-MT-NB')}].customerPrices[0].breaks[0].from`)).toBe('必须大于1（从1起的价格写在 amount）');
    // Business cards hold both sides in a copy (base 2 pages, at most 2): no extra-page price is needed.
    expect(r.problems.some((x) => x.path.startsWith(`prices[${priceOf('BC-D-C300')}]`))).toBe(false);
  });

  it('refuses numbers the database cannot hold, and a price with a third decimal however small, by path (they were a 500 and a stack trace)', () => {
    const bad = demoJson();
    const at = (n: string) => bad.products.findIndex((p) => p.number === n);
    const priceOf = (sku: string) => bad.prices!.findIndex((p) => p.sku === sku);
    const ph5 = bad.prices![priceOf('PH5-GL-NB')]!;
    ph5.customerPrices![0]!.amount = 10_000_000_000;
    ph5.customerPrices![0]!.breaks = [{ from: 3_000_000_000, amount: 0.5 }];
    ph5.customerPrices![1]!.amount = 1e300;
    ph5.retail = 1e13;
    bad.prices![priceOf('PH5-GL-WB')]!.customerPrices![0]!.amount = 0.1000000001;
    bad.products[at('BR-A4')]!.maxNumberOfPages = 3_000_000_000;
    bad.products[at('PH-5')]!.components[0]!.resolutionThreshold = 2 ** 31;
    const r = validateCatalogue(bad);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const problem = (path: string) => r.problems.find((x) => x.path === path)?.message;
    const price = `prices[${priceOf('PH5-GL-NB')}]`;
    expect(problem(`${price}.customerPrices[0].amount`)).toBe('不能大于 9999999999.99');
    expect(problem(`${price}.customerPrices[1].amount`)).toBe('不能大于 9999999999.99');
    expect(problem(`${price}.retail`)).toBe('不能大于 9999999999.99');
    expect(problem(`${price}.customerPrices[0].breaks[0].from`)).toBe('不能大于 2147483647');
    expect(problem(`prices[${priceOf('PH5-GL-WB')}].customerPrices[0].amount`)).toBe('最多两位小数');
    expect(problem(`products[${at('BR-A4')}].maxNumberOfPages`)).toBe('不能大于 2147483647');
    expect(problem(`products[${at('PH-5')}].components[0].resolutionThreshold`)).toBe('不能大于 2147483647');
    // The largest the price column holds is taken.
    const most = demoJson();
    most.prices![priceOf('PH5-GL-NB')]!.customerPrices![0]!.amount = 9_999_999_999.99;
    expect(validateCatalogue(most).ok).toBe(true);
  });

  it('tolerates a byte order mark', () => {
    expect(parseCatalogueFile(`\uFEFF${demoText}`).ok).toBe(true);
  });
});

describe('importCatalogue', () => {
  let handle: DbHandle;
  let dataDir: string;
  let options: ImportOptions;

  const tableCounts = async () => {
    const { db } = handle;
    const n = async (t: PgTable) => (await db.select({ n: count() }).from(t))[0]?.n ?? 0;
    return {
      categories: await n(schema.productCategories), products: await n(schema.products), components: await n(schema.productComponents),
      papers: await n(schema.objectPapers), operations: await n(schema.objectOperations), optionItems: await n(schema.optionItems),
      optionValues: await n(schema.optionValues), skus: await n(schema.propertyConfigs), prices: await n(schema.priceLines),
    };
  };

  beforeAll(async () => {
    dataDir = await emptyDataDir('seed-import-');
    handle = await openDb({ dataDir });
    options = { templatesSourceDir: path.join(ASSETS_DIR, 'templates'), imagesSourceDir: ASSETS_DIR, ...catalogueStoreDirs(dataDir) };
    const { db } = handle;
    const [hub1] = await db.insert(schema.customerHubs).values({ name: 'A' }).returning();
    const [hub2] = await db.insert(schema.customerHubs).values({ name: 'B' }).returning();
    await db.insert(schema.customers).values([{ hubId: hub1!.id, name: '演示客户' }, { hubId: hub2!.id, name: '分批收货客户' }]);
  });
  afterAll(async () => {
    await handle?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses an unknown customer, naming the price field, and writes nothing', async () => {
    const c = demoJson();
    c.prices![3]!.customerPrices!.push({ customer: '没有这个客户', amount: 1 });
    await expect(importCatalogue(handle.db, parseOk(c), options)).rejects.toSatisfy((e: unknown) =>
      e instanceof CatalogueImportError && e.problems.some((p) => p.path === 'prices[3].customerPrices[2].customer'));
    expect((await tableCounts()).products).toBe(0);
  });

  it('refuses a missing template file by its path', async () => {
    const c = demoJson();
    c.products[5]!.components[1]!.templateFile = '不存在.pdf';
    await expect(importCatalogue(handle.db, parseOk(c), options)).rejects.toSatisfy((e: unknown) =>
      e instanceof CatalogueImportError && e.problems.map((p) => p.path).join() === 'products[5].components[1].templateFile');
  });

  it('imports the demo catalogue with its files', async () => {
    const s = await importCatalogue(handle.db, parseOk(demoJson()), options);
    expect(s.products).toEqual({ total: 8, created: 8, updated: 0, removed: 0 });
    expect(s.skus.created).toBe(34);
    expect(s.files.templates).toBe(10);
    const counts = await tableCounts();
    expect(counts).toMatchObject({ categories: 9, products: 8, components: 10, skus: 34 });
    // 33 priced SKUs: a retail line each, and per customer its price from 1, its extra-page price and its breaks
    expect(counts.prices).toBe(207);
    const basis = await handle.db.select({ number: schema.products.number, basis: schema.products.priceBasis, unit: schema.products.priceUnit }).from(schema.products).orderBy(schema.products.sort);
    expect(basis.map((b) => `${b.number}:${b.basis}:${b.unit ?? ''}`)).toEqual([
      'PH-5:print:张', 'PH-6:print:张', 'PO-A3:print:张', 'PO-A2:print:张', 'BR-A4:copy:本', 'BC-90:copy:盒', 'FL-A4:copy:张', 'KT-6090:area:',
    ]);
    const brochure = await handle.db.select({ kind: schema.priceLines.kind, min: schema.priceLines.minQuantity, amount: schema.priceLines.amount })
      .from(schema.priceLines).innerJoin(schema.propertyConfigs, eq(schema.priceLines.propertyConfigId, schema.propertyConfigs.id))
      .innerJoin(schema.customers, eq(schema.customers.id, schema.priceLines.entityId))
      .where(and(eq(schema.propertyConfigs.number, 'BR-SS-C157-GL'), eq(schema.priceLines.priceType, 'customer'), eq(schema.customers.name, '演示客户')));
    expect(brochure.map((l) => `${l.kind}@${l.min}=${l.amount}`).sort()).toEqual(['extraPage@1=0.30', 'extraPage@50=0.25', 'unit@1=23.80', 'unit@50=21.42']);

    const [card] = await handle.db.select().from(schema.productComponents).where(eq(schema.productComponents.name, '正面'));
    expect(card).toMatchObject({ width: 90, height: 54, error: 1, errorType: 'mm', resolutionThreshold: 300, templateFileName: '名片_正面_模板.pdf' });
    expect(card?.templatePath).toBe('BC-90/名片_正面_模板.pdf');
    expect(card?.uuid).toBe(componentUuid('BC-90', '正面'));
    expect((await stat(path.join(options.templatesDir, card!.templatePath!))).size).toBeGreaterThan(1000);
    expect((await stat(path.join(options.imagesDir!, 'products/business-card.png'))).isFile()).toBe(true);

    const [sku] = await handle.db.select().from(schema.propertyConfigs).where(eq(schema.propertyConfigs.number, 'BR-PB-M128-MT'));
    expect(sku).toMatchObject({ sku: '装订方式:无线胶装;内页纸张:128g哑粉纸;封面工艺:覆哑膜', minPageCount: 24, maxPageCount: 100, saleable: true });
    expect(sku?.optionValueIds).toHaveLength(3);
  });

  it('re-importing the same file changes nothing and duplicates nothing', async () => {
    const before = await tableCounts();
    const ids = await handle.db.select({ id: schema.propertyConfigs.id, number: schema.propertyConfigs.number }).from(schema.propertyConfigs).orderBy(schema.propertyConfigs.id);
    const s = await importCatalogue(handle.db, parseOk(demoJson()), options);
    for (const k of ['categories', 'products', 'components', 'papers', 'operations', 'optionItems', 'optionValues', 'skus', 'prices'] as const) {
      expect(s[k], k).toMatchObject({ created: 0, updated: 0, removed: 0 });
    }
    expect(s.files.copied).toBe(0);
    expect(await tableCounts()).toEqual(before);
    expect(await handle.db.select({ id: schema.propertyConfigs.id, number: schema.propertyConfigs.number }).from(schema.propertyConfigs).orderBy(schema.propertyConfigs.id)).toEqual(ids);
  });

  it('re-importing a changed file updates in place', async () => {
    const c = demoJson();
    const card = c.products.find((p) => p.number === 'BC-90')!;
    card.name = '高档商务名片';
    card.components[0]!.papers!.pop();
    card.skus = card.skus.filter((s) => s.number !== 'BC-S-P350');
    card.skus[0]!.saleable = false;
    c.prices = c.prices!.filter((p) => p.sku !== 'BC-S-P350');
    const price = c.prices!.find((p) => p.sku === 'BC-D-C300')!;
    price.retail = 26.5;
    price.customerPrices = price.customerPrices!.filter((x) => x.customer === '演示客户');
    const [before] = await handle.db.select().from(schema.products).where(eq(schema.products.number, 'BC-90'));

    const s = await importCatalogue(handle.db, parseOk(c), options);
    expect(s.products).toMatchObject({ created: 0, updated: 1 });
    expect(s.papers).toMatchObject({ created: 0, removed: 1 });
    expect(s.skus).toMatchObject({ created: 0, updated: 1, removed: 1 });
    // One customer's lines go (its price from 1 and its break); the cancelled SKU's lines stay with it (it is no longer in the file).
    expect(s.prices).toMatchObject({ created: 0, updated: 1, removed: 2 });

    const [after] = await handle.db.select().from(schema.products).where(eq(schema.products.number, 'BC-90'));
    expect(after).toMatchObject({ id: before!.id, name: '高档商务名片' });
    const [gone] = await handle.db.select().from(schema.propertyConfigs).where(eq(schema.propertyConfigs.number, 'BC-S-P350'));
    expect(gone?.cancelled).toBe(true);
    const lines = await handle.db.select().from(schema.priceLines).innerJoin(schema.propertyConfigs, eq(schema.priceLines.propertyConfigId, schema.propertyConfigs.id))
      .where(eq(schema.propertyConfigs.number, 'BC-D-C300'));
    expect(lines.map((l) => [l.price_lines.priceType, l.price_lines.minQuantity, l.price_lines.amount]).sort()).toEqual([['customer', 1, '21.25'], ['customer', 10, '19.13'], ['retail', 1, '26.50']]);

    // And back: the original file restores the original rows, still without new ids.
    const back = await importCatalogue(handle.db, parseOk(demoJson()), options);
    expect(back.skus).toMatchObject({ created: 0, updated: 2 });
    const [restored] = await handle.db.select().from(schema.propertyConfigs).where(eq(schema.propertyConfigs.number, 'BC-S-P350'));
    expect(restored).toMatchObject({ id: gone!.id, cancelled: false });
  });

  it('stores SKU component sizes by component uuid', async () => {
    const c = demoJson();
    const poster = c.products.find((p) => p.number === 'PO-A3')!;
    poster.skus[0]!.componentSizes = { 画面: { width: 300, height: 450 } };
    await importCatalogue(handle.db, parseOk(c), options);
    const [sku] = await handle.db.select().from(schema.propertyConfigs).where(eq(schema.propertyConfigs.number, poster.skus[0]!.number));
    expect(sku?.componentSizes).toEqual({ [componentUuid('PO-A3', '画面')]: { width: 300, height: 450 } });
    const again = await importCatalogue(handle.db, parseOk(c), options);
    expect(again.skus.updated).toBe(0);
    await importCatalogue(handle.db, parseOk(demoJson()), options);
  });
});
