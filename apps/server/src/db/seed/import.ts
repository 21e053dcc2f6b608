import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../client.ts';
import { lockSeeding } from './lock.ts';
import {
  catalogueImports, customers, objectOperations, objectPapers, optionItems, optionValues, priceLines,
  productCategories, productComponents, products, propertyConfigs,
} from '../schema/index.ts';
import { catalogueSchema, type Catalogue, type CategoryInput } from './catalogue-schema.ts';

/** One thing wrong with a catalogue file, named by the path of the field, e.g. `products[2].components[0].width`. */
/** A problem of a catalogue file: where (`path`), the product or SKU it is in (`item`, when known), and what. */
export type CatalogueProblem = { path: string; message: string; item?: string };

export type ParseCatalogueResult = { ok: true; catalogue: Catalogue } | { ok: false; problems: CatalogueProblem[] };

/** Raised by importCatalogue for what only the database or the disk can tell (unknown customer, missing file). */
export class CatalogueImportError extends Error {
  readonly problems: CatalogueProblem[];
  constructor(problems: CatalogueProblem[]) {
    super(`目录文件有 ${problems.length} 个问题:\n${problems.map(formatProblem).join('\n')}`);
    this.name = 'CatalogueImportError';
    this.problems = problems;
  }
}

export function formatPath(segments: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += out === '' ? String(s) : `.${String(s)}`;
  }
  return out;
}

export function formatProblem(p: CatalogueProblem): string {
  return p.path ? `${p.path}${p.item ? `（${p.item}）` : ''}: ${p.message}` : p.message;
}

/**
 * The product or SKU a path is in, by the number the operator searches the file for: positions alone
 * (`prices[33]`) made them count entries by hand in a file of 207 prices (console walk, 2026-12-01).
 */
function itemOf(data: unknown, path: ReadonlyArray<PropertyKey>): string | undefined {
  const at = (v: unknown, key: PropertyKey): unknown => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined);
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 60) : undefined);
  if (path[0] === 'prices' && typeof path[1] === 'number') {
    const sku = text(at(at(at(data, 'prices'), path[1]), 'sku'));
    return sku ? `SKU ${sku}` : undefined;
  }
  if (path[0] === 'products' && typeof path[1] === 'number') {
    const product = at(at(data, 'products'), path[1]);
    const number = text(at(product, 'number'));
    const sku = path[2] === 'skus' && typeof path[3] === 'number' ? text(at(at(at(product, 'skus'), path[3]), 'number')) : undefined;
    if (number && sku) return `产品 ${number}，SKU ${sku}`;
    return number ? `产品 ${number}` : undefined;
  }
  return undefined;
}

/** The value a field held, when it is one to show (a number or a short text): what to look for in the file. */
function foundText(issue: z.core.$ZodIssue): string | undefined {
  // A value of the wrong kind (a text where a number goes, a word not among the choices) is what to look for; a bound
  // or one of the catalogue's own rules says what is wrong in its words already.
  if (issue.code !== 'invalid_type' && issue.code !== 'invalid_value') return undefined;
  const input = (issue as { input?: unknown }).input;
  if (typeof input === 'number' || typeof input === 'boolean') return String(input);
  if (typeof input === 'string') return input.length > 40 ? `${input.slice(0, 40)}…` : input;
  return undefined;
}

const zhMessages = z.locales.zhCN().localeError;
/** Wording for issues whose schema gives no message of its own: a missing field says so plainly. */
const errorMap: z.core.$ZodErrorMap = (issue) =>
  issue.code === 'invalid_type' && issue.input === undefined ? '必填' : zhMessages(issue);

function problemsOf(error: z.ZodError, data: unknown): CatalogueProblem[] {
  const out: CatalogueProblem[] = [];
  const withItem = (p: CatalogueProblem, path: ReadonlyArray<PropertyKey>): CatalogueProblem => {
    const item = itemOf(data, path);
    return item ? { ...p, item } : p;
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      // One line per unknown field, each with its own path, so a typo is found at once.
      for (const key of issue.keys) {
        const atRoot = issue.path.length === 0;
        const message = atRoot && (key === 'customers' || key === 'hubs')
          ? '客户和客户中心不属于目录文件，请用 npm run add-customer 添加'
          : '不支持的字段（拼写错误？）';
        out.push(withItem({ path: formatPath([...issue.path, key]), message }, issue.path));
      }
      continue;
    }
    const found = foundText(issue);
    out.push(withItem({ path: formatPath(issue.path), message: found === undefined ? issue.message : `${issue.message}（此处是“${found}”）` }, issue.path));
  }
  return out;
}

