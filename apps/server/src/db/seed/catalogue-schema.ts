import { z } from 'zod';

/**
 * The catalogue file a print shop loads with `npm run import-catalogue`: categories, products with their
 * components, options and SKUs, and prices. Customers and hubs are not part of it (add-customer makes them).
 * Every product, SKU and price is keyed by its number, so importing the same file again changes nothing.
 */

const REQUIRED = '必填';

const text = z.string({ error: (i) => (i.input === undefined ? REQUIRED : '必须是文本') }).trim().min(1, { error: '不能为空' });
const optionalText = z.string({ error: '必须是文本' }).trim().nullish();
/** A key of the catalogue (a number, a category's key): indexed, and a product's names its folder of templates. */
const key = text.max(100, { error: '最长 100 个字符' });

/** The largest whole number an integer column holds (PostgreSQL integer). */
const INT_MAX = 2_147_483_647;
/** The largest price the price column holds (numeric(12, 2)). */
const MONEY_MAX = 9_999_999_999.99;

const num = z.number({ error: (i) => (i.input === undefined ? REQUIRED : '必须是数字') });
const positive = num.positive({ error: '必须大于0' });
const nonNegative = num.min(0, { error: '不能小于0' });
const wholeNumber = z.number({ error: (i) => (i.input === undefined ? REQUIRED : '必须是整数') })
  .int({ error: '必须是整数' }).max(INT_MAX, { error: `不能大于 ${INT_MAX}` });
const pageCount = wholeNumber.min(1, { error: '必须大于0' });
const bool = z.boolean({ error: '必须是 true 或 false' });
/** Yuan with at most two decimals: what the two decimals write is exactly the number (0.1000000001 is not 0.10). */
const money = nonNegative.max(MONEY_MAX, { error: `不能大于 ${MONEY_MAX}` })
  .refine((v) => Number(v.toFixed(2)) === v, { error: '最多两位小数' });

/** A path below a folder of the catalogue: no absolute paths, no `..`, no backslashes, so it cannot escape. */
const relativeFile = text.refine(
  (p) => !p.startsWith('/') && !p.includes('\\') && !p.includes('\0') && !/^[a-zA-Z]:/.test(p)
    && p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..'),
  { error: '必须是目录内的相对路径（不能以 / 开头，不能含 .. 或 \\）' },
);
/** An image: a file under the catalogue's image folder, or an absolute http(s) URL kept as given. */
const image = z.union([z.string().trim().regex(/^https?:\/\/\S+$/), relativeFile], { error: '必须是图片文件的相对路径或 http(s) 地址' }).nullish();

export type CategoryInput = { key: string; name: string; children?: CategoryInput[] | undefined };
const categorySchema: z.ZodType<CategoryInput> = z.lazy(() =>
  z.strictObject({
    key,
    name: text,
    children: z.array(categorySchema).optional(),
  }),
);

const paperSchema = z.strictObject({
  name: text,
  minPageCount: pageCount.nullish(),
  maxPageCount: pageCount.nullish(),
  img: image,
});

const operationSchema = z.strictObject({
  name: text,
  /** A combined operation applies to the whole product (e.g. 装订) rather than to each page. */
  combined: bool.default(false),
  img: image,
});

/** A printed size in millimetres: up to 100 m (1e308 was taken: API probe). */
const millimetres = positive.max(100_000, { error: '不能大于 100000（毫米）' });

const componentSchema = z.strictObject({
  name: text,
  /** Finished size in millimetres. */
  width: millimetres,
  height: millimetres,
  /** Tolerance; `errorType` says whether it is in millimetres or a percentage of the size. Up to 1 m or 1000 %: a larger one passed every file. */
  error: nonNegative.max(1000, { error: '不能大于 1000' }).default(0),
  errorType: z.enum(['mm', 'percent'], { error: '必须是 "mm" 或 "percent"' }).default('mm'),
  autoOrientationDetection: bool.default(false),
  /** Minimum DPI, 0 = no threshold. */
  resolutionThreshold: wholeNumber.min(0, { error: '不能小于0' }).default(0),
  resolutionLimit: wholeNumber.positive({ error: '必须大于0' }).nullish(),
  /** A file name under the catalogue's template folder. */
  templateFile: relativeFile.nullish(),
  papers: z.array(paperSchema).default([]),
  operations: z.array(operationSchema).default([]),
});

