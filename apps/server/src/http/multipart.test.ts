import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { multipartBoundary, readMultipart, type MultipartLimits } from './multipart.ts';

const LIMITS: MultipartLimits = { fields: 5, fieldBytes: 100, headBytes: 1024, fileBytes: 4096 };

/** The bytes a browser's FormData sends: the fields, then the file. */
async function formData(fields: Record<string, string>, file: Buffer | null, name = 'a.jpg') {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (file) fd.append('file', new Blob([new Uint8Array(file)]), name);
  const req = new Request('http://x/', { method: 'POST', body: fd });
  const body = Buffer.from(await req.arrayBuffer());
  return { body, boundary: multipartBoundary(req.headers.get('content-type') ?? '')! };
}

/** Feeds `body` in pieces cut at `cuts`, as a socket may hand them over. */
function feed(body: Buffer, cuts: number[], end = true) {
  const stream = new PassThrough();
  const at = [0, ...cuts.filter((c) => c > 0 && c < body.length).sort((a, b) => a - b), body.length];
  // One piece per turn of the event loop, as from a socket: the reader's caller runs in between.
  void (async () => {
    for (let i = 0; i + 1 < at.length; i++) {
      stream.write(body.subarray(at[i], at[i + 1]));
      await new Promise((r) => setImmediate(r));
    }
    if (end) stream.end();
    else stream.destroy();
  })();
  return stream;
}

async function read(body: Buffer, boundary: string, cuts: number[] = [], limits = LIMITS, expected?: number) {
  const m = readMultipart(feed(body, cuts), boundary, limits);
  const fields = await m.fields;
  if (expected !== undefined) m.expect(expected);
  const file = await m.file;
  return { fields, file, bytes: Buffer.concat(file.pieces) };
}

describe('readMultipart', () => {
  it('reads the fields and the file, whatever the pieces the body comes in', async () => {
    const data = randomBytes(3000);
    const { body, boundary } = await formData({ identifier: 'x-1', filePath: '照片/第1张.jpg', empty: '' }, data);
    for (let cut = 1; cut < body.length; cut += 7) {
      const got = await read(body, boundary, [cut, cut + 1, cut + 40]);
      expect(got.fields).toEqual({ identifier: 'x-1', filePath: '照片/第1张.jpg', empty: '' });
      expect(got.file.bytes).toBe(3000);
      expect(got.bytes.equals(data)).toBe(true);
    }
  });

  it('keeps the file\'s bytes when they hold pieces of the delimiter, split at every place', async () => {
    const boundary = '----formdata-test-0123456789';
    // CR LF -- and most of the boundary inside the file, but never the whole delimiter.
    const data = Buffer.concat([Buffer.from(`x\r\n--${boundary.slice(0, -1)}y\r\n-\r\r\n--`), randomBytes(50), Buffer.from(`\r\n--${boundary.slice(0, 5)}`)]);
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="a"\r\n\r\n1\r\n`),
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.jpg"\r\ncontent-type: image/jpeg\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    for (let cut = 1; cut < body.length; cut++) {
      const got = await read(body, boundary, [cut, cut + 3]);
      expect(got.fields).toEqual({ a: '1' });
      expect(got.bytes.equals(data)).toBe(true);
    }
  });

  it('takes a file of the length it was said to have, and finds one shorter or longer, split at every place', async () => {
    const boundary = '----formdata-test-0123456789';
    const form = (data: Buffer) => Buffer.concat([
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="a"\r\n\r\n1\r\n`),
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const data = randomBytes(300);
    for (const length of [300, 299, 290, 250, 301, 340]) {
      const sent = length <= 300 ? data.subarray(0, length) : Buffer.concat([data, randomBytes(length - 300)]);
      const body = form(sent);
      for (let cut = 1; cut < body.length; cut += 3) {
        const got = await read(body, boundary, [cut, cut + 5], LIMITS, 300);
        expect(got.file.bytes, `${length} bytes cut at ${cut}`).toBe(length);
        expect(got.bytes.equals(sent)).toBe(true);
      }
    }
  });

  it('counts a file over the limit and keeps none of it', async () => {
    const { body, boundary } = await formData({ a: '1' }, randomBytes(5000));
    const got = await read(body, boundary, [100, 2000]);
    expect(got.file).toMatchObject({ truncated: true, bytes: 5000, pieces: [] });
  });

  it('refuses bodies that are not a form of fields and one file', async () => {
    const one = await formData({ a: '1' }, randomBytes(10));
    const refusal = (body: Buffer, boundary = one.boundary, limits = LIMITS) => read(body, boundary, [], limits).then(() => null, (err: unknown) => err);
    expect(await refusal(one.body.subarray(0, one.body.length - 10))).toMatchObject({ kind: 'malformed' });
    expect(await refusal(one.body, 'another')).toMatchObject({ kind: 'malformed' });
    expect(await refusal(Buffer.alloc(10_000, 0x41))).toMatchObject({ kind: 'malformed' });
    const noFile = await formData({ a: '1' }, null);
    expect(await refusal(noFile.body, noFile.boundary)).toMatchObject({ kind: 'no-file' });
    const many = await formData({ a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' }, randomBytes(10));
    expect(await refusal(many.body, many.boundary)).toMatchObject({ kind: 'limit' });
    const long = await formData({ a: 'x'.repeat(101) }, randomBytes(10));
    expect(await refusal(long.body, long.boundary)).toMatchObject({ kind: 'limit' });
    const fd = new FormData();
    fd.append('file', new Blob(['one']), 'a.jpg');
    fd.append('file', new Blob(['two']), 'b.jpg');
    const two = new Request('http://x/', { method: 'POST', body: fd });
    expect(await refusal(Buffer.from(await two.arrayBuffer()), multipartBoundary(two.headers.get('content-type')!)!)).toMatchObject({ kind: 'limit' });
  });

  it('rejects a body whose connection closes before its end', async () => {
    const { body, boundary } = await formData({ a: '1' }, randomBytes(2000));
    const m = readMultipart(feed(body.subarray(0, 1500), [500], false), boundary, LIMITS);
    expect(await m.fields).toEqual({ a: '1' });
    await expect(m.file).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('drops what it has kept once discarded', async () => {
    const { body, boundary } = await formData({ a: '1' }, randomBytes(3000));
    const m = readMultipart(feed(body, [300, 1000]), boundary, LIMITS);
    await m.fields;
    m.discard();
    expect((await m.file).pieces).toEqual([]);
  });

  it('reads the boundary of a content type, quoted or not', () => {
    expect(multipartBoundary('multipart/form-data; boundary=----abc')).toBe('----abc');
    expect(multipartBoundary('Multipart/Form-Data;boundary="a b"')).toBe('a b');
    expect(multipartBoundary('multipart/form-data')).toBeNull();
    expect(multipartBoundary('application/json; boundary=x')).toBeNull();
    expect(multipartBoundary(undefined)).toBeNull();
  });
});
