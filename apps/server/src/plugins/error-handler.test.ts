import net from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@portal/contract';
import { errorHandlerPlugin } from './error-handler.ts';

/** A server whose one route throws `err`, with the portal's error handler. */
async function answerTo(err: unknown) {
  const app = Fastify({ logger: false });
  await app.register(errorHandlerPlugin);
  app.get('/x', async () => {
    throw err;
  });
  const res = await app.inject({ method: 'GET', url: '/x' });
  await app.close();
  return { status: res.statusCode, body: res.json() as { message: string; code: string } };
}

describe('the error handler', () => {
  it('answers a full disk, the files\' or the database\'s, with 507 and the shop\'s words, not a 500 (crash probe: PGlite on a full disk)', async () => {
    const full = { status: 507, body: { message: SERVER_MSG.storageFull, code: 'disk-full' } };
    expect(await answerTo(Object.assign(new Error('write failed'), { code: 'ENOSPC' }))).toEqual(full);
    // As the ORM wraps a database's error: its SQLSTATE in the cause.
    expect(await answerTo(new Error('Failed query', { cause: Object.assign(new Error('could not extend file'), { code: '53100' }) }))).toEqual(full);
    expect(await answerTo(new Error('could not write to file "pg_wal/xlogtemp.42": No space left on device'))).toEqual(full);
    // Anything else unexpected stays a 500 that reveals nothing.
    expect(await answerTo(new Error('boom'))).toEqual({ status: 500, body: { message: SERVER_MSG.internal, code: 'internal' } });
  });

  it('takes a client gone in the middle of its body for what it is, not for the database (API probe: logged as the database unavailable)', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const stream = new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk)) as { level: number; msg: string }); done(); } });
    const app = Fastify({ logger: { level: 'info', stream } });
    await app.register(errorHandlerPlugin);
    app.post('/x', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as net.AddressInfo;
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(`POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"works":[`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.destroy();
      // The handler's word on it: before, 'the database is unavailable' at warn.
      for (let i = 0; i < 50 && !lines.some((l) => /database|client went away/.test(l.msg)); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lines.map((l) => l.msg)).toContain('the client went away');
      expect(lines.filter((l) => l.msg === 'the database is unavailable')).toEqual([]);
      expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
