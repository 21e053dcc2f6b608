import { createHash, randomUUID } from 'node:crypto';
import type { TestApp } from './app.ts';

export const CHUNK = 2048000;
export const sha256 = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');

export type Answer = { state: number; message: { status: number; filePath?: string; relativeUrl?: string; accessUrl?: string; info?: Record<string, number>; error?: string } };

/** Sends one chunk as the web app does: the fields, then the part `file`. */
export async function sendChunk(t: Pick<TestApp, 'url' | 'call'>, token: string, o: {
  bytes: Buffer; filePath: string; folderId: string; identifier: string; index: number; total: number; size: number; ext?: string; names?: 'ours' | 'simple-uploader';
  /** More fields, sent before the part `file` (simple-uploader.js's chunkSize, say). */
  extra?: Record<string, string>;
}) {
  const form = new FormData();
  const ext = o.ext ?? o.filePath.slice(o.filePath.lastIndexOf('.') + 1);
  if (o.names === 'simple-uploader') {
    form.set('chunkNumber', String(o.index));
    form.set('totalChunks', String(o.total));
    form.set('totalSize', String(o.size));
    form.set('identifier', o.identifier);
    form.set('filename', o.filePath.slice(o.filePath.lastIndexOf('/') + 1));
    form.set('relativePath', o.filePath);
  } else {
    form.set('identifier', o.identifier);
    form.set('chunkIndex', String(o.index));
    form.set('chunkTotal', String(o.total));
    form.set('size', String(o.size));
    form.set('filePath', o.filePath);
    form.set('ext', ext);
    form.set('fileNum', '1');
    form.set('fileIndex', '0');
    form.set('index', '0');
    form.set('acceptFolder', o.filePath.includes('/') ? 'true' : 'false');
    form.set('fetchMeta', 'true');
  }
  form.set('folderId', o.folderId);
  for (const [k, v] of Object.entries(o.extra ?? {})) form.set(k, v);
  form.set('file', new Blob([new Uint8Array(o.bytes)]), 'blob');
  const res = await fetch(`${t.url}/api/files/updateFile`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as Answer };
}

export function chunksOf(bytes: Buffer, size = CHUNK) {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out.length ? out : [Buffer.alloc(0)];
}

/** Uploads a whole file, chunk by chunk in order (or the order given), and answers the last answer. */
export async function uploadFile(t: Pick<TestApp, 'url' | 'call'>, token: string, bytes: Buffer, filePath: string, opts: { folderId?: string; order?: number[]; parallel?: boolean } = {}) {
  const folderId = opts.folderId ?? randomUUID();
  const identifier = `${bytes.length}-${filePath}`;
  const chunks = chunksOf(bytes);
  const order = opts.order ?? chunks.map((_, i) => i + 1);
  const send = (i: number) => sendChunk(t, token, { bytes: chunks[i - 1]!, filePath, folderId, identifier, index: i, total: chunks.length, size: bytes.length });
  const answers = opts.parallel ? await Promise.all(order.map(send)) : [];
  if (!opts.parallel) for (const i of order) answers.push(await send(i));
  const done = answers.find((a) => a.body.message.status === 300);
  return { folderId, answers, done, last: answers[answers.length - 1]! };
}

export async function pollTask(t: Pick<TestApp, 'url' | 'call'>, token: string, taskId: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.call('GET', `/api/long-time-tasks/${taskId}`, { token });
    const body = (await res.json()) as { state: number; message: { status: string; progress: { done: number; total: number }; jsonContent: { works: Array<Record<string, unknown>>; unsupported: Array<Record<string, string>> } | null; error: string | null } };
    if (body.message.status !== 'running' || Date.now() > until) return body;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A valid 8-bit grey PNG of `width` × `height` (one flat colour), made without holding its pixels:
 * 30000 × 30000 (900 megapixels) is under 1 MB, one chunk.
 */
export async function flatGreyPng(width: number, height: number): Promise<Buffer> {
  const { createDeflate, crc32 } = await import('node:zlib');
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth; colour type 0 (grey), deflate, no filter method, no interlace
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (d: Buffer) => parts.push(d));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const row = Buffer.alloc(width + 1, 0x80);
  row[0] = 0; // filter type None
  for (let y = 0; y < height; y++) {
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.concat(parts)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
