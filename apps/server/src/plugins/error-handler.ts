import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fieldPathText, SERVER_MSG } from '@portal/contract';
import { AppError } from '../errors.ts';
import { plainIssueMessage } from './zod-messages.ts';

// A refused field is explained in the customer's language: plain words (zod-messages.ts), else zod's zh-CN locale.
z.config({ ...z.locales.zhCN(), customError: plainIssueMessage });

/** What Fastify's refusals of a body mean, in the customer's words. */
const FRAMEWORK_REFUSALS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: '请求内容不是有效的JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: '请求内容不是有效的JSON',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: '不支持此请求内容类型',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: '请求内容长度不正确',
  FST_ERR_CTP_EMPTY_TYPE: '缺少请求内容类型',
  FST_ERR_CTP_INVALID_TYPE: '请求内容类型不正确',
};

/** PostgreSQL error classes for text it cannot take: NUL or bad encoding, bad JSON text, too long. */
const BAD_TEXT_CODES = new Set(['22021', '22P05', '22P02', '22001', '2200N']);

/** The error and what it wraps: drizzle's `cause`, an AggregateError's `errors` (a few levels deep). */
function* causesOf(err: unknown, depth = 0): Generator<{ code?: unknown; message?: unknown }> {
  if (!err || typeof err !== 'object' || depth > 4) return;
  yield err;
  const { cause, errors } = err as { cause?: unknown; errors?: unknown };
  if (Array.isArray(errors)) for (const e of errors) yield* causesOf(e, depth + 1);
  yield* causesOf(cause, depth + 1);
}

/** The SQLSTATE of a database error, also when the ORM wrapped it. */
function databaseErrorCode(err: unknown): string | undefined {
  for (const { code } of causesOf(err)) if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  return undefined;
}

/**
 * The database cannot be reached: it is down or restarting, or the connection broke mid-call. Node's
 * socket errors, PostgreSQL's connection-exception class (08…) and its shutdown and start-up codes,
 * and node-postgres's errors without a code, also inside a wrapper (causesOf).
 */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', '57P03']);
const UNAVAILABLE_TEXT = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/;
/** Seconds a client is asked to wait before it tries again when the database is unavailable. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The disk is full: the files' (ENOSPC) or the database's (SQLSTATE 53100 disk_full, or its words). On PGlite a parse, a
 * draft and even a wrong password answered 500 while the data folder's disk was full (crash probe, 2026-11-30).
 */
function isStorageFull(err: unknown): boolean {
  for (const { code, message } of causesOf(err)) {
    if (code === 'ENOSPC' || code === '53100') return true;
    if (typeof message === 'string' && /No space left on device/i.test(message)) return true;
  }
  return false;
}

function isDatabaseUnavailable(err: unknown): boolean {
  for (const { code, message } of causesOf(err)) {
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_TEXT.test(message)) return true;
  }
  return false;
}

/**
 * A request Node's HTTP parser refused before Fastify saw it (Content-Length: abc, headers over 16 KB, a
 * timeout) answered in the customer's words; Fastify's own reads "Client Error" (API probe, 2026-11-30).
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, label, message] = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout', SERVER_MSG.clientTimeout]
    : err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large', SERVER_MSG.headersTooLarge]
    : [400, 'Bad Request', SERVER_MSG.malformedRequest];
  const body = JSON.stringify({ message, code: 'bad-request' });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${label}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

/**
 * One message per refused field: of two bounds a number broke, the tighter (1e308 for an id broke both the safe
 * integers' and the id's: 不能大于9007199254740991；不能大于2147483647, API probe 2026-11-30), else the first.
 */
