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
});
