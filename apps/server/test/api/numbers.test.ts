/**
 * Numbers past what the database holds (found by a hostile probe, 2026-11-29): every route of the OpenAPI
 * document called with 2147483648 (one past PostgreSQL's integer) in each integer of its path, query and
 * body answers 4xx, never a 500; an order's quantity and money have bounds the quote and the order share.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OPERATOR } from '../../src/db/seed/demo.ts';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';

const BIG = 2147483648;

type Schema = { type?: string; format?: string; enum?: unknown[]; const?: unknown; items?: Schema; properties?: Record<string, Schema>; anyOf?: Schema[] };
type Operation = { parameters?: Array<{ name: string; in: string; schema?: Schema }>; requestBody?: { content?: Record<string, { schema?: Schema }> } };

/** A value of the schema whose every integer is BIG. */
function fill(s: Schema | undefined): unknown {
  if (!s) return 1;
  if (s.type === 'integer' || s.type === 'number') return BIG;
  if (s.type === 'string') return s.format === 'uuid' ? randomUUID() : s.enum?.[0] ?? 'abc12345';
  if (s.type === 'boolean') return true;
  if (s.type === 'array') return [fill(s.items)];
  if (s.type === 'object') return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, fill(v)]));
  if (s.anyOf) return fill(s.anyOf[0]);
  return s.enum?.[0] ?? s.const ?? 1;
}

describe.each(DB_KINDS)('numbers past the database on %s', (kind) => {
  let t: TestApp;
  let customer: string;
  let operator: string;

  beforeAll(async () => {
    t = await startApp(kind);
    [customer, operator] = await Promise.all([t.login('demo', 'demo'), t.login(DEMO_OPERATOR.login, DEMO_OPERATOR.password)]);
  });
  afterAll(() => t?.close());

  it('every route answers 4xx, never 5xx, to 2147483648 in each integer it takes', async () => {
    const doc = (await (await t.call('GET', '/api/docs/json')).json()) as { paths: Record<string, Record<string, Operation>> };
    const failed: string[] = [];
    let calls = 0;
    for (const [route, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        // Multipart and the login have tests of their own (upload.test, the login-limits drill).
        if (route.includes('updateFile') || route.includes('authenticate')) continue;
        const params = op.parameters ?? [];
        let url = route.replace(/\{([^}]+)\}/g, (_, name: string) => {
          const p = params.find((x) => x.name === name);
          return p?.schema?.type === 'string' ? 'abc' : String(BIG);
        });
        const query = params.filter((p) => p.in === 'query').map((p) => `${p.name}=${encodeURIComponent(String(fill(p.schema)))}`);
        if (query.length) url += `?${query.join('&')}`;
        const schema = op.requestBody?.content?.['application/json']?.schema;
        const body = schema ? fill(schema) : ['post', 'put', 'patch'].includes(method) ? {} : undefined;
        const res = await t.call(method.toUpperCase(), url, { token: route.startsWith('/api/admin') ? operator : customer, body });
        calls++;
        if (res.status >= 500) failed.push(`${method.toUpperCase()} ${url} → ${res.status} ${(await res.text()).slice(0, 200)}`);
        else await res.arrayBuffer();
      }
    }
    expect(calls).toBeGreaterThan(60);
    expect(failed).toEqual([]);
  });

  it('explains a refused field in Chinese (zod\'s zh-CN words)', async () => {
    const res = await t.call('POST', '/api/sales_order/quote', { token: customer, body: { works: [{ uuid: randomUUID(), articleName: '作品', quantity: 1.5, productId: 1, propertyConfigId: 1 }] } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/^请求参数不正确：works\.0\.quantity: 无效输入/);
  });
});
