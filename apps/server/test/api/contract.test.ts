/**
 * One contract for every answer (#18.3): the chunk, parse and long-task answers are the zod schemas of
 * @portal/contract, the OpenAPI document shows them, and a real answer holds nothing the contract lacks.
 * The contract is the same on both databases: PGlite is enough here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChunkAnswer, LongTaskAnswer, ParseAnswer, SortWorkFilesAnswer } from '@portal/contract';
import { startApp, type TestApp } from '../helpers/app.ts';
import { corpusFile } from '../helpers/corpus.ts';
import { pollTask, uploadFile } from '../helpers/upload.ts';
import { makeZip } from '../helpers/zips.ts';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

/** The answer as the contract reads it, with every field it does not know left out: equal to the answer when none. */
const asContract = <T>(schema: { parse: (v: unknown) => T }, body: unknown) => schema.parse(body);

describe('the upload, parse and long-task answers are the contract\'s', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startApp('pglite');
    token = await t.login('demo', 'demo');
  });
  afterAll(async () => t?.close());

  it('the OpenAPI document shows what a completed upload tells about its file', async () => {
    const doc = (await (await t.call('GET', '/api/docs/json')).json()) as Doc;
    const upload = JSON.stringify(doc.paths['/api/files/updateFile']?.post?.responses['200']);
    // An image's pixels and density, whether the file states it, a PDF's pages.
    for (const field of ['"dpi"', '"dpiStated"', '"pages"', '"accessUrl"']) expect(upload).toContain(field);
    const parse = JSON.stringify(doc.paths['/api/sales_order/parseOrderInfo4BatchUp']?.get?.responses['200']);
    for (const field of ['"taskId"', '"unsupported"', '"pageCount"']) expect(parse).toContain(field);
    const many = JSON.stringify(doc.paths['/api/sales_order/parseItems']?.post?.responses['200']);
    for (const field of ['"results"', '"taskId"', '"unsupported"', '"error"']) expect(many).toContain(field);
    const task = JSON.stringify(doc.paths['/api/long-time-tasks/{taskId}']?.get?.responses['200']);
    for (const field of ['"progress"', '"jsonContent"', '"running"']) expect(task).toContain(field);
    const sort = JSON.stringify(doc.paths['/api/files/sortWorkFiles']?.post?.responses['200']);
    for (const field of ['"removed"', '"pageCount"', '"workUuid"']) expect(sort).toContain(field);
  });

  it('an image, a PDF and a zip are answered with exactly the contract\'s fields', async () => {
    const image = await uploadFile(t, token, corpusFile('images/pillow_exif-200dpcm.jpg'), 'exif.jpg');
    expect(image.done?.status).toBe(200);
    expect(asContract(ChunkAnswer, image.done?.body)).toEqual(image.done?.body);
    // 200 dots per cm stated in EXIF: 508 dpi, stated.
    expect(image.done?.body.message.info).toEqual({ width: 200, height: 200, dpi: 508, dpiStated: true });

    const pdf = await uploadFile(t, token, corpusFile('pdf/qpdf_rotated_20p.pdf'), 'rotated.pdf');
    expect(asContract(ChunkAnswer, pdf.done?.body)).toEqual(pdf.done?.body);
    expect(pdf.done?.body.message.info).toMatchObject({ pages: 20 });

    const zip = await uploadFile(t, token, await makeZip([['Book1/p1.jpg', corpusFile('images/pillow_exif-200dpcm.jpg')]]), 'book.zip');
    expect(asContract(ChunkAnswer, zip.done?.body)).toEqual(zip.done?.body);
    expect(zip.done?.body.message.info).toEqual({});

    const parsed = await (await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${image.folderId}/exif.jpg`)}`, { token })).json();
    expect(asContract(ParseAnswer, parsed)).toEqual(parsed);
    expect(parsed).toMatchObject({ state: 200, message: { works: [{ articleName: 'exif', state: 'unmatch', quantity: 1 }] } });

    const started = await (await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${zip.folderId}/book.zip`)}`, { token })).json();
    expect(asContract(ParseAnswer, started)).toEqual(started);
    const task = await pollTask(t, token, (started as { message: { taskId: string } }).message.taskId);
    expect(asContract(LongTaskAnswer, task)).toEqual(task);
    expect(task.message.status).toBe('finished');
  });

  it('a sort of a folder work is answered with exactly the contract\'s fields', async () => {
    const folderId = crypto.randomUUID();
    const photo = corpusFile('images/pillow_exif-200dpcm.jpg');
    for (const name of ['a.jpg', 'b.jpg']) await uploadFile(t, token, photo, `相册/${name}`, { folderId });
    const parsed = (await (await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/相册`)}`, { token })).json()) as { message: { works: Array<{ filePath: string; uuid: string }> } };
    const work = parsed.message.works[0]!;
    const sorted = await (await t.call('POST', '/api/files/sortWorkFiles', { token, body: { accessPath: work.filePath, fileNames: ['b.jpg'], workUuid: work.uuid } })).json();
    expect(asContract(SortWorkFilesAnswer, sorted)).toEqual(sorted);
    expect(sorted).toMatchObject({ state: 200, message: { pageCount: 1, removed: [`upload/${folderId}/相册/a.jpg`] } });
  });
});

describe('every field a request may hold is named in Chinese when it is refused', () => {
  type Schema = { properties?: Record<string, Schema>; items?: Schema | Schema[]; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[]; additionalProperties?: Schema | boolean };
  type Operation = { parameters?: Array<{ name: string; in: string; schema?: Schema }>; requestBody?: { content: Record<string, { schema?: Schema }> } };

  /** The property names a schema holds, at any depth. */
  function names(s: Schema | undefined, out: Set<string>): Set<string> {
    if (!s || typeof s !== 'object') return out;
    for (const [name, sub] of Object.entries(s.properties ?? {})) {
      out.add(name);
      names(sub, out);
    }
    for (const sub of [...(Array.isArray(s.items) ? s.items : s.items ? [s.items] : []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) names(sub, out);
    if (typeof s.additionalProperties === 'object') names(s.additionalProperties, out);
    return out;
  }

  it('has a label for each (API probe, 2026-11-30: 请求参数不正确：username：必须是文字)', async () => {
    const { fieldPathText } = await import('@portal/contract');
    const t = await startApp('pglite');
    try {
      const doc = (await (await t.call('GET', '/api/docs/json')).json()) as { paths: Record<string, Record<string, Operation>> };
      const unnamed = new Set<string>();
      for (const [url, methods] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(methods)) {
          const fields = new Map<string, string>();
          for (const p of op.parameters ?? []) {
            fields.set(p.name, p.in === 'query' ? 'querystring' : p.in);
            for (const n of names(p.schema, new Set())) fields.set(n, 'querystring');
          }
          for (const content of Object.values(op.requestBody?.content ?? {})) for (const n of names(content.schema, new Set())) fields.set(n, 'body');
          // `*` is the path of a file (its own check says what is wrong with it); additionalProperties is how a query of any fields shows.
          for (const [name, where] of fields) if (name !== '*' && name !== 'additionalProperties' && fieldPathText(name, where) === name) unnamed.add(`${method.toUpperCase()} ${url}: ${name}`);
        }
      }
      expect([...unnamed]).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