/** Checks an already parsed JSON value against the catalogue format and its cross-field rules. */
export function validateCatalogue(data: unknown): ParseCatalogueResult {
  const parsed = catalogueSchema.safeParse(data, { error: errorMap, reportInput: true });
  return parsed.success ? { ok: true, catalogue: parsed.data } : { ok: false, problems: problemsOf(parsed.error, data) };
}

/**
 * Where JSON.parse stopped, as an editor shows it (line and column), and the character found there, in
 * Chinese: V8's own words ("Expected property name or '}' in JSON at position 1") are English.
 */
function jsonProblem(text: string, e: unknown): string {
  const detail = e instanceof Error ? e.message : String(e);
  const at = /at position (\d+)/.exec(detail);
  if (!at) return /end of JSON/i.test(detail) ? '不是有效的 JSON：内容不完整，文件在结尾前中断' : '不是有效的 JSON';
  const body = text.replace(/^\uFEFF/, '');
  const before = body.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  const found = body.charAt(Number(at[1]));
  return `不是有效的 JSON：第${line}行第${column}列附近有错误${found.trim() ? `（此处是“${found}”）` : ''}`;
}

const CATALOGUE_IS_JSON = '产品目录须是 JSON 文件（可在控制台“导出当前目录”得到一份），不能导入 CSV 或 Excel 表格';

/** Deeper than any catalogue needs (categories five levels deep are about 13); zod's recursion overflowed at 1,000. */
const MAX_NESTING = 100;

/** How deeply arrays and objects nest in a parsed JSON value, counted without recursion; stops past `limit`. */
function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Reads the text of a catalogue file: the catalogue, or every problem found (not only the first). Bytes are
 * read as UTF-8 and refused when they are not (a file saved as GBK imported its names as ���: API probe).
 */
