/**
 * Latency of two everyday calls under load: 50 keep-alive connections (autocannon, closed loop) for
 * a fixed time after a short warm-up, against the same load on a bare Fastify 5 server (its own
 * process, the server's fastify, no plugins) whose route answers the very JSON the real server
 * answered, captured first:
 * - GET /api/customer-hubs/getProductsPage/{hub}?page=0&size=20, the product picker's first page;
 * - POST /api/sales_order/checkFile of a 3-photo work (uploaded and parsed first) against the demo
 *   shop's 5寸 photo SKU, checked again and again as a customer re-checks with another SKU.
 *
 * Measured on PGlite (the server's default) and, when a PostgreSQL answers (lib/postgres.ts), on
 * PostgreSQL too. The bare routes do not touch a database, so they are measured once, in the PGlite
 * pass, and both passes are compared with them.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { CheckFileAnswer, ProductDetails, ProductSummary } from '@portal/contract';
import { startBareFastify, type BareFastify } from '../lib/bare-fastify.ts';
import { request } from '../lib/http.ts';
import { assertAllOk, loadTest, type LoadResult, type LoadTarget } from '../lib/load.ts';
import { tempDatabase } from '../lib/postgres.ts';
import { startBenchServer, type BenchServer } from '../lib/server.ts';
import type { BenchContext, Benchmark, Measurement } from '../lib/types.ts';
import { uploadToServer, type BatchFile } from '../lib/upload.ts';

const CONNECTIONS = 50;
const PRODUCTS_P99_MS = 100;
const CHECK_P99_MS = 500;
/** The p50 goals: a quarter of the p99 ones (a server that queues every call would have p50 ≈ p99). */
const PRODUCTS_P50_MS = 25;
const CHECK_P50_MS = 125;

const PRODUCTS_ROUTE = '/api/customer-hubs/getProductsPage/:customerHubId';
const CHECK_ROUTE = '/api/sales_order/checkFile';

interface Call {
  name: 'getProductsPage' | 'checkFile';
  target: (base: string) => LoadTarget;
  goals: { p50: number; p99: number };
}

interface Captured {
  products: { path: string; body: unknown; bytes: number; total: string };
  check: { body: string; answer: unknown; bytes: number };
}

/** A JPEG of exactly w×h mm at 300 dpi, one colour (small to upload; the check reads its metadata, not its pixels). */
const photoMm = (w: number, h: number, colour: string) =>
  sharp({ create: { width: Math.round((w / 25.4) * 300), height: Math.round((h / 25.4) * 300), channels: 3, background: colour } })
    .jpeg().withMetadata({ density: 300 }).toBuffer();

/** The hub in the token (the customer's own, as the web app takes it from the login). */
function hubOf(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { hid?: number };
  if (!payload.hid) throw new Error('the token names no hub');
  return payload.hid;
}

