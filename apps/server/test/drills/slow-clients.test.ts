/**
 * Drill (issue #19 item 8): clients that open connections and hold them. A chunk whose body stops
 * coming is cut after CHUNK_BODY_TIMEOUT_SECONDS of silence, and its connection closed; one client
 * address holds at most MAX_CONNECTIONS_PER_ADDRESS connections, the next one is refused with 429
 * and a Chinese message, while other addresses are served. Raw sockets, a real server.
 */
import http from 'node:http';
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@portal/contract';
import { startApp, type TestApp } from '../helpers/app.ts';

const BOUND = 4;

/** A socket from `localAddress` (any 127.x address reaches the server on 127.0.0.1), connected. */
function connectFrom(url: string, localAddress: string): Promise<net.Socket> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port), localAddress }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with what the server sent when it closes the socket. */
function closed(socket: net.Socket): Promise<string> {
  const got: Buffer[] = [];
  socket.on('data', (d: Buffer) => got.push(d));
  socket.on('error', () => {});
  return new Promise((resolve) => socket.once('close', () => resolve(Buffer.concat(got).toString('utf8'))));
}

/** GET path from `localAddress` on a connection of its own: the status and the body. */
function getFrom(url: string, path: string, localAddress: string): Promise<{ status: number; text: string }> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const req = http.request({ host: u.hostname, port: u.port, path, localAddress, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }));
      res.on('error', (err) => resolve({ status: 0, text: err.message }));
    });
    req.on('error', (err) => resolve({ status: 0, text: err.message }));
    req.end();
  });
}

describe('slow and greedy clients', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startApp('pglite', { CHUNK_BODY_TIMEOUT_SECONDS: '1', MAX_CONNECTIONS_PER_ADDRESS: String(BOUND) });
    token = await t.login('demo', 'demo');
  });
  afterAll(async () => t?.close());

  it('closes the connection of a chunk whose body stops coming, and takes nothing of it', async () => {
    const folderId = randomUUID();
    const boundary = 'stall';
    const field = (name: string, value: string) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const head = field('identifier', 'stalled') + field('chunkIndex', '1') + field('chunkTotal', '2') + field('size', String(4_096_000))
      + field('filePath', 'stalled.png') + field('folderId', folderId)
      + `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="blob"\r\ncontent-type: application/octet-stream\r\n\r\n`;
    // A PNG's first 64 KB of a 2,048,000-byte chunk, then nothing more.
    const start = Buffer.concat([Buffer.from(head), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(65_528, 7)]);
    const stalled = await Promise.all(Array.from({ length: 3 }, async (_, i) => {
      const socket = await connectFrom(t.url, `127.0.0.${10 + i}`);
      const ended = closed(socket);
      socket.write(`POST /api/files/updateFile HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\n`
        + `content-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: ${head.length + 2_048_000 + 10}\r\n\r\n`);
      socket.write(start);
      return ended;
    }));
    // The server closes each of them: the test waits for that, whatever it takes.
    const sent = await Promise.all(stalled);
    for (const text of sent) expect(text).not.toMatch(/^HTTP\/1\.1 5/);
    // Nothing of the cut chunk is recorded: the upload has no chunk.
    const check = await t.call('GET', `/api/files/updateFile?${new URLSearchParams({ identifier: 'stalled', chunkNumber: '1', totalChunks: '2', totalSize: '4096000', relativePath: 'stalled.png', folderId })}`, { token });
    expect(check.status).toBe(204);
    expect((await t.call('GET', '/api/health')).status).toBe(200);
  });

  it('refuses a client address its next connection beyond the bound, in Chinese, and serves the others', async () => {
    const held = await Promise.all(Array.from({ length: BOUND }, () => connectFrom(t.url, '127.0.0.3')));
    try {
      const refused = await getFrom(t.url, '/api/health', '127.0.0.3');
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.text)).toMatchObject({ message: SERVER_MSG.tooManyConnections });
      const other = await getFrom(t.url, '/api/health', '127.0.0.4');
      expect(other.status).toBe(200);
    } finally {
      for (const s of held) s.destroy();
    }
    // Once its connections are gone, the address is served again.
    await expect.poll(async () => (await getFrom(t.url, '/api/health', '127.0.0.3')).status).toBe(200);
  });
});
