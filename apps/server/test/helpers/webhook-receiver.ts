import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type Received = { id: string; timestamp: string; type: string; body: Record<string, unknown>; verified: boolean; answered: number };

/**
 * A receiver of webhooks as a shop's ERP would run one, on a free port of 127.0.0.1: it verifies every
 * request with the reference Standard Webhooks verifier (npm standardwebhooks) and answers what `answer`
 * says for it (by default 200). `secret` may be set later (the server generates it).
 */
export async function startReceiver(o: { secret?: string; answer?: (r: Received, nth: number) => number | 'hang' } = {}) {
  const received: Received[] = [];
  const waiting: Array<() => void> = [];
  const state = { secret: o.secret ?? '' };
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      let verified = false;
      let body: Record<string, unknown> = {};
      try {
        body = new Webhook(state.secret).verify(raw, req.headers as Record<string, string>) as Record<string, unknown>;
        verified = true;
      } catch {
        body = JSON.parse(raw || '{}') as Record<string, unknown>;
      }
      const r: Received = { id: String(req.headers['webhook-id']), timestamp: String(req.headers['webhook-timestamp']), type: String(body.type), body, verified, answered: 0 };
      const nth = received.filter((x) => x.id === r.id).length + 1;
      const answer = o.answer?.(r, nth) ?? 200;
      received.push(r);
      for (const w of waiting.splice(0)) w();
      if (answer === 'hang') return;
      r.answered = answer;
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    received,
    setSecret: (s: string) => { state.secret = s; },
    /** Waits until `pred` holds of what was received (bounded). */
    async until(pred: (all: Received[]) => boolean, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      while (!pred(received)) {
        if (Date.now() > end) throw new Error(`receiver: condition not met in ${timeoutMs} ms; got ${JSON.stringify(received.map((r) => [r.type, r.id, r.answered]))}`);
        await new Promise<void>((r) => { waiting.push(r); setTimeout(r, 200); });
      }
      return received;
    },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
