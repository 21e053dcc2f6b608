/**
 * Webhooks for the shop's ERP (#22.5), received by a real HTTP receiver that verifies every request with the
 * reference Standard Webhooks verifier: a failed first delivery is retried with the same webhook-id, the log
 * and resend work through the API, and hostile endpoints (hanging, huge answers, redirects) cannot hold a
 * delivery.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDeliveriesAnswer, WebhookEndpointAnswer, WebhookTestAnswer } from '@portal/contract';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { photoMm, placePhotoOrders } from '../helpers/orders.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

const json = async <T>(res: Response) => (await res.json()) as T;

describe.each(DB_KINDS)('webhooks on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let operator: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const hostile: http.Server[] = [];

  /** A server that misbehaves in one way, on a free port. */
  async function hostileServer(handler: http.RequestListener) {
    const s = http.createServer(handler);
    hostile.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}/`;
  }
  const setEndpoint = (body: Record<string, unknown>, token = operator) => t.call('PUT', '/api/admin/webhooks/endpoint', { token, body });
  const deliveries = async (query = '') => json<WebhookDeliveriesAnswer>(await t.call('GET', `/api/admin/webhooks/deliveries?${query}`, { token: operator }));

  beforeAll(async () => {
    // Fast retries and a short deadline, so the test sees a retry and a timeout in seconds.
    t = await startApp(kind, { WEBHOOK_RETRY_BASE_SECONDS: '0.3', WEBHOOK_TIMEOUT_SECONDS: '1', WEBHOOK_MAX_ATTEMPTS: '3' });
    demo = await t.login('demo', 'demo');
    operator = await t.login('operator', 'operator');
    // The ERP is down for the first attempt of every event.
    receiver = await startReceiver({ answer: (r, nth) => (r.type.startsWith('order.') && nth === 1 ? 500 : 200) });
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    for (const s of hostile) { s.closeAllConnections(); s.close(); }
    await t?.close();
  });

  it('sets the endpoint in the console with a generated whsec_ secret, and its test event verifies', async () => {
    expect(await json<WebhookEndpointAnswer>(await t.call('GET', '/api/admin/webhooks/endpoint', { token: operator }))).toEqual({ endpoint: null });
    const bad = await setEndpoint({ url: 'ftp://erp.example/hooks' });
    expect(bad.status).toBe(400);
    expect((await json<{ message: string }>(bad)).message).toContain('Webhook 地址必须是 http:// 或 https:// 开头的完整网址');
    expect((await setEndpoint({ url: receiver.url }, demo)).status).toBe(403);

    const set = await setEndpoint({ url: receiver.url });
    expect(set.status).toBe(200);
    const { endpoint } = await json<WebhookEndpointAnswer>(set);
    expect(endpoint).toMatchObject({ url: receiver.url, source: 'console' });
    expect(endpoint!.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    receiver.setSecret(endpoint!.secret);

    const test = await json<WebhookTestAnswer>(await t.call('POST', '/api/admin/webhooks/test', { token: operator }));
    expect(test).toMatchObject({ ok: true, statusCode: 200, error: null });
    const got = receiver.received.find((r) => r.id === test.webhookId)!;
    expect(got).toMatchObject({ type: 'webhook.test', verified: true });

    // A new URL saved without a secret keeps the one the ERP verifies with (it was replaced, and the ERP then
    // refused every delivery: found from another PC); a new one only when asked for, or given.
    const moved = await json<WebhookEndpointAnswer>(await setEndpoint({ url: `${receiver.url}?moved=1` }));
    expect(moved.endpoint!.secret).toBe(endpoint!.secret);
    const back = await json<WebhookEndpointAnswer>(await setEndpoint({ url: receiver.url, secret: '' }));
    expect(back.endpoint).toMatchObject({ url: receiver.url, secret: endpoint!.secret });
    const rotated = await json<WebhookEndpointAnswer>(await setEndpoint({ url: receiver.url, newSecret: true }));
    expect(rotated.endpoint!.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.endpoint!.secret).not.toBe(endpoint!.secret);
    const given = await json<WebhookEndpointAnswer>(await setEndpoint({ url: receiver.url, secret: endpoint!.secret, newSecret: true }));
    expect(given.endpoint!.secret).toBe(endpoint!.secret);
  });

  it('sends order.created, signed, retries the failed first delivery with the same webhook-id, and logs both attempts', async () => {
    const [order] = await placePhotoOrders(t, demo, [{ name: '回执', files: [{ path: '回执.jpg', bytes: await photoMm(127, 89, 7) }] }]);
    const so = order!.salesOrderNumber;
    const got = await receiver.until((all) => all.filter((r) => r.type === 'order.created' && (r.body.data as { salesOrderNumber: string }).salesOrderNumber === so).length >= 2);
    const mine = got.filter((r) => r.type === 'order.created' && (r.body.data as { salesOrderNumber: string }).salesOrderNumber === so);
    expect(mine.map((r) => [r.verified, r.answered])).toEqual([[true, 500], [true, 200]]);
    expect(mine[0]!.id).toBe(mine[1]!.id);
    expect(mine[0]!.id).toMatch(/^msg_/);
    expect(mine[1]!.body.data).toMatchObject({ salesOrderNumber: so, articleName: '回执', productName: '5寸照片冲印', quantity: 2, customerHubId: 1 });
    // What the amount is made of, so the ERP can book it line by line (it carried only the amount).
    expect(mine[1]!.body.data).toMatchObject({ amount: '1.36', unitPrice: '0.68', addPageNum: 0,
      pricing: { basis: 'print', units: '2', unitPrice: '0.68', copies: 2, extraPages: 0, extraPagePrice: null, amount: '1.36', text: '2张 × ¥0.68' } });

    let log = await deliveries(`salesOrderNumber=${so}`);
    for (let i = 0; i < 50 && log.items[0]?.status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      log = await deliveries(`salesOrderNumber=${so}`);
    }
    expect(log.total).toBe(1);
    const d = log.items[0]!;
    expect(d).toMatchObject({ webhookId: mine[0]!.id, eventType: 'order.created', status: 'succeeded', attempts: 2, lastStatusCode: 200, lastError: null });
    expect(d.attemptLog.map((a) => [a.statusCode, a.url])).toEqual([[500, receiver.url], [200, receiver.url]]);
    expect(d.attemptLog[0]!.error).toContain('HTTP 500');

    // Resend from the console: a new delivery of the same event, the same webhook-id (the ERP dedupes by it).
    const resent = await t.call('POST', `/api/admin/webhooks/deliveries/${d.id}/resend`, { token: operator });
    expect(resent.status).toBe(200);
    await receiver.until((all) => all.filter((r) => r.id === mine[0]!.id).length >= 3);
    log = await deliveries(`salesOrderNumber=${so}`);
    expect(log.total).toBe(2);
    expect((await t.call('POST', '/api/admin/webhooks/deliveries/999999/resend', { token: operator })).status).toBe(404);
    expect((await t.call('GET', '/api/admin/webhooks/deliveries', { token: demo })).status).toBe(403);
  }, 60_000);

  it('sends order.status_changed for every move, and order.cancelled with a cancellation, each verified', async () => {
    const [order] = await placePhotoOrders(t, demo, [{ name: '状态', files: [{ path: '状态.jpg', bytes: await photoMm(127, 89, 10) }] }]);
    const so = order!.salesOrderNumber;
    const rows = await json<Array<{ id: number; salesOrderNumber: string }>>(await t.call('GET', `/api/admin/orders?q=${so}`, { token: operator }));
    const id = rows.find((r) => r.salesOrderNumber === so)!.id;
    expect((await t.call('POST', `/api/admin/orders/${id}/status`, { token: operator, body: { to: 'in_production' } })).status).toBe(200);
    expect((await t.call('POST', `/api/admin/orders/${id}/status`, { token: operator, body: { to: 'cancelled', note: '客户来电取消' } })).status).toBe(200);
    const ofOrder = (all: typeof receiver.received) => all.filter((r) => (r.body.data as { salesOrderNumber?: string }).salesOrderNumber === so && r.answered === 200);
    const got = ofOrder(await receiver.until((all) => ofOrder(all).length >= 4));
    // Deliveries run in parallel: compare as a set, in the order each event happened.
    const byType = (type: string) => got.filter((r) => r.type === type).map((r) => r.body.data as Record<string, unknown>);
    expect(got.every((r) => r.verified)).toBe(true);
    expect(byType('order.created')).toHaveLength(1);
    expect(byType('order.status_changed').map((d) => [d.from, d.to]).sort()).toEqual([['in_production', 'cancelled'], ['pending', 'in_production']].sort());
    expect(byType('order.cancelled')).toEqual([expect.objectContaining({ status: 'cancelled', note: '客户来电取消', articleName: '状态', quantity: 2 })]);
    expect(new Set(got.map((r) => r.id)).size).toBe(4);
  }, 60_000);

  it('cannot be held by a hanging, a flooding or a redirecting endpoint', async () => {
    const hang = await hostileServer(() => { /* never answers */ });
    const flood = await hostileServer((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = () => { while (res.write(chunk)); };
      res.on('drain', pump);
      pump();
    });
    // A redirect to an address of the shop's network; following it would send our signed request there.
    let targetHits = 0;
    const target = await hostileServer((_req, res) => { targetHits++; res.end('ok'); });
    const redirect = await hostileServer((_req, res) => res.writeHead(307, { location: target }).end());

    await setEndpoint({ url: hang });
    let started = Date.now();
    const timedOut = await json<WebhookTestAnswer>(await t.call('POST', '/api/admin/webhooks/test', { token: operator }));
    expect(timedOut).toMatchObject({ ok: false, statusCode: null, error: '接收方 1 秒内没有应答' });
    expect(Date.now() - started).toBeLessThan(10_000);

    await setEndpoint({ url: flood });
    started = Date.now();
    const flooded = await json<WebhookTestAnswer>(await t.call('POST', '/api/admin/webhooks/test', { token: operator }));
    expect(flooded).toMatchObject({ ok: true, statusCode: 200 });

    await setEndpoint({ url: redirect });
    const redirected = await json<WebhookTestAnswer>(await t.call('POST', '/api/admin/webhooks/test', { token: operator }));
    expect(redirected).toMatchObject({ ok: false, statusCode: 307, error: '接收方要求重定向（307），已拒绝跟随' });
    expect(targetHits, 'the redirect was followed').toBe(0);

    // An order's delivery to a hanging ERP times out, is logged, retried, and given up after WEBHOOK_MAX_ATTEMPTS.
    await setEndpoint({ url: hang });
    const [order] = await placePhotoOrders(t, demo, [{ name: '挂起', files: [{ path: '挂起.jpg', bytes: await photoMm(127, 89, 8) }] }]);
    let log = await deliveries(`salesOrderNumber=${order!.salesOrderNumber}`);
    for (let i = 0; i < 100 && log.items[0]?.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      log = await deliveries(`salesOrderNumber=${order!.salesOrderNumber}`);
    }
    expect(log.items[0]).toMatchObject({ status: 'failed', attempts: 3, lastError: '接收方 1 秒内没有应答', nextAttemptAt: null });
    expect(log.items[0]!.attemptLog.every((a) => a.durationMs < 5000)).toBe(true);
  }, 90_000);

  it('logs an ERP\'s error page holding NUL bytes and retries on its schedule (it was sent again every 2 s, forever: API probe)', async () => {
    let hits = 0;
    const binary = await hostileServer((_req, res) => { hits++; res.writeHead(500).end(Buffer.from('bad\0body\u0001 页面', 'utf8')); });
    await setEndpoint({ url: binary });
    const tried = await json<WebhookTestAnswer>(await t.call('POST', '/api/admin/webhooks/test', { token: operator }));
    expect(tried).toMatchObject({ ok: false, statusCode: 500 });
    expect(tried.error).not.toMatch(/[^\P{Cc}\t\n\r]/u);
    const before = hits;
    const [order] = await placePhotoOrders(t, demo, [{ name: '二进制', files: [{ path: '二进制.jpg', bytes: await photoMm(127, 89, 9) }] }]);
    let log = await deliveries(`salesOrderNumber=${order!.salesOrderNumber}`);
    for (let i = 0; i < 100 && log.items[0]?.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      log = await deliveries(`salesOrderNumber=${order!.salesOrderNumber}`);
    }
    expect(log.items[0]).toMatchObject({ status: 'failed', attempts: 3, lastStatusCode: 500, nextAttemptAt: null });
    expect(log.items[0]!.attemptLog).toHaveLength(3);
    expect(log.items[0]!.lastError).toContain('bad body');
    // Given up: nothing more is sent.
    const after = hits;
    expect(after - before).toBe(3);
    await new Promise((r) => setTimeout(r, 2500));
    expect(hits).toBe(after);
  }, 60_000);

  it('refuses an endpoint with a user name or password in its URL (it was taken, then never delivered, and its error echoed the password)', async () => {
    const res = await setEndpoint({ url: 'http://user:secret@127.0.0.1:9/' });
    expect(res.status).toBe(400);
    const body = await json<{ message: string }>(res);
    expect(body.message).toContain('接收地址不能包含用户名或密码');
    expect(body.message).not.toContain('secret');
  });
});