const optionValueSchema = z.strictObject({ name: text, remark: optionalText, img: image });
const optionItemSchema = z.strictObject({
  name: text,
  values: z.array(optionValueSchema).min(1, { error: '至少需要一个选项值' }),
});

const skuSchema = z.strictObject({
  /** The SKU's key (unique in the whole catalogue); prices name it. */
  number: key,
  skuNumber: key,
  /** One value name per option item, in the order of the product's optionItems. */
  options: z.array(text),
  saleable: bool.default(true),
  cancelled: bool.default(false),
  default: bool.default(false),
  minPageCount: pageCount.nullish(),
  maxPageCount: pageCount.nullish(),
  customToning: bool.default(false),
  toning: z.enum(['Manual', 'None'], { error: '必须是 "Manual" 或 "None"' }).default('None'),
  /** Sizes (mm) of some components for this SKU, by component name, overriding the component's own. */
  componentSizes: z.record(z.string(), z.strictObject({ width: millimetres, height: millimetres })).nullish(),
});

const productSchema = z.strictObject({
  /** The product's key; also names its folder in the template store, hence the plain characters. */
  number: key.regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { error: '只能包含字母、数字、点、下划线和连字符' }),
  name: text,
  categoryKey: key,
  image,
  /**
   * What the price counts (../shared/spec/decisions.md §6): "print" (photos, posters: each file or page is a print; prints =
   * pages × copies), "copy" (brochures, cards, flyers: a copy holds pageCount pages; each page above it is
   * priced by the price's extraPage) or "area" (m² of the files × copies). Required: a wrong guess loses money.
   */
  priceBasis: z.enum(['print', 'copy', 'area'], { error: (i) => (i.input === undefined ? '必填：按张 "print"、按份 "copy" 或按平方米 "area"' : '必须是 "print"、"copy" 或 "area"') }),
  /** The name of one counted unit in the basis text (张, 本, 盒…); default 张 for print, 份 for copy. */
  priceUnit: text.max(4, { error: '最多4个字' }).nullish(),
  /** Base page count: pages above it are extra pages (addPageNum). */
  pageCount: pageCount.default(1),
  minNumberOfPages: pageCount.nullish(),
  maxNumberOfPages: pageCount.nullish(),
  cancelled: bool.default(false),
  components: z.array(componentSchema).min(1, { error: '至少需要一个部件' }),
  optionItems: z.array(optionItemSchema).default([]),
  skus: z.array(skuSchema).min(1, { error: '至少需要一个SKU' }),
});

const quantityBreak = z.strictObject({
  /** From this many counted units on (prints, copies or m²); the price's own amount holds from 1. */
  from: wholeNumber.min(2, { error: '必须大于1（从1起的价格写在 amount）' }),
  amount: money,
  /** The extra-page price from this count on; without it the one below holds. */
  extraPage: money.nullish(),
});

const priceSchema = z.strictObject({
  /** The SKU's `number`. */
  sku: text,
  /** The shop's list price (suggested retail), yuan per unit. */
  retail: money.nullish(),
  customerPrices: z.array(z.strictObject({
    customer: text,
    /** Yuan per counted unit (a print, a copy, a m²) from the first one. */
    amount: money,
    /** Yuan per page above the product's pageCount, per copy: only for priceBasis "copy". */
    extraPage: money.nullish(),
    /** Quantity breaks at the counted units, in ascending order. */
    breaks: z.array(quantityBreak).default([]),
  })).default([]),
});

const catalogueObject = z.strictObject({
  $schema: z.string().optional(),
  /** A label for the import log. */
  name: z.string().optional(),
  categories: z.array(categorySchema).min(1, { error: '至少需要一个分类' }),
  products: z.array(productSchema),
  /** A SKU with no entry here has no price: the portal shows 暂无. */
  prices: z.array(priceSchema).default([]),
});

type Path = Array<string | number>;
type CatalogueDraft = z.output<typeof catalogueObject>;

