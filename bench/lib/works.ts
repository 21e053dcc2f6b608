/**
 * Works on the real server, as the web app makes and checks them (../shared/spec/decisions.md §4, §5): a demo SKU
 * found by its product and SKU numbers, an uploaded item parsed into its works (polling the long
 * task when the server answers with one), and POST /api/sales_order/checkFile.
 */
import type { CheckFileAnswer, ProductDetails, ProductSummary } from '@portal/contract';
import type { BenchServer } from './server.ts';
import { pairedMedians, sleep, timed, type Paired } from './timing.ts';

export interface Sku {
  productId: number;
  propertyConfigId: number;
  /** e.g. `PH-5 / PH5-GL-NB`, for the details. */
  label: string;
}

export interface ParsedWork {
  uuid: string;
  filePath: string;
  files: Array<{ fileName: string; filePath: string; pages: number }>;
  pageCount: number;
}

const POLL_MS = 50;

/** The hub in the token (the customer's own, as the web app takes it from the login). */
export function hubOf(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { hid?: number };
  if (!payload.hid) throw new Error('the token names no hub');
  return payload.hid;
}

/** A demo product's SKU as a customer picks it: by the product's number, then the SKU's (or the first saleable one). */
export async function findSku(server: BenchServer, productNumber: string, skuNumber?: string): Promise<Sku> {
  const hub = hubOf(server.token);
  const list = await server.call<ProductSummary[]>('GET', `/api/customer-hubs/getProductsPage/${hub}?page=0&size=100&productName=${encodeURIComponent(productNumber)}`);
  const summary = list.find((p) => p.number === productNumber);
  if (!summary) throw new Error(`the demo shop has no product ${productNumber}`);
  const product = (await server.call<{ message: ProductDetails }>('GET', `/api/customer-hubs/getProductDetails?productId=${summary.id}`)).message;
  const config = skuNumber ? product.propertyConfigs.find((c) => c.number === skuNumber) : product.propertyConfigs.find((c) => c.saleable);
  if (!config) throw new Error(`${productNumber} has no SKU ${skuNumber ?? '(saleable)'}`);
  return { productId: product.id, propertyConfigId: config.id, label: `${product.number} / ${config.number}` };
}

type ParseAnswer = { state: number; message: { works?: ParsedWork[]; taskId?: string } };
type TaskAnswer = { state: number; message: { status: 'running' | 'finished' | 'failed'; jsonContent: { works: ParsedWork[] } | null; error: string | null } };

/** Parses one uploaded top-level item (`upload/<folderId>/<name>`) into its works. */
export async function parseWorks(server: BenchServer, itemPath: string): Promise<ParsedWork[]> {
  const hub = hubOf(server.token);
  const first = await server.call<ParseAnswer>('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(itemPath)}&customerHubId=${hub}`);
  if (first.state === 200 && first.message.works) return first.message.works;
  const taskId = first.message.taskId;
  if (first.state !== 100 || !taskId) throw new Error(`parsing ${itemPath} answered ${JSON.stringify(first).slice(0, 300)}`);
  for (;;) {
    const task = await server.call<TaskAnswer>('GET', `/api/long-time-tasks/${taskId}`);
    if (task.message.status === 'finished') return task.message.jsonContent?.works ?? [];
    if (task.message.status === 'failed') throw new Error(`parsing ${itemPath} failed: ${task.message.error}`);
    await sleep(POLL_MS);
  }
}

/** checkFile of a work against a SKU, with the body the web app sends. */
export function checkFile(server: BenchServer, work: ParsedWork, sku: Sku): Promise<CheckFileAnswer> {
  return server.call<CheckFileAnswer>('POST', '/api/sales_order/checkFile', {
    productId: sku.productId, propertyConfigId: sku.propertyConfigId, customerHubId: hubOf(server.token),
    filePath: work.filePath, workUuid: work.uuid, makeWay: 'File', checkNumberOfPages: true,
  });
}

/** The rows of a check's answer, whether it passed or not. */
export const rowsOf = (a: CheckFileAnswer) => (a.state === 200 ? a.message.fileCheckResult : a.message.message.fileCheckResult);

/**
 * checkFile of a work never checked before in every figure run of pairedMedians (the works made for
 * it, one per run and warm-up), against `baseline`; then the first work checked again `runs` times
 * (what the first check learnt is stored, so a re-check reads no file).
 */
export async function checkNewWorks(
  server: BenchServer, works: readonly ParsedWork[], sku: Sku, o: { runs: number; warmup: number; baseline: () => Promise<unknown> },
): Promise<{ p: Paired; last: CheckFileAnswer; recheckRuns: number[] }> {
  let next = 0;
  let last: CheckFileAnswer | undefined;
  const p = await pairedMedians({
    runs: o.runs,
    warmup: o.warmup,
    figure: async () => {
      const work = works[next++];
      if (!work) throw new Error('more checks than works made for them');
      last = await checkFile(server, work, sku);
    },
    baseline: o.baseline,
  });
  if (!last) throw new Error('no check ran');
  const recheckRuns: number[] = [];
  for (let i = 0; i < o.runs; i++) recheckRuns.push((await timed(() => checkFile(server, works[0]!, sku))).ms);
  return { p, last, recheckRuns };
}
