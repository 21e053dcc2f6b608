/**
 * Drill: the server process dies (kill -9) while it is delivering a webhook (the ERP has the request and has
 * not answered yet). Started again on the same database, the server sends the delivery again, with the
 * same webhook-id (the ERP dedupes by it) and a valid signature, and logs it as delivered.
 */
import { describe, expect, it } from 'vitest';
import type { WebhookDeliveriesAnswer } from '@portal/contract';
import { drillPlace, sleep, startChild, type Kind } from '../helpers/drill.ts';
import { photoMm, placePhotoOrders } from '../helpers/orders.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

const KINDS: Kind[] = ['pglite', 'postgres'];
const SECRET = `whsec_${Buffer.alloc(32, 42).toString('base64')}`;

describe.concurrent('kill -9 while a webhook is in flight', () => {
  for (const kind of KINDS) {
    it(`sends it again after the restart, same webhook-id, on ${kind}`, async (ctx) => {
      const where = await drillPlace(ctx, kind);
      // The ERP holds the first request without answering (the process dies meanwhile), then answers 200.
      const receiver = await startReceiver({ secret: SECRET, answer: (r, nth) => (r.type === 'order.created' && nth === 1 ? 'hang' : 200) });
      ctx.onTestFinished(() => receiver.close());
      const env = { WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: SECRET, WEBHOOK_TIMEOUT_SECONDS: '120' };
      const start = async () => {
        const c = await startChild({ ...where, env });
        ctx.onTestFinished(() => c.server.stop());
        ctx.onTestFailed(() => console.error(`server ${c.url} (pid ${c.server.pid}) said:\n${c.server.output()}`));
        return c;
      };

      let c = await start();
      const demo = await c.login('demo', 'demo');
      const [order] = await placePhotoOrders(c, demo, [{ name: '断电', files: [{ path: '断电.jpg', bytes: await photoMm(127, 89, 9) }] }]);
      const [first] = await receiver.until((all) => all.some((r) => r.type === 'order.created'));
      expect(first!.verified).toBe(true);
      await c.server.kill9();
      const killedAt = Date.now();

      c = await start();
      const all = await receiver.until((got) => got.filter((r) => r.id === first!.id).length >= 2, 60_000);
      const again = all.filter((r) => r.id === first!.id);
      expect(again.map((r) => [r.verified, r.answered])).toEqual([[true, 0], [true, 200]]);
      expect((again[1]!.body.data as { salesOrderNumber: string }).salesOrderNumber).toBe(order!.salesOrderNumber);
      const recoveredMs = Date.now() - killedAt;

      const operator = await c.login('operator', 'operator');
      let log: WebhookDeliveriesAnswer | undefined;
      for (let i = 0; i < 50; i++, await sleep(100)) {
        log = (await (await c.call('GET', `/api/admin/webhooks/deliveries?salesOrderNumber=${order!.salesOrderNumber}`, { token: operator })).json()) as WebhookDeliveriesAnswer;
        if (log.items[0]?.status === 'succeeded') break;
      }
      // The attempt cut by the kill never got an answer, so the log holds the one that did.
      expect(log!.items[0]).toMatchObject({ webhookId: first!.id, status: 'succeeded', attempts: 1, lastStatusCode: 200 });
      // An endpoint given by WEBHOOK_URL is not the console's to change.
      const put = await c.call('PUT', '/api/admin/webhooks/endpoint', { token: operator, body: { url: 'http://127.0.0.1:9/x' } });
      expect(put.status).toBe(409);
      expect(((await put.json()) as { message: string }).message).toBe('Webhook 地址由服务器环境变量 WEBHOOK_URL 设置，不能在控制台修改');
      console.info(`[webhook-kill/${kind}] delivered again ${recoveredMs} ms after the kill`);
    }, 180_000);
  }
});