function fieldMessages(issues: ReadonlyArray<{ instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }>): Map<string, string> {
  const kept = new Map<string, { message: string; maximum?: number }>();
  for (const v of issues) {
    const where = (v.instancePath || '').replace(/^\//, '').replaceAll('/', '.');
    const maximum = v.keyword === 'too_big' && typeof v.params.maximum === 'number' ? v.params.maximum : undefined;
    const before = kept.get(where);
    if (!before || (maximum !== undefined && before.maximum !== undefined && maximum < before.maximum)) kept.set(where, { message: v.message ?? '', ...(maximum !== undefined ? { maximum } : {}) });
  }
  return new Map([...kept].map(([where, k]) => [where, k.message]));
}

/**
 * The router's refusals of a URL (escapes that are not UTF-8, a part over maxParamLength), which never
 * reach the error handler; Fastify's own echo the URL in English (API probe, 2026-11-30).
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
  void reply.status(tooLong ? 414 : 400).send({ message: tooLong ? SERVER_MSG.urlTooLong : SERVER_MSG.badUrl, code: 'bad-url' });
}

/**
 * The one place errors become answers. Customer-facing errors keep their message; a database that cannot
 * be reached is a 503 with Retry-After; anything unexpected is logged with its stack and answered with a
 * generic 500 that reveals nothing.
 */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err: FastifyError | AppError | Error, request, reply) => {
      if (err instanceof AppError) {
        return reply.status(err.status).send(err.body ?? { message: err.message, code: err.code });
      }
      if (hasZodFastifySchemaValidationErrors(err)) {
        const details = [...fieldMessages(err.validation).entries()].map(([where, message]) => (where ? `${fieldPathText(where, err.validationContext)}：${message}` : message));
        const message = `${SERVER_MSG.badRequest}：${details.join('；')}`;
        return reply.status(400).send({ message, code: 'validation', details });
      }
      if (isResponseSerializationError(err)) {
        request.log.error({ err, cause: err.cause }, 'response does not match its schema');
        return reply.status(500).send({ message: SERVER_MSG.internal, code: 'internal' });
      }
      // Text the database cannot store (NUL, a lone surrogate, invalid JSON text) is bad input, not a fault.
      const dbCode = databaseErrorCode(err);
      if (dbCode && BAD_TEXT_CODES.has(dbCode)) {
        return reply.status(400).send({ message: `${SERVER_MSG.badRequest}：含有无法处理的字符`, code: 'bad-text' });
      }
      if (isStorageFull(err)) {
        request.log.error({ err }, 'the disk is full');
        return reply.status(507).send({ message: SERVER_MSG.storageFull, code: 'disk-full' });
      }
      // The client went away while its body came (Node's 'aborted', ECONNRESET): no one hears an answer, and it is
      // no database's fault (it was logged as the database unavailable: API probe, 2026-11-30).
      if (request.raw.destroyed && !request.raw.complete) {
        request.log.info({ err: { message: err.message, code: (err as NodeJS.ErrnoException).code } }, 'the client went away');
        return reply.status(400).send({ message: SERVER_MSG.badRequest, code: 'client-gone' });
      }
      // Not a fault of this server nor of the request: say so, and when to try again.
      if (isDatabaseUnavailable(err)) {
        request.log.warn({ err }, 'the database is unavailable');
        return reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ message: SERVER_MSG.unavailable, code: 'unavailable' });
      }
      // @fastify/static's guard against a path like //api/x or one with a NUL: no such page, not a refusal in its own words.
      if ((err as FastifyError).code === 'FST_STATIC_FORBIDDEN_PATH') return reply.status(404).send({ message: SERVER_MSG.notFound, code: 'not-found' });
      const status = 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : 500;
      if (status >= 500) {
        request.log.error({ err }, 'unexpected error');
        return reply.status(status).send({ message: SERVER_MSG.internal, code: 'internal' });
      }
      const code = 'code' in err && typeof err.code === 'string' ? err.code : 'bad-request';
      // The framework's and plugins' own refusals speak English: the customer reads Chinese.
      const message = code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? SERVER_MSG.bodyTooLarge
        : FRAMEWORK_REFUSALS[code] ? `${SERVER_MSG.badRequest}：${FRAMEWORK_REFUSALS[code]}`
        : /\p{Script=Han}/u.test(err.message) ? err.message
        : SERVER_MSG.badRequest;
      return reply.status(status).send({ message, code });
    });
  },
  { name: 'error-handler' },
);
