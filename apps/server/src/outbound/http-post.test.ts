/**
 * What the operator reads in 投递记录 when a webhook delivery fails: Chinese, with the network's own code kept for
 * whoever fixes the receiver (a LAN probe, 2026-11-29, read ECONNREFUSED, ENOTFOUND and 测试失败：bad port).
 * Real sockets: a closed port, a name that does not resolve, a port fetch refuses, a receiver answering 403.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postBounded } from './http-post.ts';

const post = (url: string) => postBounded(url, '{}', { 'content-type': 'application/json' }, { timeoutMs: 5_000 });

describe('postBounded names a failed delivery in Chinese', () => {
  let server: Server;
  let base: string;
  let closedPort: number;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(403).end('resolve_deny');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['a closed port', () => `http://127.0.0.1:${closedPort}/hook`, '无法连接接收方：连接被拒绝（ECONNREFUSED）'],
    ['a name that does not resolve', () => 'http://portal-no-such-host.invalid/hook', /^无法连接接收方：域名无法解析（(ENOTFOUND|EAI_AGAIN)）$/],
    ['a port fetch never connects to', () => 'http://127.0.0.1:9/hook', '无法连接接收方：该端口禁止连接，请换一个端口（bad port）'],
  ])('%s', async (_, url, error) => {
    const r = await post(url());
    expect(r.statusCode).toBeNull();
    if (typeof error === 'string') expect(r.error).toBe(error);
    else expect(r.error).toMatch(error);
  });

  it('a receiver answering 403: its status and the start of its answer', async () => {
    const r = await post(`${base}/hook`);
    expect(r).toMatchObject({ statusCode: 403, error: '接收方返回 HTTP 403：resolve_deny' });
  });
});
