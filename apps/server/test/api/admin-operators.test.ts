/**
 * The shop's staff logins in the console (员工账号): listed, added with add-operator's rules, disabled, enabled and
 * given a new password by an operator, as a hub's customer logins are. Before, a departing staff member's login could
 * only be locked by SQL (operators' walk).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOperator } from '@portal/contract';
import { runAddOperator, type CliDeps } from '../../src/cli/commands.ts';
import { operators } from '../../src/db/schema/index.ts';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';

const json = async <T>(res: Response) => (await res.json()) as T;
const answer = async (res: Response) => [res.status, (await json<{ message: string }>(res)).message];
const STAFF_DISABLED = '该账号已停用，请联系管理员';

describe.each(DB_KINDS)('staff logins (员工账号) on %s', (kind) => {
  let t: TestApp;
  let op: string;
  let opId: number;

  beforeAll(async () => {
    t = await startApp(kind);
    op = await t.login('operator', 'operator');
    [{ id: opId }] = await t.db.db.select({ id: operators.id }).from(operators).where(eq(operators.login, 'operator')) as [{ id: number }];
  });
  afterAll(async () => t?.close());

  const list = async (token = op) => json<AdminOperator[]>(await t.call('GET', '/api/admin/operators', { token }));
  const add = (login: string, password: string, token = op) => t.call('POST', '/api/admin/operators', { token, body: { login, password } });
  const setDisabled = (id: number, disabled: boolean, token = op) => t.call('POST', `/api/admin/operators/${id}/disabled`, { token, body: { disabled } });
  const resetPassword = (id: number, password: string, token = op) => t.call('POST', `/api/admin/operators/${id}/password`, { token, body: { password } });

  it('lists the operators, and adds one with add-operator\'s rules (a name a customer or an operator has is refused)', async () => {
    const before = await list();
    expect(before.map((o) => [o.id, o.login, o.disabled, o.self])).toEqual([[opId, 'operator', false, true]]);
    expect(Number.isNaN(Date.parse(before[0]!.createdAt))).toBe(false);

    const added = await add('printer1', 'print1');
    expect(added.status).toBe(200);
    expect(await json(added)).toMatchObject({ login: 'printer1', disabled: false, self: false });
    expect(await answer(await add('demo', 'abcd1'))).toEqual([409, '登录名已存在：demo']);
    expect(await answer(await add('OPERATOR', 'abcd1'))).toEqual([409, '登录名已存在：OPERATOR']);
    expect(await answer(await add('printer2', 'x'))).toEqual([422, '密码至少 4 个字符']);
    expect(await answer(await add('print er', 'abcd1'))).toEqual([422, '登录名不能为空，不能含空格，最长 50 个字符']);
    // The new operator logs in to the console, and sees itself as its own row.
    const token = await t.login('printer1', 'print1');
    expect((await list(token)).map((o) => [o.login, o.self])).toEqual([['operator', false], ['printer1', true]]);
    // A customer cannot list, add or change operators.
    const demo = await t.login('demo', 'demo');
    expect(await answer(await t.call('GET', '/api/admin/operators', { token: demo }))).toEqual([403, '仅限印刷厂操作员访问']);
    expect((await add('bymallory', 'abcd1', demo)).status).toBe(403);
    expect((await setDisabled(opId, true, demo)).status).toBe(403);
    expect((await resetPassword(opId, 'abcd1', demo)).status).toBe(403);
  });

  it('disables an operator: its open session ends on its next call, and it is told to ask the administrator', async () => {
    const { id } = await json<AdminOperator>(await add('leaver', 'leaver1'));
    const token = await t.login('leaver', 'leaver1');
    expect((await t.call('GET', '/api/admin/hubs', { token })).status).toBe(200);
    const off = await setDisabled(id, true);
    expect(off.status).toBe(200);
    expect(await json(off)).toMatchObject({ login: 'leaver', disabled: true });
    expect(await answer(await t.call('GET', '/api/admin/hubs', { token }))).toEqual([401, STAFF_DISABLED]);
    expect(await answer(await t.call('POST', '/api/authenticate', { body: { username: 'leaver', password: 'leaver1' } }))).toEqual([401, STAFF_DISABLED]);
    expect((await list()).find((o) => o.id === id)?.disabled).toBe(true);
    expect((await setDisabled(id, false)).status).toBe(200);
    expect((await t.call('GET', '/api/admin/hubs', { token })).status).toBe(200);
    expect((await setDisabled(99_999, true)).status).toBe(404);
  });

  it('resets an operator\'s password: its earlier sessions end, the old password no longer logs in', async () => {
    const { id } = await json<AdminOperator>(await add('forgetful', 'forget1'));
    const first = await t.login('forgetful', 'forget1');
    expect(await answer(await resetPassword(id, 'x'))).toEqual([422, '密码至少 4 个字符']);
    expect((await resetPassword(id, 'forget2')).status).toBe(200);
    expect(await answer(await t.call('GET', '/api/admin/hubs', { token: first }))).toEqual([401, '登录已失效，请重新登录']);
    expect((await t.call('POST', '/api/authenticate', { body: { username: 'forgetful', password: 'forget1' } })).status).toBe(401);
    const second = await t.login('forgetful', 'forget2');
    expect((await t.call('GET', '/api/admin/hubs', { token: second })).status).toBe(200);
    expect((await resetPassword(99_999, 'abcd1')).status).toBe(404);
  });

  it('refuses to disable oneself, and the last enabled operator (the shop would be locked out)', async () => {
    expect(await answer(await setDisabled(opId, true))).toEqual([409, '不能停用自己的账号']);
    expect((await list()).find((o) => o.id === opId)?.disabled).toBe(false);
    // Leave two enabled operators, `operator` and `buddy`.
    for (const o of await list()) if (o.id !== opId && !o.disabled) expect((await setDisabled(o.id, true)).status).toBe(200);
    const { id: buddyId } = await json<AdminOperator>(await add('buddy', 'buddy1'));
    const buddy = await t.login('buddy', 'buddy1');
    expect((await t.call('GET', '/api/admin/hubs', { token: buddy })).status).toBe(200);
    // `buddy` is disabled by another process of the shop (here: by SQL), which this one learns within its session cache:
    // `buddy` still passes the door for a moment, and disabling `operator` then would leave nobody.
    await t.db.db.update(operators).set({ disabled: true }).where(eq(operators.id, buddyId));
    expect(await answer(await setDisabled(opId, true, buddy))).toEqual([409, '至少要保留一个启用的员工账号，否则没有人能登录操作台']);
    await t.db.db.update(operators).set({ disabled: false }).where(eq(operators.id, buddyId));

    // Two operators disabling each other at once: one of them stays.
    const both = await Promise.all([setDisabled(buddyId, true), setDisabled(opId, true, buddy)]);
    expect(both.map((r) => r.status).sort()).not.toEqual([200, 200]);
    expect((await t.db.db.select().from(operators).where(eq(operators.disabled, false))).length).toBeGreaterThanOrEqual(1);
  });

  it('add-operator --reset sets an existing operator\'s password and enables it (every password lost)', async () => {
    const out: string[] = [];
    const deps: CliDeps = { dataDir: t.config.dataDir, cwd: process.cwd(), open: async () => ({ ...t.db, close: async () => {} }), out: (l) => out.push(l), err: (l) => out.push(l) };
    // Nothing here uses `operator`: the race above may have disabled it.
    expect(await runAddOperator(['locked', 'locked1'], deps)).toBe(0);
    const [{ id }] = await t.db.db.select({ id: operators.id }).from(operators).where(eq(operators.login, 'locked')) as [{ id: number }];
    const token = await t.login('locked', 'locked1');
    expect((await t.call('GET', '/api/admin/hubs', { token })).status).toBe(200);
    await t.db.db.update(operators).set({ disabled: true }).where(eq(operators.id, id));
    expect(await runAddOperator(['locked', 'unlock1', '--reset'], deps)).toBe(0);
    expect(out.at(-1)).toBe(`已重置操作员 locked（${id}）的密码，账号已启用`);
    // The command runs beside the server (another process): the earlier session ends once the server's memory of it lapses.
    await expect.poll(async () => (await t.call('GET', '/api/admin/hubs', { token })).status, { timeout: 10_000, interval: 500 }).toBe(401);
    const again = await t.login('locked', 'unlock1');
    expect((await t.call('GET', '/api/admin/hubs', { token: again })).status).toBe(200);
    expect(await runAddOperator(['nobody', 'abcd1', '--reset'], deps)).toBe(1);
    expect(out.at(-1)).toBe('没有这个操作员账号：nobody');
    expect(await runAddOperator(['demo', 'abcd1', '--reset'], deps)).toBe(1);
    expect(out.at(-1)).toBe('没有这个操作员账号：demo');
    expect(await runAddOperator(['locked', 'x', '--reset'], deps)).toBe(1);
    expect(out.at(-1)).toBe('密码至少 4 个字符');
    // Without --reset an existing name is still refused.
    expect(await runAddOperator(['locked', 'abcd1'], deps)).toBe(1);
    expect(out.at(-1)).toBe('登录名已存在：locked');
  });
});