export function parseCatalogueFile(file: string | Uint8Array): ParseCatalogueResult {
  let jsonText: string;
  try {
    jsonText = typeof file === 'string' ? file : new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    return { ok: false, problems: [{ path: '', message: '目录文件不是 UTF-8 编码，请在编辑器中另存为 UTF-8 后再导入' }] };
  }
  let data: unknown;
  try {
    // Editors on Windows often save UTF-8 with a byte order mark, which JSON.parse refuses.
    data = JSON.parse(jsonText.replace(/^\uFEFF/, ''));
  } catch (e) {
    // A table saved from Excel (the prices an operator keeps there) is not a catalogue: said so, not where JSON stopped.
    const firstLine = jsonText.replace(/^\uFEFF/, '').trimStart().split(/\r?\n/, 1)[0] ?? '';
    const table = !/^[[{]/.test(firstLine) && /[,\t;]/.test(firstLine);
    return { ok: false, problems: [{ path: '', message: table ? CATALOGUE_IS_JSON : jsonProblem(jsonText, e) }] };
  }
  if (nestingDepth(data, MAX_NESTING) > MAX_NESTING) return { ok: false, problems: [{ path: '', message: `层级过深：最多嵌套 ${MAX_NESTING} 层` }] };
  return validateCatalogue(data);
}

export type ImportOptions = {
  /** The catalogue's template folder; components name their templateFile relative to it. */
  templatesSourceDir: string;
  /** The shop's template store (DATA_DIR/templates); templatePath is stored relative to it. */
  templatesDir: string;
  /** The catalogue's image folder; relative image paths are read from it. Without it they are stored as given. */
  imagesSourceDir?: string | undefined;
  /** Where catalogue images are served from (DATA_DIR/catalogue-assets); required with imagesSourceDir. */
  imagesDir?: string | undefined;
  /** A label for the import log (the file name). */
  source?: string | undefined;
  /** Mark products that are not in the file as cancelled (the file is then the whole catalogue). */
  prune?: boolean | undefined;
  /**
   * The JSON came alone (uploaded in the console): a templateFile must already be in the shop's store
   * for its product (from an earlier import), instead of in templatesSourceDir.
   */
  storedTemplatesOnly?: boolean | undefined;
  /** Do everything in the transaction, then roll it back: the summary says what an import would change. */
  dryRun?: boolean | undefined;
};

/** Ends a dry run's transaction with its summary: the rollback is the point. */
class DryRunDone extends Error {
  constructor(readonly summary: ImportSummary) {
    super('dry run');
  }
}

export type EntityCounts = { total: number; created: number; updated: number; removed: number };
export type ImportSummary = {
  categories: EntityCounts;
  products: EntityCounts;
  components: EntityCounts;
  papers: EntityCounts;
  operations: EntityCounts;
  optionItems: EntityCounts;
  optionValues: EntityCounts;
  skus: EntityCounts;
  prices: EntityCounts;
  files: { templates: number; images: number; copied: number };
};

/** Where a data directory keeps the imported catalogue's files. */
export function catalogueStoreDirs(dataDir: string): { templatesDir: string; imagesDir: string } {
  return { templatesDir: path.join(dataDir, 'templates'), imagesDir: path.join(dataDir, 'catalogue-assets') };
}

const counts = (): EntityCounts => ({ total: 0, created: 0, updated: 0, removed: 0 });

/** JSON with sorted keys: jsonb does not keep key order, so a plain JSON.stringify would see changes that are not. */
function canonical(v: unknown): string {
  return JSON.stringify(v ?? null, (_k, val: unknown) => {
    if (val && typeof val === 'object' && !Array.isArray(val)) {
      return Object.fromEntries(Object.entries(val as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return val;
  });
}

/** True when any wanted field differs from the stored row. */
function differs(row: Record<string, unknown>, want: Record<string, unknown>): boolean {
  return Object.entries(want).some(([k, v]) => canonical(row[k]) !== canonical(v));
}

/**
 * A component's uuid derived from its product number and name (UUID v5 layout over SHA-1): the same
 * catalogue gives the same uuids in every database, and a re-import keeps them.
 */
export function componentUuid(productNumber: string, componentName: string): string {
  const h = createHash('sha1').update(`portal-component\n${productNumber}\n${componentName}`).digest().subarray(0, 16);
  h.writeUInt8((h.readUInt8(6) & 0x0f) | 0x50, 6);
  h.writeUInt8((h.readUInt8(8) & 0x3f) | 0x80, 8);
  const x = h.toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** Rows inserted in statements of INSERT_ROWS, and rows grouped by a key (a catalogue of 6,000 products took 80 s,
 * a row at a time and each looked up in lists: nginx answered 504 at 60 s while the import went on; proxy walk). */
const INSERT_ROWS = 500;
async function insertAll<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_ROWS) await insert(rows.slice(i, i + INSERT_ROWS));
}
function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

const isUrl = (p: string) => /^https?:\/\//.test(p);

type FileCopy = { from: string; to: string };

/** The files the catalogue names, checked to exist before anything is written. */
async function planFiles(catalogue: Catalogue, options: ImportOptions): Promise<{ copies: FileCopy[]; templates: number; images: number; problems: CatalogueProblem[] }> {
  const problems: CatalogueProblem[] = [];
  const copies = new Map<string, FileCopy>();
  let templates = 0;
  const images = new Set<string>();
  const exists = async (file: string) => (await stat(file).catch(() => null))?.isFile() ?? false;

  const wantImage = async (img: string | null | undefined, at: Array<string | number>) => {
    if (!img || isUrl(img) || !options.imagesSourceDir) return;
    if (!options.imagesDir) throw new Error('importCatalogue: imagesDir is required with imagesSourceDir');
    const from = path.join(options.imagesSourceDir, img);
    if (!(await exists(from))) {
      problems.push({ path: formatPath(at), message: `图片文件不存在: ${from}` });
      return;
    }
    images.add(img);
    copies.set(path.join(options.imagesDir, img), { from, to: path.join(options.imagesDir, img) });
  };

  for (const [pi, p] of catalogue.products.entries()) {
    await wantImage(p.image, ['products', pi, 'image']);
    for (const [ci, c] of p.components.entries()) {
      if (c.templateFile) {
        const stored = path.join(options.templatesDir, templatePathOf(p.number, c.templateFile));
        const from = options.storedTemplatesOnly ? stored : path.join(options.templatesSourceDir, c.templateFile);
        if (await exists(from)) {
          templates += 1;
          copies.set(stored, { from, to: stored });
        } else {
          // The console names the template as the file does: the shop's own folder on the server is none of the page's business.
          const where = options.storedTemplatesOnly ? `${c.templateFile}（该产品的模板尚未导入本店，请先用命令 npm run import-catalogue 导入）` : from;
          problems.push({ path: formatPath(['products', pi, 'components', ci, 'templateFile']), message: `模板文件不存在: ${where}`, item: `产品 ${p.number}` });
        }
      }
      for (const [i, paper] of c.papers.entries()) await wantImage(paper.img, ['products', pi, 'components', ci, 'papers', i, 'img']);
      for (const [i, op] of c.operations.entries()) await wantImage(op.img, ['products', pi, 'components', ci, 'operations', i, 'img']);
    }
    for (const [ii, item] of p.optionItems.entries()) {
      for (const [vi, v] of item.values.entries()) await wantImage(v.img, ['products', pi, 'optionItems', ii, 'values', vi, 'img']);
    }
  }
  return { copies: [...copies.values()], templates, images: images.size, problems };
}

/** Templates are kept per product, so two products may use the same file name for different templates. */
function templatePathOf(productNumber: string, templateFile: string): string {
  return `${productNumber}/${templateFile}`;
}

/** Copies a file unless the same bytes are already there; write-then-rename so a reader never sees half a file. */
async function copyIfChanged({ from, to }: FileCopy): Promise<boolean> {
  const src = await readFile(from);
  const current = await readFile(to).catch(() => null);
  if (current && current.equals(src)) return false;
  await mkdir(path.dirname(to), { recursive: true });
  const tmp = `${to}.${process.pid}.${Date.now()}.tmp`;
  await copyFile(from, tmp);
  await rename(tmp, to);
  return true;
}

/** Customer ids by name for the customer prices; an unknown or ambiguous name is a problem. */
async function resolveCustomers(tx: Db, catalogue: Catalogue): Promise<{ ids: Map<string, number>; problems: CatalogueProblem[] }> {
  const names = [...new Set(catalogue.prices.flatMap((p) => p.customerPrices.map((c) => c.customer)))];
  const rows = names.length ? await tx.select({ id: customers.id, name: customers.name }).from(customers).where(inArray(customers.name, names)) : [];
  const ids = new Map<string, number>();
  const ambiguous = new Set<string>();
  for (const r of rows) {
    if (ids.has(r.name)) ambiguous.add(r.name);
    else ids.set(r.name, r.id);
  }
  const problems: CatalogueProblem[] = [];
  catalogue.prices.forEach((price, i) => price.customerPrices.forEach((cp, j) => {
    const at = formatPath(['prices', i, 'customerPrices', j, 'customer']);
    if (!ids.has(cp.customer)) problems.push({ path: at, message: `客户不存在: ${cp.customer}（先用 npm run add-customer 添加）` });
    else if (ambiguous.has(cp.customer)) problems.push({ path: at, message: `有多个客户名为 ${cp.customer}，无法确定是哪一个` });
  }));
  return { ids, problems };
}

/**
 * Loads a catalogue into the database in one transaction, keyed by numbers: products and SKUs by their
 * `number`, categories by name under their parent, components, papers, operations, option items and values
 * by name within their owner. Importing the same file again changes nothing; a changed file updates rows in
 * place (ids stay, so orders and works keep pointing at them).
 *
 * For the products in the file, the file is the whole truth: components and SKUs that are gone are marked
 * cancelled (orders may reference them), papers, operations and option values that are gone are deleted, and
 * the price lines of each SKU are exactly the file's (a SKU without a price entry ends with no price).
 * Products missing from the file are kept unless `prune` is set.
 *
 * Throws CatalogueImportError, writing nothing, when a named file is missing or a customer is unknown.
 */
export async function importCatalogue(db: Db, catalogue: Catalogue, options: ImportOptions): Promise<ImportSummary> {
  const files = await planFiles(catalogue, options);
  if (files.problems.length) throw new CatalogueImportError(files.problems);

  return db.transaction(async (tx) => {
    // Two imports at once run one after the other: the second found a new product the first had just inserted
    // and answered 500 on its unique number (API probe, PostgreSQL).
    await lockSeeding(tx);
    const { ids: customerIds, problems } = await resolveCustomers(tx, catalogue);
    if (problems.length) throw new CatalogueImportError(problems);

    let copied = 0;
    if (!options.dryRun) for (const c of files.copies) if (await copyIfChanged(c)) copied += 1;

    const summary: ImportSummary = {
      categories: counts(), products: counts(), components: counts(), papers: counts(), operations: counts(),
      optionItems: counts(), optionValues: counts(), skus: counts(), prices: counts(),
      files: { templates: files.templates, images: files.images, copied },
    };

    const categoryIds = await upsertCategories(tx, catalogue.categories, summary.categories);

    // Products
    const existingProducts = await tx.select().from(products);
    const productByNumber = new Map(existingProducts.map((r) => [r.number, r]));
    const productIds = new Map<string, number>();
    for (const [sort, p] of catalogue.products.entries()) {
      summary.products.total += 1;
      const want = {
        name: p.name, categoryId: categoryIds.get(p.categoryKey) ?? 0, productImage: p.image ?? null,
        pageCount: p.pageCount, minNumberOfPages: p.minNumberOfPages ?? null, maxNumberOfPages: p.maxNumberOfPages ?? null,
        priceBasis: p.priceBasis, priceUnit: p.priceUnit ?? null, cancelled: p.cancelled, sort,
      };
      const row = productByNumber.get(p.number);
      if (row) {
        productIds.set(p.number, row.id);
        if (differs(row, want)) {
          await tx.update(products).set(want).where(eq(products.id, row.id));
          summary.products.updated += 1;
        }
      } else {
        const [created] = await tx.insert(products).values({ number: p.number, ...want }).returning({ id: products.id });
        if (!created) throw new Error('insert returned no row');
        productIds.set(p.number, created.id);
        summary.products.created += 1;
      }
    }
    if (options.prune) {
      for (const r of existingProducts) {
        if (!productIds.has(r.number) && !r.cancelled) {
          await tx.update(products).set({ cancelled: true }).where(eq(products.id, r.id));
          summary.products.removed += 1;
        }
      }
    }
    const ids = [...productIds.values()];

    // Components, with their papers and operations
    const existingComponents = ids.length ? await tx.select().from(productComponents).where(inArray(productComponents.productId, ids)) : [];
    const componentUuids = new Map<string, Map<string, string>>(); // product number → component name → uuid
    const componentIds = new Map<string, number>(); // `${productId}\n${name}` → id
    const componentsOf = groupBy(existingComponents, (r) => r.productId);
    for (const p of catalogue.products) {
      const productId = productIds.get(p.number) ?? 0;
      const names = new Map<string, string>();
      componentUuids.set(p.number, names);
      const mine = componentsOf.get(productId) ?? [];
      for (const [sort, c] of p.components.entries()) {
        summary.components.total += 1;
        const want = {
          name: c.name, cancelled: false, width: c.width, height: c.height, error: c.error, errorType: c.errorType,
          autoOrientationDetection: c.autoOrientationDetection, resolutionThreshold: c.resolutionThreshold,
          resolutionLimit: c.resolutionLimit ?? null,
          templateFileName: c.templateFile ? path.posix.basename(c.templateFile) : null,
          templatePath: c.templateFile ? templatePathOf(p.number, c.templateFile) : null,
          sort,
        };
        const row = mine.find((r) => r.name === c.name);
        if (row) {
          names.set(c.name, row.uuid);
          componentIds.set(`${productId}\n${c.name}`, row.id);
          if (differs(row, want)) {
            await tx.update(productComponents).set(want).where(eq(productComponents.id, row.id));
            summary.components.updated += 1;
          }
        } else {
          const uuid = componentUuid(p.number, c.name);
          const [created] = await tx.insert(productComponents).values({ productId, uuid, ...want }).returning({ id: productComponents.id });
          if (!created) throw new Error('insert returned no row');
          names.set(c.name, uuid);
          componentIds.set(`${productId}\n${c.name}`, created.id);
          summary.components.created += 1;
        }
      }
      for (const r of mine) {
        if (!p.components.some((c) => c.name === r.name) && !r.cancelled) {
          await tx.update(productComponents).set({ cancelled: true }).where(eq(productComponents.id, r.id));
          summary.components.removed += 1;
        }
      }
    }

    const allComponentIds = [...componentIds.values()];
    const existingPapers = allComponentIds.length ? await tx.select().from(objectPapers).where(inArray(objectPapers.componentId, allComponentIds)) : [];
    const existingOps = allComponentIds.length ? await tx.select().from(objectOperations).where(inArray(objectOperations.componentId, allComponentIds)) : [];
    const papersOf = groupBy(existingPapers, (r) => r.componentId);
    const opsOf = groupBy(existingOps, (r) => r.componentId);
    const newPapers: Array<typeof objectPapers.$inferInsert> = [];
    const newOps: Array<typeof objectOperations.$inferInsert> = [];
    for (const p of catalogue.products) {
      const productId = productIds.get(p.number) ?? 0;
      for (const c of p.components) {
        const componentId = componentIds.get(`${productId}\n${c.name}`) ?? 0;
        const papers = papersOf.get(componentId) ?? [];
        for (const paper of c.papers) {
          summary.papers.total += 1;
          const want = { name: paper.name, img: paper.img ?? null, minPageCount: paper.minPageCount ?? null, maxPageCount: paper.maxPageCount ?? null };
          const row = papers.find((r) => r.name === paper.name);
          if (!row) {
            newPapers.push({ componentId, ...want });
            summary.papers.created += 1;
          } else if (differs(row, want)) {
            await tx.update(objectPapers).set(want).where(eq(objectPapers.id, row.id));
            summary.papers.updated += 1;
          }
        }
        const gonePapers = papers.filter((r) => !c.papers.some((x) => x.name === r.name)).map((r) => r.id);
        if (gonePapers.length) await tx.delete(objectPapers).where(inArray(objectPapers.id, gonePapers));
        summary.papers.removed += gonePapers.length;

        const ops = opsOf.get(componentId) ?? [];
        for (const op of c.operations) {
          summary.operations.total += 1;
          const want = { name: op.name, combined: op.combined, img: op.img ?? null };
          const row = ops.find((r) => r.name === op.name);
          if (!row) {
            newOps.push({ componentId, ...want });
            summary.operations.created += 1;
          } else if (differs(row, want)) {
            await tx.update(objectOperations).set(want).where(eq(objectOperations.id, row.id));
            summary.operations.updated += 1;
          }
        }
        const goneOps = ops.filter((r) => !c.operations.some((x) => x.name === r.name)).map((r) => r.id);
        if (goneOps.length) await tx.delete(objectOperations).where(inArray(objectOperations.id, goneOps));
        summary.operations.removed += goneOps.length;
      }
    }
    await insertAll(newPapers, (chunk) => tx.insert(objectPapers).values(chunk));
    await insertAll(newOps, (chunk) => tx.insert(objectOperations).values(chunk));

    // Option items and values
    const existingItems = ids.length ? await tx.select().from(optionItems).where(inArray(optionItems.productId, ids)) : [];
    const itemIds = existingItems.map((r) => r.id);
    const existingValues = itemIds.length ? await tx.select().from(optionValues).where(inArray(optionValues.itemId, itemIds)) : [];
    const valueIdOf = new Map<string, number>(); // `${productNumber}\n${itemIndex}\n${valueName}` → id
    const itemsOf = groupBy(existingItems, (r) => r.productId);
    const valuesOf = groupBy(existingValues, (r) => r.itemId);
    for (const p of catalogue.products) {
      const productId = productIds.get(p.number) ?? 0;
      const mine = itemsOf.get(productId) ?? [];
      for (const [sort, item] of p.optionItems.entries()) {
        summary.optionItems.total += 1;
        let row = mine.find((r) => r.name === item.name);
        if (!row) {
          const [created] = await tx.insert(optionItems).values({ productId, name: item.name, sort }).returning();
          if (!created) throw new Error('insert returned no row');
          row = created;
          summary.optionItems.created += 1;
        } else if (row.sort !== sort) {
          await tx.update(optionItems).set({ sort }).where(eq(optionItems.id, row.id));
          summary.optionItems.updated += 1;
        }
        const itemId = row.id;
        const values = valuesOf.get(itemId) ?? [];
        for (const [vSort, v] of item.values.entries()) {
          summary.optionValues.total += 1;
          const want = { name: v.name, remark: v.remark ?? null, img: v.img ?? null, sort: vSort };
          const vRow = values.find((r) => r.name === v.name);
          let id: number;
          if (vRow) {
            id = vRow.id;
            if (differs(vRow, want)) {
              await tx.update(optionValues).set(want).where(eq(optionValues.id, vRow.id));
              summary.optionValues.updated += 1;
            }
          } else {
            const [created] = await tx.insert(optionValues).values({ itemId, ...want }).returning({ id: optionValues.id });
            if (!created) throw new Error('insert returned no row');
            id = created.id;
            summary.optionValues.created += 1;
          }
          valueIdOf.set(`${p.number}\n${sort}\n${v.name}`, id);
        }
        const goneValues = values.filter((r) => !item.values.some((v) => v.name === r.name)).map((r) => r.id);
        if (goneValues.length) await tx.delete(optionValues).where(inArray(optionValues.id, goneValues));
        summary.optionValues.removed += goneValues.length;
      }
      const goneItems = mine.filter((r) => !p.optionItems.some((i) => i.name === r.name)).map((r) => r.id);
      if (goneItems.length) await tx.delete(optionItems).where(inArray(optionItems.id, goneItems));
      summary.optionItems.removed += goneItems.length;
    }

    // SKUs
    const skuNumbers = catalogue.products.flatMap((p) => p.skus.map((s) => s.number));
    const existingSkus = await tx.select().from(propertyConfigs).where(
      ids.length ? inArray(propertyConfigs.productId, ids) : eq(propertyConfigs.id, -1),
    );
    const existingSkuIds = new Set(existingSkus.map((r) => r.id));
    // SKUs that moved here from a product not in this file are found by number too.
    const movedSkus = skuNumbers.length
      ? (await tx.select().from(propertyConfigs).where(inArray(propertyConfigs.number, skuNumbers))).filter((r) => !existingSkuIds.has(r.id))
      : [];
    const skuByNumber = new Map([...existingSkus, ...movedSkus].map((r) => [r.number, r]));
    const newSkus: Array<typeof propertyConfigs.$inferInsert> = [];
    const skuIds = new Map<string, { id: number; productId: number }>();
    for (const p of catalogue.products) {
      const productId = productIds.get(p.number) ?? 0;
      const uuids = componentUuids.get(p.number) ?? new Map<string, string>();
      for (const s of p.skus) {
        summary.skus.total += 1;
        const sizes = s.componentSizes
          ? Object.fromEntries(Object.entries(s.componentSizes).map(([name, size]) => [uuids.get(name) ?? name, { width: size.width, height: size.height }]))
          : null;
        const want = {
          productId,
          // The option text as the portal lists it: 选项:值 joined by semicolons, in the product's item order.
          sku: s.options.map((v, i) => `${p.optionItems[i]?.name ?? ''}:${v}`).join(';'),
          skuNumber: s.skuNumber,
          optionValueIds: s.options.map((v, i) => valueIdOf.get(`${p.number}\n${i}\n${v}`) ?? 0),
          saleable: s.saleable, cancelled: s.cancelled, jhiDefault: s.default,
          minPageCount: s.minPageCount ?? null, maxPageCount: s.maxPageCount ?? null,
          customToning: s.customToning, toning: s.toning, componentSizes: sizes,
        };
        const row = skuByNumber.get(s.number);
        if (row) {
          skuIds.set(s.number, { id: row.id, productId });
          if (differs(row, want)) {
            await tx.update(propertyConfigs).set(want).where(eq(propertyConfigs.id, row.id));
            summary.skus.updated += 1;
          }
        } else {
          // Its id once inserted, below, in the file's order.
          skuIds.set(s.number, { id: 0, productId });
          newSkus.push({ number: s.number, ...want });
          summary.skus.created += 1;
        }
      }
    }
    await insertAll(newSkus, async (chunk) => {
      for (const created of await tx.insert(propertyConfigs).values(chunk).returning({ id: propertyConfigs.id, number: propertyConfigs.number })) {
        const known = skuIds.get(created.number);
        if (known) known.id = created.id;
      }
    });
    for (const r of existingSkus) {
      if (!skuIds.has(r.number) && !r.cancelled) {
        await tx.update(propertyConfigs).set({ cancelled: true }).where(eq(propertyConfigs.id, r.id));
        summary.skus.removed += 1;
      }
    }

    // Prices: for every SKU of the file, exactly the file's lines: per price type and customer, the unit
    // and extra-page prices from 1 and at each quantity break.
    const allSkuIds = [...skuIds.values()].map((s) => s.id);
    const existingPrices = allSkuIds.length ? await tx.select().from(priceLines).where(inArray(priceLines.propertyConfigId, allSkuIds)) : [];
    const keep = new Set<number>();
    const pricesOf = groupBy(existingPrices, (r) => r.propertyConfigId);
    const newPrices: Array<typeof priceLines.$inferInsert> = [];
    const priceBySku = new Map(catalogue.prices.map((p) => [p.sku, p]));
    type WantedLine = { priceType: 'retail' | 'customer'; entityId: number; kind: 'unit' | 'extraPage'; minQuantity: number; amount: string };
    for (const [number, { id: propertyConfigId, productId }] of skuIds) {
      const price = priceBySku.get(number);
      const wanted: WantedLine[] = [];
      if (price?.retail != null) wanted.push({ priceType: 'retail', entityId: 0, kind: 'unit', minQuantity: 1, amount: price.retail.toFixed(2) });
      for (const cp of price?.customerPrices ?? []) {
        const entityId = customerIds.get(cp.customer) ?? 0;
        const line = (kind: WantedLine['kind'], minQuantity: number, amount: number) =>
          wanted.push({ priceType: 'customer', entityId, kind, minQuantity, amount: amount.toFixed(2) });
        line('unit', 1, cp.amount);
        if (cp.extraPage != null) line('extraPage', 1, cp.extraPage);
        for (const b of cp.breaks) {
          line('unit', b.from, b.amount);
          if (b.extraPage != null) line('extraPage', b.from, b.extraPage);
        }
      }
      for (const w of wanted) {
        summary.prices.total += 1;
        const row = pricesOf.get(propertyConfigId)?.find((r) => r.priceType === w.priceType
          && r.entityId === w.entityId && r.kind === w.kind && r.minQuantity === w.minQuantity && !keep.has(r.id));
        if (!row) {
          newPrices.push({ ...w, productId, propertyConfigId });
          summary.prices.created += 1;
        } else {
          keep.add(row.id);
          if (Number(row.amount).toFixed(2) !== w.amount || row.productId !== productId) {
            await tx.update(priceLines).set({ amount: w.amount, productId }).where(eq(priceLines.id, row.id));
            summary.prices.updated += 1;
          }
        }
      }
    }
    await insertAll(newPrices, (chunk) => tx.insert(priceLines).values(chunk));
    const gonePrices = existingPrices.filter((r) => !keep.has(r.id)).map((r) => r.id);
    if (gonePrices.length) await tx.delete(priceLines).where(inArray(priceLines.id, gonePrices));
    summary.prices.removed = gonePrices.length;

    await tx.insert(catalogueImports).values({ source: options.source ?? catalogue.name ?? 'catalogue' });
    if (options.dryRun) throw new DryRunDone(summary);
    return summary;
  }).catch((e: unknown) => {
    if (e instanceof DryRunDone) return e.summary;
    throw e;
  });
}

/** Categories by name under their parent (the table has no key column); sort follows the file's order. */
async function upsertCategories(tx: Db, roots: CategoryInput[], n: EntityCounts): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const walk = async (nodes: CategoryInput[], parentId: number | null) => {
    for (const [sort, node] of nodes.entries()) {
      n.total += 1;
      const [row] = await tx.select().from(productCategories)
        .where(and(parentId === null ? isNull(productCategories.parentId) : eq(productCategories.parentId, parentId), eq(productCategories.name, node.name)))
        .orderBy(productCategories.id).limit(1);
      let id: number;
      if (row) {
        id = row.id;
        if (row.sort !== sort) {
          await tx.update(productCategories).set({ sort }).where(eq(productCategories.id, row.id));
          n.updated += 1;
        }
      } else {
        const [created] = await tx.insert(productCategories).values({ parentId, name: node.name, sort }).returning({ id: productCategories.id });
        if (!created) throw new Error('insert returned no row');
        id = created.id;
        n.created += 1;
      }
      ids.set(node.key, id);
      if (node.children?.length) await walk(node.children, id);
    }
  };
  await walk(roots, null);
  return ids;
}

/** The counts of an import as lines, as the command prints them and the console shows them. */
const LABELS: Array<[keyof Omit<ImportSummary, 'files'>, string]> = [
  ['categories', '分类'], ['products', '产品'], ['components', '部件'], ['papers', '纸张'], ['operations', '工艺'],
  ['optionItems', '选项'], ['optionValues', '选项值'], ['skus', 'SKU'], ['prices', '价格'],
];

export function formatSummary(s: ImportSummary): string[] {
  const line = (label: string, c: EntityCounts) =>
    `  ${label}: ${c.total}（新增 ${c.created}，更新 ${c.updated}，删除或取消 ${c.removed}）`;
  return [
    ...LABELS.map(([k, label]) => line(label, s[k])),
    `  文件: 模板 ${s.files.templates}，图片 ${s.files.images}（本次复制 ${s.files.copied} 个）`,
  ];
}
