import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * An answer decided before the request's body was read (401 from the login check, 413 from a
 * Content-Length over the route's limit, 404) goes out once the body is in. Node drains an unread
 * body only on a connection kept alive; on one that closes after the answer (HTTP/1.0, which is how
 * nginx speaks to the portal unless told otherwise) it closed the socket on bytes still coming, the
 * sender got a reset, and nginx answered 502 instead of the portal's message (1 chunk in 5 of a
 * logged-out customer through README's block). Keep in mind:
 * - a body over `maxBytes`, or still not in after `waitMs`, is not waited for: the answer goes and
 *   the connection closes as before;
 * - an answer that sheds load does not wait (429: too many connections from one address; 503: the server
 *   stopping): those connections are closed at once, as they were.
 */
export const bodyFirstPlugin = fp(async (app: FastifyInstance, opts: { maxBytes: number; waitMs: number }) => {
  app.addHook('onSend', async (request, reply) => {
    const raw = request.raw;
    if (raw.complete || raw.destroyed || !hasBody(raw) || reply.statusCode === 429 || reply.statusCode === 503) return;
    const declared = Number(raw.headers['content-length']);
    if (declared > opts.maxBytes) return;
    await drained(raw, opts.maxBytes, opts.waitMs);
  });
}, { name: 'body-first' });

const hasBody = (raw: IncomingMessage) => Number(raw.headers['content-length']) > 0 || raw.headers['transfer-encoding'] !== undefined;

/** Reads the rest of the body and drops it: resolves at its end, or when it is over `maxBytes` or late. */
function drained(raw: IncomingMessage, maxBytes: number, waitMs: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const onData = (piece: Buffer) => {
      seen += piece.length;
      if (seen > maxBytes) done();
    };
    const timer = setTimeout(done, waitMs);
    raw.on('data', onData).once('end', done).once('close', done).once('error', done);
    raw.resume();
  });
}
