import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAddOperator, type CliDeps } from '../../src/cli/commands.ts';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';

const json = async <T>(res: Response) => (await res.json()) as T;
type OpenApi = { paths: Record<string, Record<string, unknown>> };

/** Every operation of the OpenAPI document, path parameters filled with 1 (the check runs before validation). */
async function operations(t: TestApp) {
  const doc = await json<OpenApi>(await t.call('GET', '/api/docs/json'));
  return Object.entries(doc.paths).flatMap(([p, methods]) => Object.keys(methods)
    .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
    .map((m) => ({ method: m.toUpperCase(), path: p.replace(/\{[^}]+\}/g, '1') })));
}

describe.each(DB_KINDS)('operator role on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let operator: string;

  beforeAll(async () => {
    t = await startApp(kind);
    demo = await t.login('demo', 'demo');
    operator = await t.login('operator', 'operator');
  });
  afterAll(async () => t?.close());

  it('logs the demo operator in as an operator without a hub', async () => {
    const res = await t.call('GET', '/api/account', { token: operator });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ login: 'operator', customerId: null, customerHubId: null, authorities: ['ROLE_OPERATOR'] });
    const hubs = await t.call('GET', '/api/admin/hubs', { token: operator });
    expect(hubs.status).toBe(200);
    expect((await json<Array<{ id: number }>>(hubs)).map((h) => h.id)).toEqual(expect.arrayContaining([1, 2]));
  });

  it('answers every /api/admin route of the OpenAPI document 401 without a token and 403 to a customer', async () => {
    const admin = (await operations(t)).filter((o) => o.path.startsWith('/api/admin/'));
    expect(admin.length).toBeGreaterThan(0);
    for (const o of admin) {
      const anonymous = await t.call(o.method, o.path, { body: o.method === 'GET' ? undefined : {} });
      expect(anonymous.status, `${o.method} ${o.path} without a token`).toBe(401);
      const customer = await t.call(o.method, o.path, { token: demo, body: o.method === 'GET' ? undefined : {} });
      expect(customer.status, `${o.method} ${o.path} with a customer's token`).toBe(403);
      expect((await json<{ message: string }>(customer)).message).toBe('仅限印刷厂操作员访问');
    }
  });

  it('refuses an operator token on every customer route (403), except asking who it is and the regions', async () => {
    const customerRoutes = (await operations(t)).filter((o) => !o.path.startsWith('/api/admin/'));
    let guarded = 0;
    for (const o of customerRoutes) {
      const body = o.method === 'GET' ? undefined : {};
      // Public routes (login, health, signed file links) answer without a token; the rest need one.
      if ((await t.call(o.method, o.path, { body })).status !== 401) continue;
      guarded++;
      const res = await t.call(o.method, o.path, { token: operator, body });
      if (o.path === '/api/account' || /^\/api\/location-(provinces|cities|districts)/.test(o.path)) expect(res.status, o.path).not.toBe(403);
      else expect(res.status, `${o.method} ${o.path} with an operator's token`).toBe(403);
    }
    expect(guarded).toBeGreaterThan(10);
  });

  it('adds an operator with the command; the login is unique across customers and operators', async () => {
    const out: string[] = [];
    const deps: CliDeps = { dataDir: t.config.dataDir, cwd: process.cwd(), open: async () => ({ ...t.db, close: async () => {} }), out: (l) => out.push(l), err: (l) => out.push(l) };
    expect(await runAddOperator(['printer2', 'secret2'], deps)).toBe(0);
    expect(out.at(-1)).toMatch(/已添加操作员 printer2/);
    expect(await runAddOperator(['demo', 'secret2'], deps)).toBe(1);
    expect(out.at(-1)).toBe('登录名已存在：demo');
    expect(await runAddOperator(['printer2'], deps)).toBe(2);
    const token = await t.login('printer2', 'secret2');
    expect((await t.call('GET', '/api/admin/hubs', { token })).status).toBe(200);
    expect((await t.call('GET', '/api/sales_order', { token })).status).toBe(403);
  });
});