/** Uploads a 3-photo work, parses it, picks the 5寸 photo SKU, and captures both calls' answers. */
async function prepare(ctx: BenchContext, server: BenchServer): Promise<Captured> {
  const hub = hubOf(server.token);
  const productsPath = `/api/customer-hubs/getProductsPage/${hub}?page=0&size=20`;
  const productsRes = await request(server.url + productsPath, { headers: { authorization: `Bearer ${server.token}` } });
  if (productsRes.status !== 200) throw new Error(`getProductsPage answered ${productsRes.status}: ${productsRes.text.slice(0, 300)}`);
  const products = JSON.parse(productsRes.text) as ProductSummary[];

  const summary = products.find((p) => p.number === 'PH-5');
  if (!summary) throw new Error(`the demo shop's first page has no PH-5 (5寸照片冲印): ${products.map((p) => p.number).join(', ')}`);
  const details = (await server.call<{ message: ProductDetails }>('GET', `/api/customer-hubs/getProductDetails?productId=${summary.id}`)).message;
  const sku = details.propertyConfigs.find((c) => c.saleable);
  if (!sku) throw new Error('PH-5 has no saleable SKU');

  const folderId = randomUUID();
  const files: BatchFile[] = await Promise.all(['#cc8844', '#4488cc', '#88cc44'].map(async (colour, i) => ({ relativePath: `作品/${i + 1}.jpg`, bytes: await photoMm(127, 89, colour) })));
  await uploadToServer(server, files, folderId);
  const parsed = await server.call<{ state: number; message: { works?: Array<{ filePath: string; files: unknown[] }> } }>('GET',
    `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/作品`)}&customerHubId=${hub}`);
  const work = parsed.message.works?.[0];
  if (parsed.state !== 200 || !work || work.files.length !== files.length) throw new Error(`parsing the 3-photo work answered ${JSON.stringify(parsed).slice(0, 300)}`);

  const checkBody = JSON.stringify({ propertyConfigId: sku.id, productId: details.id, customerHubId: hub, filePath: work.filePath, makeWay: 'File', checkNumberOfPages: true });
  const checkRes = await request(`${server.url}${CHECK_ROUTE}`, { headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }, body: checkBody });
  const answer = JSON.parse(checkRes.text) as CheckFileAnswer;
  if (checkRes.status !== 200 || answer.state !== 200) throw new Error(`the first checkFile of the work did not pass (${checkRes.status}): ${checkRes.text.slice(0, 500)}`);
  ctx.log(`work ${work.filePath} (${files.length} photos) passes ${details.number} / ${sku.number}`);
  return {
    products: { path: productsPath, body: products, bytes: Buffer.byteLength(productsRes.text), total: String(products.length) },
    check: { body: checkBody, answer, bytes: Buffer.byteLength(checkRes.text) },
  };
}

const calls = (c: Captured, token: string): Call[] => [
  {
    name: 'getProductsPage',
    target: (base) => ({ url: base + c.products.path, headers: { authorization: `Bearer ${token}` } }),
    goals: { p50: PRODUCTS_P50_MS, p99: PRODUCTS_P99_MS },
  },
  {
    name: 'checkFile',
    target: (base) => ({ url: base + CHECK_ROUTE, method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: c.check.body }),
    goals: { p50: CHECK_P50_MS, p99: CHECK_P99_MS },
  },
];

const fmt = (r: LoadResult) => `p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, ${r.reqPerS.toFixed(0)} req/s`;

function rows(db: string, call: Call, fig: LoadResult, base: LoadResult, bytes: number, durationS: number): Measurement[] {
  const extra = {
    connections: CONNECTIONS,
    'duration s': durationS,
    'answer bytes': bytes,
    'server req/s': fig.reqPerS,
    'baseline req/s': base.reqPerS,
    'server answers': fig.ok,
    'errors / non-2xx': `${fig.errors} / ${fig.non2xx} (baseline ${base.errors} / ${base.non2xx})`,
    'status codes': fig.statusCodes,
    'server CPU s': fig.serverCpuS,
    'client CPU s': fig.clientCpuS,
    'baseline server CPU s': base.serverCpuS,
    'baseline client CPU s': base.clientCpuS,
  };
  return (['p50', 'p99'] as const).map((p) => {
    const figure = p === 'p50' ? fig.p50Ms : fig.p99Ms;
    const baseline = p === 'p50' ? base.p50Ms : base.p99Ms;
    return {
      metric: `${call.name} ${p} (${db})`,
      goal: { valueMax: call.goals[p] },
      figure: { value: figure, unit: 'ms' },
      baseline: { value: baseline, unit: 'ms' },
      ratio: figure / baseline,
      extra: p === 'p50'
        ? extra
        : { 'autocannon p50 / p99 (whole ms)': `${fig.autocannonP50} / ${fig.autocannonP99} (baseline ${base.autocannonP50} / ${base.autocannonP99})` },
    };
  });
}

const benchmark: Benchmark = {
  name: 'api-latency',
  description: 'p50/p99 of getProductsPage and checkFile at 50 connections (autocannon) vs a bare Fastify route with the same answer',
  goal: { valueMax: PRODUCTS_P99_MS },
  async run(ctx) {
    const durationS = ctx.quick ? 5 : 10;
    const warmupS = ctx.quick ? 1 : 2;
    const load = (target: LoadTarget, pid: number) => loadTest(target, { connections: CONNECTIONS, durationS, warmupS, pid });

    const out: Measurement[] = [];
    let bare: BareFastify | undefined;
    const baselines = new Map<string, LoadResult>();
    const measure = async (db: string, env: Record<string, string>) => {
      const server = await startBenchServer(ctx, env);
      const captured = await prepare(ctx, server);
      if (!bare) {
        bare = await startBareFastify(ctx, [
          { method: 'GET', url: PRODUCTS_ROUTE, headers: { 'x-total-count': captured.products.total }, body: captured.products.body },
          { method: 'POST', url: CHECK_ROUTE, body: captured.check.answer },
        ]);
      }
      for (const call of calls(captured, server.token)) {
        let base = baselines.get(call.name);
        if (!base) {
          ctx.log(`${call.name}: bare Fastify route, ${warmupS} s warm-up + ${durationS} s`);
          base = await load(call.target(bare.url), bare.pid);
          assertAllOk(`${call.name} on the bare Fastify route`, base);
          baselines.set(call.name, base);
          ctx.log(`${call.name}: bare Fastify route: ${fmt(base)}`);
        }
        ctx.log(`${call.name} (${db}): ${warmupS} s warm-up + ${durationS} s`);
        const fig = await load(call.target(server.url), server.pid);
        assertAllOk(`${call.name} (${db})`, fig);
        ctx.log(`${call.name} (${db}): ${fmt(fig)}`);
        out.push(...rows(db, call, fig, base, call.name === 'checkFile' ? captured.check.bytes : captured.products.bytes, durationS));
      }
      await server.stop();
    };

    await measure('PGlite', {});
    const databaseUrl = await tempDatabase(ctx);
    if (databaseUrl) await measure('PostgreSQL', { DATABASE_URL: databaseUrl });
    // Table order: each call's rows together, PGlite before PostgreSQL.
    const order = (m: Measurement) => ['getProductsPage p50', 'getProductsPage p99', 'checkFile p50', 'checkFile p99'].findIndex((k) => m.metric?.startsWith(k));
    return out.sort((a, b) => order(a) - order(b));
  },
};

export default benchmark;
