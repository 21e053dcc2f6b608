/**
 * The upload protocol as the web app speaks it (../shared/spec/decisions.md §3): files cut into LIMITS.chunkSize
 * pieces, each POSTed to /api/files/updateFile as multipart (the fields, then the part `file`),
 * REQUESTS_AT_ONCE requests in flight, shared by FILES_AT_ONCE files at a time with at most
 * CHUNKS_PER_FILE chunks of each in flight (apps/web/src/features/upload/uploader.ts). The scheduler is shared with the baselines, so that
 * they send the same bytes in the same request sizes with the same concurrency.
 */
import { randomBytes } from 'node:crypto';
import { LIMITS } from '@portal/contract/enums';
import { request } from './http.ts';
import type { BenchServer } from './server.ts';

export const CHUNK_SIZE = LIMITS.chunkSize;
export const REQUESTS_AT_ONCE = 6;
export const FILES_AT_ONCE = 4;
export const CHUNKS_PER_FILE = 2;

export interface BatchFile {
  /** Relative path as picked, e.g. `p001.jpg` or `Book1/p01.jpg`. */
  relativePath: string;
  bytes: Buffer;
}

export const chunkTotalOf = (size: number, chunkSize = CHUNK_SIZE) => Math.max(1, Math.ceil(size / chunkSize));

export function chunkOf(bytes: Buffer, index: number, chunkSize = CHUNK_SIZE): Buffer {
  const start = (index - 1) * chunkSize;
  return bytes.subarray(start, Math.min(start + chunkSize, bytes.length));
}

/**
 * Sends every chunk of every file: `sendChunk` answers true when that chunk completed the file.
 * Like the web client, when all chunks of a file are acknowledged and none completed it (the
 * completing answer was lost), the last chunk is sent once more and must complete it.
 */
export async function sendBatch<F extends BatchFile>(files: readonly F[], sendChunk: (file: F, index: number, total: number) => Promise<boolean>): Promise<void> {
  const queue = [...files];
  // The web client's request slots: a chunk waits for one, and gives it back when answered.
  let free = REQUESTS_AT_ONCE;
  const waiting: Array<() => void> = [];
  const send = async (file: F, index: number, total: number) => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await sendChunk(file, index, total);
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
  const sendFile = async (file: F) => {
    const total = chunkTotalOf(file.bytes.length);
    const pending = Array.from({ length: total }, (_, i) => i + 1);
    let completed = false;
    await Promise.all(Array.from({ length: Math.min(CHUNKS_PER_FILE, total) }, async () => {
      for (let index = pending.shift(); index !== undefined; index = pending.shift()) {
        if (await send(file, index, total)) completed = true;
      }
    }));
    if (!completed && !(await send(file, total, total))) throw new Error(`${file.relativePath}: the server did not confirm the file`);
  };
  await Promise.all(Array.from({ length: Math.min(FILES_AT_ONCE, files.length) }, async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) await sendFile(file);
  }));
}

/**
 * A multipart/form-data body built by hand, the same bytes on the wire as FormData. It stays three
 * pieces (framing, the chunk's bytes, closing boundary) that the request writes one after another,
 * as a browser streams a Blob slice: copying every 2 MB chunk into one buffer cost the client (on
 * the same 2 cores as the server) CPU that the baseline's client does not spend.
 */
export function multipart(fields: Record<string, string>, file: { name: string; bytes: Buffer }): { body: Buffer[]; contentType: string } {
  const boundary = `----bench${randomBytes(12).toString('hex')}`;
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${encodeURIComponent(file.name)}"\r\ncontent-type: application/octet-stream\r\n\r\n`;
  return {
    body: [Buffer.from(head, 'utf8'), file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)],
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export interface ChunkAnswer {
  state: number;
  message: { status: number; filePath?: string; error?: string; info?: Record<string, unknown> };
}

/** One chunk to the real server; answers the parsed answer, or throws on a refusal. */
export async function sendServerChunk(server: BenchServer, o: {
  file: BatchFile; identifier: string; folderId: string; index: number; total: number; fileNum?: number; fileIndex?: number;
}): Promise<ChunkAnswer> {
  const { file, index, total } = o;
  const ext = file.relativePath.slice(file.relativePath.lastIndexOf('.') + 1).toLowerCase();
  const { body, contentType } = multipart({
    identifier: o.identifier,
    chunkIndex: String(index),
    chunkTotal: String(total),
    size: String(file.bytes.length),
    filePath: file.relativePath,
    ext,
    fileNum: String(o.fileNum ?? 1),
    fileIndex: String(o.fileIndex ?? 0),
    index: String(o.fileIndex ?? 0),
    acceptFolder: String(file.relativePath.includes('/')),
    fetchMeta: 'true',
    folderId: o.folderId,
  }, { name: file.relativePath.slice(file.relativePath.lastIndexOf('/') + 1), bytes: chunkOf(file.bytes, index) });
  const res = await request(`${server.url}/api/files/updateFile`, {
    headers: { authorization: `Bearer ${server.token}`, 'content-type': contentType },
    body,
  });
  const answer = JSON.parse(res.text) as ChunkAnswer;
  if (res.status !== 200 || answer.state !== 200) {
    throw new Error(`chunk ${index}/${total} of ${file.relativePath} refused (${res.status}): ${answer.message?.error ?? res.text.slice(0, 300)}`);
  }
  return answer;
}

/** Milliseconds of each request, apart for the ones that completed a file (those include its assembly). */
export interface RequestTimes {
  chunk: number[];
  completing: number[];
}

/** Uploads files to the real server as one batch (one folderId), the web client's way. */
export async function uploadToServer(server: BenchServer, files: readonly BatchFile[], folderId: string, times?: RequestTimes): Promise<void> {
  const fileIndex = new Map(files.map((f, i) => [f, i]));
  await sendBatch(files, async (file, index, total) => {
    const i = fileIndex.get(file) ?? 0;
    const start = performance.now();
    const answer = await sendServerChunk(server, { file, identifier: `${folderId}-${i}`, folderId, index, total, fileNum: files.length, fileIndex: i });
    const completed = answer.message.status === 300;
    times?.[completed ? 'completing' : 'chunk'].push(performance.now() - start);
    return completed;
  });
}
