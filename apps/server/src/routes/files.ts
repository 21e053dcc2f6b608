import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CheckFileAnswer, CheckFileBody, CropAnswer, CropBody, SortWorkFilesBody } from '@portal/contract';
import type { Config } from '../config.ts';
import { youngCollector } from '../http/young-gc.ts';
import { multipartBoundary, MultipartError, readMultipart } from '../http/multipart.ts';
import { AppError } from '../errors.ts';
import type { Services } from '../services/index.ts';
import { chunkBytes, normaliseChunkFields, uploadRefusal } from '../services/uploads.ts';

const ChunkAnswerSchema = z.object({
  state: z.literal(200),
  message: z.union([
    z.object({ status: z.literal(300), filePath: z.string(), relativeUrl: z.string(), accessUrl: z.string(), info: z.record(z.string(), z.unknown()) }),
    z.object({ status: z.literal(200) }),
  ]),
});

/** How many bytes of chunk bodies come between two scavenges (6 MB: measured, docs/decisions.md). */
const UPLOAD_BYTES_PER_SCAVENGE = 6_000_000;

const MIME: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', pdf: 'application/pdf', zip: 'application/zip' };

export const fileRoutes: FastifyPluginAsyncZod<{ services: Services; config: Config }> = async (app, { services, config }) => {
  const tags = ['files'];
  // The chunk route reads its multipart body itself (http/multipart.ts): Fastify leaves it unread.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
  // A scavenge every few megabytes of chunks: see http/young-gc.ts.
  const bodyBytes = youngCollector(UPLOAD_BYTES_PER_SCAVENGE);

  app.post('/files/updateFile', {
    schema: {
      tags,
      description: 'One chunk of a file (multipart: the fields of decisions §3, then the part `file`). simple-uploader.js names are accepted too. Refusals answer 4xx {state: 400, message: {status: 400, error}}.',
      consumes: ['multipart/form-data'],
      response: { 200: ChunkAnswerSchema },
    },
  }, async (request) => {
    const boundary = multipartBoundary(request.headers['content-type']);
    if (!boundary) throw uploadRefusal('请以multipart/form-data上传文件');
    const body = readMultipart(request.raw, boundary, { fields: 40, fieldBytes: 4096, headBytes: 64 * 1024, fileBytes: config.upload.maxChunkBytes });
    try {
      let chunk;
      try {
        chunk = normaliseChunkFields(await body.fields, config);
        const bytes = chunkBytes(chunk);
        body.expect(bytes);
        bodyBytes(bytes);
      } catch (err) {
        body.discard();
        throw err;
      }
      return await services.uploads.receiveChunk(request.user.hubId, chunk, body.file);
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof MultipartError) {
        throw uploadRefusal(err.kind === 'no-file' ? '缺少文件内容' : err.kind === 'limit' ? '上传内容不合规范：字段过多或过长，或不止一个文件' : '上传内容不完整，请重试');
      }
      const code = (err as { code?: string }).code ?? '';
      if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE') throw uploadRefusal('上传内容不完整，请重试');
      if (code === 'ENOSPC') throw new AppError(507, 'disk-full', '服务器存储空间不足，请联系印刷厂', { state: 400, message: { status: 400, error: '服务器存储空间不足，请联系印刷厂' } });
      throw err;
    }
  });

  app.get('/files/raw/:hubId/*', {
    config: { public: true },
    schema: { tags, params: z.object({ hubId: z.coerce.number().int().positive(), '*': z.string().max(2000) }),
      querystring: z.object({ exp: z.string().max(20).optional(), sig: z.string().max(100).optional(), download: z.enum(['1']).optional() }) },
  }, async (request, reply) => {
    const { hubId } = request.params;
    const rel = request.params['*'];
    const signed = services.urls.verify(`hub:${hubId}:${rel}`, request.query.exp, request.query.sig);
    if (!signed) {
      // Without a valid signature the file is served only to its own hub's logged-in customer.
      const caller = await request.jwtVerify().then(() => request.user, () => null);
      if (!caller || caller.hubId !== hubId) return reply.status(403).send({ message: '链接已失效或无权访问', code: 'forbidden' });
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
  }, async (request) => ({ state: 200 as const, message: { deleted: await services.files.remove(request.user.hubId, request.body.filePath) } }));
};

export const previewRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get('/files/preview/:hubId/*', {
    config: { public: true },
    schema: { tags: ['files'], params: z.object({ hubId: z.coerce.number().int().positive(), '*': z.string().max(2000) }),
      querystring: z.object({ page: z.coerce.number().int().min(1).max(100000).optional(), exp: z.string().max(20).optional(), sig: z.string().max(100).optional(), t: z.string().max(30).optional() }) },
  }, async (request, reply) => {
    const { hubId } = request.params;
    const rel = request.params['*'];
    if (!services.previews.verify(hubId, rel, request.query.exp, request.query.sig)) {
      const caller = await request.jwtVerify().then(() => request.user, () => null);
      if (!caller || caller.hubId !== hubId) return reply.status(403).send({ message: '链接已失效或无权访问', code: 'forbidden' });
    }
    const stream = await services.previews.open(hubId, rel, request.query.page ?? null);
    return reply.header('x-content-type-options', 'nosniff').header('cache-control', 'private, max-age=300')
      .header('content-disposition', 'inline').type('image/jpeg').send(stream);
  });
};

export const fixRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['check'];

  app.post('/files/cropImg', { schema: { tags, body: CropBody, response: { 200: CropAnswer } } },
    async (request) => services.crop.crop(request.user.hubId, request.body));

  app.post('/files/undoCrop', { schema: { tags, body: z.object({ path: z.string().min(1).max(1024) }), response: { 200: CropAnswer } } },
    async (request) => services.crop.undo(request.user.hubId, request.body.path));

  app.post('/files/sortWorkFiles', { schema: { tags, body: SortWorkFilesBody } },
    async (request) => services.check.sort(request.user.hubId, request.body));

  app.post('/sales_order/checkFile', {
    schema: { tags, description: 'Checks a work against a SKU. A failing check is an answer (HTTP 200, state 400), not an HTTP error.', body: CheckFileBody, response: { 200: CheckFileAnswer } },
  }, async (request) => (await services.check.check(request.user.hubId, request.body)).answer);
};
