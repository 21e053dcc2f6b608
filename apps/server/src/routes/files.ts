import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ChunkAnswer, zId, StoredChunksAnswer, StoredChunksBody, CheckFileAnswer, CheckFileBody, CheckFilesAnswer, CheckFilesBody, CropAnswer, CropBody, SortWorkFilesAnswer, SortWorkFilesBody } from '@portal/contract';
import fastifyMultipart from '@fastify/multipart';
import type { Config } from '../config.ts';
import type { Services } from '../services/index.ts';
import { AppError } from '../errors.ts';
import { uploadRefusal } from '../services/uploads.ts';

const MALFORMED = '上传内容不合规范：字段过多或过长';
const MULTIPART_LIMITS = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT', 'FST_PROTO_VIOLATION']);

/** A body the multipart reader could not take, in the upload's refusal shape. */
function multipartRefusal(err: unknown) {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && MULTIPART_LIMITS.has(code)) return uploadRefusal(MALFORMED);
  return uploadRefusal('上传内容不完整，请重试');
}

const MIME: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', pdf: 'application/pdf', zip: 'application/zip' };

export const fileRoutes: FastifyPluginAsyncZod<{ services: Services; config: Config }> = async (app, { services, config }) => {
  const tags = ['files'];
  // Fields before the file part, then the file: the chunk's fields are read before any of its bytes.
  await app.register(fastifyMultipart, {
    limits: { fields: 40, fieldSize: 4096, parts: 42, headerPairs: 20, fileSize: config.upload.maxChunkBytes + 1 },
    throwFileSizeLimit: false,
  });

  app.get('/files/updateFile', {
    schema: {
      tags,
      description: 'simple-uploader.js testChunks: the fields of a chunk in the query; 200 when that chunk is stored, 204 when it is not. Refusals as for a chunk.',
      querystring: z.record(z.string(), z.string().max(4096)),
    },
  }, async (request, reply) => {
    const stored = await services.uploads.hasChunk(request.customer.hubId, request.query);
    return stored ? { state: 200, message: { status: 200 } } : reply.status(204).send();
  });

  app.post('/files/storedChunks', {
    bodyLimit: 8 * 1024 * 1024,
    schema: { tags, description: 'Which chunks of these uploads (folderId + filePath, size, chunkTotal) are stored, in one call: done (with the completing answer), receiving (the chunks), or none. Used to resume a re-picked batch (issue #21 item 3).',
      body: StoredChunksBody, response: { 200: StoredChunksAnswer } },
  }, async (request) => ({ uploads: await services.uploads.storedChunks(request.customer.hubId, request.body.uploads) }));

  app.post('/files/updateFile', {
    schema: {
      tags,
      description: 'One chunk of a file (multipart: the fields of ../shared/spec/decisions.md §3, then the part `file`). simple-uploader.js names are accepted too. Refusals answer 4xx {state: 400, message: {status: 400, error}}.',
      consumes: ['multipart/form-data'],
      response: { 200: ChunkAnswer },
    },
  }, async (request) => {
    if (!request.isMultipart()) throw uploadRefusal('请以multipart/form-data上传文件');
    // A body that stops coming is cut after bodyTimeoutMs of silence, its connection closed (Node's
    // socket timeout: with no 'timeout' listener the server destroys the socket). Only while the
    // body comes: the file's assembly after its last byte may take longer without a word.
    request.raw.setTimeout(config.upload.bodyTimeoutMs);
    request.raw.once('end', () => request.raw.setTimeout(0));
    // The fields sent before the file part, then the file's bytes as they come. The body is read to
    // its end whatever the answer, so the connection is ready for the next request: parts after the
    // file are read and ignored.
    const fields: Record<string, string> = {};
    let refusal: AppError | null = null;
    let answer: Promise<ChunkAnswer> | null = null;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (part.valueTruncated) refusal ??= uploadRefusal(MALFORMED);
          if (!answer) fields[part.fieldname] = String(part.value);
        } else if (answer || refusal) {
          part.file.resume();
        } else {
          const file = part.file;
          answer = services.uploads.receiveChunk(request.customer.hubId, fields, file).finally(() => file.resume());
          await answer.catch(() => {});
        }
      }
    } catch (err) {
      // The body broke after the chunk was taken: the chunk's answer stands.
      if (!answer) throw multipartRefusal(err);
    }
    if (refusal) throw refusal;
    if (!answer) throw uploadRefusal('缺少文件内容');
    return answer;
  });

  app.get('/files/raw/:hubId/*', {
    config: { public: true },
    schema: { tags, params: z.object({ hubId: zId, '*': z.string().max(2000) }),
      querystring: z.object({ exp: z.string().max(20).optional(), sig: z.string().max(100).optional(), download: z.enum(['1']).optional() }) },
  }, async (request, reply) => {
    const { hubId } = request.params;
    const rel = request.params['*'];
    const signed = services.urls.verify(`hub:${hubId}:${rel}`, request.query.exp, request.query.sig);
    if (!signed) {
      // Without a valid signature the file is served only to its own hub's logged-in customer.
      const caller = await app.customerOf(request);
      if (caller?.hubId !== hubId) return reply.status(403).send({ message: '链接已失效或无权访问', code: 'forbidden' });
    }
    const file = await services.files.open(hubId, rel);
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
    return reply
      .header('content-disposition', `${request.query.download ? 'attachment' : 'inline'}; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, max-age=300')
      .type(MIME[ext] ?? 'application/octet-stream')
      .send(file);
  });

  app.post('/files/deleteFile', {
    schema: { tags, body: z.object({ filePath: z.string().min(1).max(1024) }), response: { 200: z.object({ state: z.literal(200), message: z.object({ deleted: z.number().int() }) }) } },
  }, async (request) => ({ state: 200 as const, message: { deleted: await services.files.remove(request.customer.hubId, request.body.filePath) } }));
};

export const previewRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get('/files/preview/:hubId/*', {
    config: { public: true },
    schema: { tags: ['files'], params: z.object({ hubId: zId, '*': z.string().max(2000) }),
      querystring: z.object({ page: z.coerce.number().int().min(1).max(100000).optional(), exp: z.string().max(20).optional(), sig: z.string().max(100).optional(), t: z.string().max(30).optional() }) },
  }, async (request, reply) => {
    const { hubId } = request.params;
    const rel = request.params['*'];
    if (!services.previews.verify(hubId, rel, request.query.exp, request.query.sig)) {
      const caller = await app.customerOf(request);
      if (caller?.hubId !== hubId) return reply.status(403).send({ message: '链接已失效或无权访问', code: 'forbidden' });
    }
    // The browser gave up on this picture (dialog closed, thumbnail scrolled away): drop its place in line.
    const gone = new AbortController();
    reply.raw.once('close', () => gone.abort());
    const stream = await services.previews.open(hubId, rel, request.query.page ?? null, gone.signal);
    return reply.header('x-content-type-options', 'nosniff').header('cache-control', 'private, max-age=300')
      .header('content-disposition', 'inline').type('image/jpeg').send(stream);
  });
};

export const fixRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['check'];

  app.post('/files/cropImg', { schema: { tags, body: CropBody, response: { 200: CropAnswer } } },
    async (request) => services.crop.crop(request.customer.hubId, request.body));

  app.post('/files/undoCrop', { schema: { tags, body: z.object({ path: z.string().min(1).max(1024) }), response: { 200: CropAnswer } } },
    async (request) => services.crop.undo(request.customer.hubId, request.body.path));

  app.post('/files/sortWorkFiles', { schema: { tags, body: SortWorkFilesBody, response: { 200: SortWorkFilesAnswer } } },
    async (request) => services.check.sort(request.customer.hubId, request.body));

  app.post('/sales_order/checkFile', {
    schema: { tags, description: 'Checks a work against a SKU. A failing check is an answer (HTTP 200, state 400), not an HTTP error.', body: CheckFileBody, response: { 200: CheckFileAnswer } },
  }, async (request) => (await services.check.check(request.customer.hubId, request.body)).answer);

  app.post('/sales_order/checkFiles', {
    schema: { tags, description: 'Checks up to 100 works against one SKU, in parallel; each result is what checkFile answers for the work, or why it could not be checked.', body: CheckFilesBody, response: { 200: CheckFilesAnswer } },
  }, async (request) => services.check.checkMany(request.customer.hubId, request.body));
};