/** The cross-field rules: every reference resolves, keys are unique, ranges are ordered. */
function checkReferences(c: CatalogueDraft, ctx: z.RefinementCtx): void {
  const problem = (path: Path, message: string) => ctx.addIssue({ code: 'custom', path, message });

  const categoryKeys = new Set<string>();
  const walk = (nodes: CategoryInput[], base: Path) => {
    const siblingNames = new Set<string>();
    nodes.forEach((n, i) => {
      if (categoryKeys.has(n.key)) problem([...base, i, 'key'], `分类键重复: ${n.key}`);
      categoryKeys.add(n.key);
      // Categories are stored by name under their parent, so two siblings cannot share a name.
      if (siblingNames.has(n.name)) problem([...base, i, 'name'], `同级分类名称重复: ${n.name}`);
      siblingNames.add(n.name);
      if (n.children) walk(n.children, [...base, i, 'children']);
    });
  };
  walk(c.categories, ['categories']);

  const productNumbers = new Set<string>();
  const skuNumbers = new Map<string, string>();
  /** Per SKU number: its product's basis, and whether a work of it may have pages above the base. */
  const skuPricing = new Map<string, { basis: 'print' | 'copy' | 'area'; extraPages: boolean; product: string }>();
  const orderedRange = (min: number | null | undefined, max: number | null | undefined, path: Path, maxKey: string) => {
    if (min != null && max != null && min > max) problem([...path, maxKey], `不能小于最小值 ${min}`);
  };

  c.products.forEach((p, pi) => {
    const pp: Path = ['products', pi];
    if (productNumbers.has(p.number)) problem([...pp, 'number'], `产品编号重复: ${p.number}`);
    productNumbers.add(p.number);
    if (!categoryKeys.has(p.categoryKey)) problem([...pp, 'categoryKey'], `分类不存在: ${p.categoryKey}`);
    orderedRange(p.minNumberOfPages, p.maxNumberOfPages, pp, 'maxNumberOfPages');
    if (p.minNumberOfPages != null && p.pageCount < p.minNumberOfPages) problem([...pp, 'pageCount'], `不能小于最少页数 ${p.minNumberOfPages}`);
    if (p.maxNumberOfPages != null && p.pageCount > p.maxNumberOfPages) problem([...pp, 'pageCount'], `不能大于最多页数 ${p.maxNumberOfPages}`);
    if (p.priceBasis === 'area' && p.priceUnit != null) problem([...pp, 'priceUnit'], '按平方米计价的单位固定为㎡，不能另设');

    const componentNames = new Set<string>();
    p.components.forEach((comp, ci) => {
      const cp: Path = [...pp, 'components', ci];
      if (componentNames.has(comp.name)) problem([...cp, 'name'], `部件名称重复: ${comp.name}`);
      componentNames.add(comp.name);
      if (comp.errorType === 'percent' && comp.error > 100) problem([...cp, 'error'], '百分比误差不能大于100');
      if (comp.resolutionLimit != null && comp.resolutionThreshold > comp.resolutionLimit) {
        problem([...cp, 'resolutionLimit'], `不能小于分辨率阈值 ${comp.resolutionThreshold}`);
      }
      const paperNames = new Set<string>();
      comp.papers.forEach((paper, i) => {
        if (paperNames.has(paper.name)) problem([...cp, 'papers', i, 'name'], `纸张名称重复: ${paper.name}`);
        paperNames.add(paper.name);
        orderedRange(paper.minPageCount, paper.maxPageCount, [...cp, 'papers', i], 'maxPageCount');
      });
      const operationNames = new Set<string>();
      comp.operations.forEach((op, i) => {
        if (operationNames.has(op.name)) problem([...cp, 'operations', i, 'name'], `工艺名称重复: ${op.name}`);
        operationNames.add(op.name);
      });
    });

    const itemNames = new Set<string>();
    p.optionItems.forEach((item, ii) => {
      if (itemNames.has(item.name)) problem([...pp, 'optionItems', ii, 'name'], `选项名称重复: ${item.name}`);
      itemNames.add(item.name);
      const valueNames = new Set<string>();
      item.values.forEach((v, vi) => {
        if (valueNames.has(v.name)) problem([...pp, 'optionItems', ii, 'values', vi, 'name'], `选项值重复: ${v.name}`);
        valueNames.add(v.name);
      });
    });

    const combinations = new Map<string, string>();
    let defaults = 0;
    p.skus.forEach((s, si) => {
      const sp: Path = [...pp, 'skus', si];
      const owner = skuNumbers.get(s.number);
      if (owner !== undefined) problem([...sp, 'number'], `SKU编号重复: ${s.number}（已用于 ${owner}）`);
      else skuNumbers.set(s.number, p.number);
      if (s.default) defaults += 1;
      if (s.options.length !== p.optionItems.length) {
        problem([...sp, 'options'], `需要 ${p.optionItems.length} 个选项值（每个选项一个: ${p.optionItems.map((i) => i.name).join('、') || '无'}），实际 ${s.options.length} 个`);
      } else {
        let known = true;
        s.options.forEach((name, oi) => {
          const item = p.optionItems[oi];
          if (item && !item.values.some((v) => v.name === name)) {
            known = false;
            const elsewhere = p.optionItems.find((it) => it.values.some((v) => v.name === name));
            problem([...sp, 'options', oi], elsewhere
              ? `"${name}" 属于选项 ${elsewhere.name}，此位置应为选项 ${item.name} 的值`
              : `选项 ${item.name} 没有值 "${name}"`);
          }
        });
        const key = s.options.join('\u0000');
        const twin = combinations.get(key);
        if (known && twin !== undefined) problem([...sp, 'options'], `与 SKU ${twin} 的选项组合相同`);
        combinations.set(key, s.number);
      }
      orderedRange(s.minPageCount, s.maxPageCount, sp, 'maxPageCount');
      if (s.minPageCount != null && p.minNumberOfPages != null && s.minPageCount < p.minNumberOfPages) {
        problem([...sp, 'minPageCount'], `不能小于产品最少页数 ${p.minNumberOfPages}`);
      }
      if (s.maxPageCount != null && p.maxNumberOfPages != null && s.maxPageCount > p.maxNumberOfPages) {
        problem([...sp, 'maxPageCount'], `不能大于产品最多页数 ${p.maxNumberOfPages}`);
      }
      for (const name of Object.keys(s.componentSizes ?? {})) {
        if (!componentNames.has(name)) problem([...sp, 'componentSizes', name], `产品没有部件 "${name}"`);
      }
      // A work of this SKU may hold more pages than the base when its limit (else the product's) allows.
      const max = s.maxPageCount ?? p.maxNumberOfPages;
      skuPricing.set(s.number, { basis: p.priceBasis, extraPages: max == null || max > p.pageCount, product: p.number });
    });
    if (defaults > 1) problem([...pp, 'skus'], `最多一个默认SKU，实际 ${defaults} 个`);
  });

  const priced = new Set<string>();
  c.prices.forEach((price, i) => {
    const path: Path = ['prices', i];
    if (!skuNumbers.has(price.sku)) problem([...path, 'sku'], `SKU不存在: ${price.sku}`);
    if (priced.has(price.sku)) problem([...path, 'sku'], `SKU ${price.sku} 的价格重复`);
    priced.add(price.sku);
    const customers = new Set<string>();
    const sku = skuPricing.get(price.sku);
    price.customerPrices.forEach((cp, j) => {
      const cpp: Path = [...path, 'customerPrices', j];
      if (customers.has(cp.customer)) problem([...cpp, 'customer'], `客户重复: ${cp.customer}`);
      customers.add(cp.customer);
      if (!sku) return;
      if (sku.basis !== 'copy') {
        if (cp.extraPage != null) problem([...cpp, 'extraPage'], `产品 ${sku.product} 不按份计价（priceBasis: "${sku.basis}"），没有加页价`);
        cp.breaks.forEach((b, k) => {
          if (b.extraPage != null) problem([...cpp, 'breaks', k, 'extraPage'], `产品 ${sku.product} 不按份计价（priceBasis: "${sku.basis}"），没有加页价`);
        });
      } else if (sku.extraPages && cp.extraPage == null) {
        problem([...cpp, 'extraPage'], `必填：SKU ${price.sku} 可超过产品的基础页数，需要每页的加页价`);
      }
      cp.breaks.forEach((b, k) => {
        const before = cp.breaks[k - 1];
        if (before && b.from <= before.from) problem([...cpp, 'breaks', k, 'from'], `必须大于上一档的 ${before.from}（按数量从小到大）`);
      });
    });
  });
}

/**
 * The references are followed even when fields failed (a wrong type or value stops zod's refinements by
 * default): an operator saw 4 problems, fixed them, and was shown 4 more. A file too broken to follow
 * (not the shape the rules walk) reports its field problems alone.
 */
export const catalogueSchema = catalogueObject.superRefine(
  (c, ctx) => {
    try {
      checkReferences(c, ctx);
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
    }
  },
  { when: () => true },
);

export type Catalogue = z.output<typeof catalogueSchema>;
export type CatalogueInput = z.input<typeof catalogueSchema>;
export type CatalogueProduct = Catalogue['products'][number];
export type CatalogueComponent = CatalogueProduct['components'][number];
export type CatalogueSku = CatalogueProduct['skus'][number];
