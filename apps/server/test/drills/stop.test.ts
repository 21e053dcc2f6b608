/**
 * Drill: a graceful stop (SIGTERM, as an upgrade or `systemctl restart` sends) while a browser's request is in
 * flight on a kept-alive connection. The request is answered, and the process then ends on its own instead of
 * waiting out the connection until the 30 s limit kills it (restart walk: 提交订单 then SIGTERM, 30 s).
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { alive, drillPlace, sleep, startChild } from '../helpers/drill.ts';

describe('a graceful stop', () => {
  it('answers the request in flight and ends, though the browser keeps its connection open', async (ctx) => {
    const c = await startChild(await drillPlace(ctx, 'pglite'));
    ctx.onTestFinished(() => c.server.stop());
    const token = await c.login('demo', 'demo');
    const { port, hostname } = new URL(c.url);
    const body = JSON.stringify({ filePath: 'upload/none/none.jpg' });
    const socket = connect(Number(port), hostname);
    ctx.onTestFinished(() => void socket.destroy());
    let answer = '';
    socket.on('data', (d) => { answer += d.toString('utf8'); });
    socket.on('error', () => {});
    // The request's head and half its body, then the stop, then the rest: it was in flight when the stop came.
    socket.write(`POST /api/files/deleteFile HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`);
    await sleep(300);
    process.kill(c.server.pid, 'SIGTERM');
    await sleep(300);
    socket.write(body.slice(10));
    // The portal's own answer (no such file), not a 503 of a server that stops.
    await expect.poll(() => answer, { timeout: 10_000 }).toMatch(/^HTTP\/1\.1 404 /);
    // The socket stays open, as a browser's does. The process ends well before its 30 s limit.
    await expect.poll(() => alive(c.server.pid), { timeout: 20_000, interval: 200 }).toBe(false);
  }, 60_000);
});
