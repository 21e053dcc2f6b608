import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SERVER_MSG } from '@portal/contract';

/**
 * Bounds the connections one client address holds open at once (issue #19 item 8: 200 connections
 * that send a chunk's start and stall held 180 MB and 600 descriptors). The address is the TCP
 * peer's, not X-Forwarded-For: behind a proxy every connection is the proxy's, so there the bound is
 * the proxy's job (nginx limit_conn) and MAX_CONNECTIONS_PER_ADDRESS=0 turns this one off.
 * Keep in mind:
 * - a connection is counted from its accept to its close; the one over the bound is answered at its
 *   first request, before its body is read: 429, the message, and the connection closed;
 * - a connection over the bound that never sends a request is closed by Node's headersTimeout.
 */
export const connectionBoundPlugin = fp(async (app: FastifyInstance, opts: { maxPerAddress: number }) => {
  if (opts.maxPerAddress <= 0) return;
  const open = new Map<string, number>();
  const over = new WeakSet<Socket>();
  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const n = (open.get(address) ?? 0) + 1;
    open.set(address, n);
    if (n > opts.maxPerAddress) over.add(socket);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!over.has(request.raw.socket)) return;
    return reply.code(429).header('connection', 'close').header('retry-after', '5')
      .send({ message: SERVER_MSG.tooManyConnections, code: 'too-many-connections' });
  });
}, { name: 'connection-bound' });
