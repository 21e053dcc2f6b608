/**
 * The uploader's progress accounting, with the HTTP call replaced at its boundary (sendChunk): the
 * test plays the browser's upload progress events and the server's answers, and reads the store.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChunkAnswer } from '@portal/contract/api';
import { LIMITS } from '@portal/contract/enums';
import { MSG } from '@portal/contract/messages';

type Call = { id: string; chunkIndex: number; onProgress?: (bytes: number) => void; resolve: (a: ChunkAnswer) => void; reject: (e: unknown) => void };
const calls: Call[] = [];

vi.mock('./api/update-file.ts', () => ({
  sendChunk: (fields: { identifier: string; chunkIndex: number }, _chunk: Blob, _name: string, _signal: AbortSignal, onProgress?: (bytes: number) => void) =>
    new Promise<ChunkAnswer>((resolve, reject) => calls.push({ id: fields.identifier, chunkIndex: fields.chunkIndex, onProgress, resolve, reject })),
}));

// What the server says it holds when a file is not confirmed (storedChunks), and what it was asked.
const held: { answer: Array<{ status: 'done' | 'receiving' | 'none'; chunks: number[] }>; asked: unknown[] } = { answer: [], asked: [] };
vi.mock('./api/stored-chunks.ts', () => ({
  storedChunks: async (uploads: unknown[]) => {
    held.asked.push(...uploads);
    return held.answer;
  },
}));

// Whether GET /api/health answers (the uploader asks while chunks wait to be retried).
const health = { up: false, asked: 0 };
vi.mock('./api/health.ts', () => ({
  serverAnswers: async () => {
    health.asked++;
    return health.up;
  },
}));

const { createUploader } = await import('./uploader.ts');
const { ApiError } = await import('../../lib/http.ts');
const { createBatch } = await import('../batch/index.ts');
// The page's batch, as BatchProvider makes it.
const page = createBatch();
const { addUploadItems, uploadStore } = page;

const done = (filePath: string): ChunkAnswer => ({
  state: 200,
  message: { status: 300, filePath, relativeUrl: '/r', accessUrl: '/a', info: {} },
});

/** Lets the uploader's awaits run (slot taken, request started). */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('upload progress', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    calls.length = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('moves while a small file is being sent, not only when its one chunk is answered', async () => {
    const size = 500_000;
    addUploadItems([{ key: 'b1/photo.jpg', batchId: 'b1', name: 'photo.jpg', isFolder: false, filePath: 'upload/b1/photo.jpg', files: [{ id: 'b1-0', relativePath: 'photo.jpg', size, chunkTotal: 1 }] }]);
    const settled: string[] = [];
    const uploader = createUploader(page, (id) => settled.push(id));
    uploader.add([{ id: 'b1-0', file: new Blob([new Uint8Array(size)]), relativePath: 'photo.jpg', batchId: 'b1', fileNum: 1, fileIndex: 0, itemIndex: 0 }]);
    await settle();
    expect(calls).toHaveLength(1);

    calls[0]?.onProgress?.(125_000);
    calls[0]?.onProgress?.(250_000);
    await vi.advanceTimersByTimeAsync(150);
    expect(uploadStore.getState().files['b1-0']).toMatchObject({ status: 'uploading', bytesDone: 250_000 });
    expect(uploadStore.getState().overall.bytesDone).toBe(250_000);

    calls[0]?.resolve(done('upload/b1/photo.jpg'));
    await vi.advanceTimersByTimeAsync(150);
    expect(uploadStore.getState().files['b1-0']).toMatchObject({ status: 'done', bytesDone: size });
    expect(settled).toEqual(['b1-0']);
  });

  it('writes the progress of every file in flight once per tick, and a failed try gives its bytes back', async () => {
    const size = 3 * 2_048_000;
    const files = Array.from({ length: 4 }, (_, i) => ({ id: `b2-${i}`, relativePath: `p${i}.jpg`, size, chunkTotal: 3 }));
    addUploadItems(files.map((f) => ({ key: `b2/${f.relativePath}`, batchId: 'b2', name: f.relativePath, isFolder: false, filePath: `upload/b2/${f.relativePath}`, files: [f] })));
    const uploader = createUploader(page, () => undefined);
    uploader.add(files.map((f, i) => ({ id: f.id, file: new Blob([new Uint8Array(size)]), relativePath: f.relativePath, batchId: 'b2', fileNum: 4, fileIndex: i, itemIndex: i })));
    await settle();
    // Six requests for four files, at most two of a file.
    expect(calls).toHaveLength(6);

    const setState = vi.spyOn(uploadStore, 'setState');
    for (let step = 1; step <= 50; step++) for (const call of calls) call.onProgress?.(step * 10_000);
    expect(setState).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(150);
    expect(setState).toHaveBeenCalledTimes(1);
    const state = uploadStore.getState();
    expect(calls.map((c) => c.id)).toEqual(['b2-0', 'b2-0', 'b2-1', 'b2-1', 'b2-2', 'b2-2']);
    expect(state.files['b2-0']?.bytesDone).toBe(2 * 500_000);
    // The fourth file waits for a request slot.
    expect(state.files['b2-3']?.bytesDone).toBe(0);
    expect(files.reduce((sum, f) => sum + (state.items[`b2/${f.relativePath}`]?.bytesDone ?? 0), 0)).toBe(6 * 500_000);
    setState.mockRestore();

    // The connection drops under chunk 2 of b2-0: its half-sent bytes no longer count.
    calls[1]?.reject(new TypeError('network'));
    await vi.advanceTimersByTimeAsync(150);
    expect(uploadStore.getState().files['b2-0']?.bytesDone).toBe(500_000);
  });
});

describe('retries', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    calls.length = 0;
    health.up = false;
  });
  afterEach(() => vi.useRealTimers());

  const pick = (batch: string, size: number, chunkTotal: number) => {
    const id = `${batch}-0`;
    addUploadItems([{ key: `${batch}/a.jpg`, batchId: batch, name: 'a.jpg', isFolder: false, filePath: `upload/${batch}/a.jpg`, files: [{ id, relativePath: 'a.jpg', size, chunkTotal }] }]);
    const settled: Array<{ id: string; ok: boolean; error?: string }> = [];
    const uploader = createUploader(page, (sid, outcome) => settled.push(outcome.ok ? { id: sid, ok: true } : { id: sid, ok: false, error: outcome.error }));
    uploader.add([{ id, file: new Blob([new Uint8Array(size)]), relativePath: 'a.jpg', batchId: batch, fileNum: 1, fileIndex: 0, itemIndex: 0 }]);
    return { id, settled, uploader };
  };

  it('sends a chunk again after a dropped connection or a 5xx, after a growing pause, and completes the file', async () => {
    const { id, settled } = pick('r1', 1000, 1);
    await settle();
    // Pauses of earlier tests' files never end (their timers went with their test): counted from here.
    const pausing = () => uploadStore.getState().retryPauses - before;
    const before = uploadStore.getState().retryPauses;
    calls[0]?.reject(new TypeError('network'));
    await settle();
    // The first pause is 3 s, the next 9 s (with 27 s they outlast a shop's server restarting): nothing is sent before
    // each ends, and the page says the connection is being retried meanwhile.
    expect(pausing()).toBe(1);
    await vi.advanceTimersByTimeAsync(2999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(pausing()).toBe(0);
    calls[1]?.reject(new ApiError(503, '服务暂不可用', undefined, null));
    await settle();
    expect(pausing()).toBe(1);
    await vi.advanceTimersByTimeAsync(8999);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    calls[2]?.resolve(done('upload/r1/a.jpg'));
    await vi.advanceTimersByTimeAsync(150);
    expect(pausing()).toBe(0);
    expect(uploadStore.getState().files[id]).toMatchObject({ status: 'done', bytesDone: 1000 });
    expect(settled).toEqual([{ id, ok: true }]);
  });

  it('retries at once when the server answers again (asked every 2 s during a pause), not at the pause\'s end', async () => {
    const { id } = pick('r5', 1000, 1);
    await settle();
    calls.at(-1)?.reject(new TypeError('network'));
    await vi.advanceTimersByTimeAsync(3000);
    // The first retry meets the server still down: the next pause is 9 s.
    const second = calls.at(-1);
    expect(second?.id).toBe(id);
    second?.reject(new TypeError('network'));
    await vi.advanceTimersByTimeAsync(2000);
    const tries = () => calls.filter((c) => c.id === id).length;
    expect(tries()).toBe(2);
    // The server is back: at the next ask the chunk goes, 4 s into its 9 s pause.
    health.up = true;
    await vi.advanceTimersByTimeAsync(2000);
    expect(tries()).toBe(3);
    calls.at(-1)?.resolve(done('upload/r5/a.jpg'));
    await vi.advanceTimersByTimeAsync(150);
    expect(uploadStore.getState().files[id]).toMatchObject({ status: 'done' });
  });

  it('waits the whole pause after a 503 though the server answers (a busy server is not pressed)', async () => {
    health.up = true;
    const { id } = pick('r6', 1000, 1);
    await settle();
    calls.at(-1)?.reject(new ApiError(503, '服务暂不可用', undefined, null));
    await vi.advanceTimersByTimeAsync(2999);
    expect(calls.filter((c) => c.id === id)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.filter((c) => c.id === id)).toHaveLength(2);
    calls.at(-1)?.resolve(done('upload/r6/a.jpg'));
    await vi.advanceTimersByTimeAsync(150);
  });

  it('asks which chunks the server holds when it acknowledged them all but never confirmed the file (it lost a record), and sends those it lacks', async () => {
    const size = 2_048_000 + 10;
    const { id, settled } = pick('r4', size, 2);
    await settle();
    expect(calls.map((c) => c.chunkIndex)).toEqual([1, 2]);
    for (const c of calls) c.resolve({ state: 200, message: { status: 200 } });
    await settle();
    // Both acknowledged, no 300: the last chunk once more, answered 200 again (the server's database restarted and lost chunk 1's record).
    expect(calls.map((c) => c.chunkIndex)).toEqual([1, 2, 2]);
    held.answer = [{ status: 'receiving', chunks: [2] }];
    calls[2]?.resolve({ state: 200, message: { status: 200 } });
    await settle();
    expect(held.asked).toEqual([{ folderId: 'r4', filePath: 'a.jpg', size, chunkTotal: 2 }]);
    expect(calls.map((c) => c.chunkIndex)).toEqual([1, 2, 2, 1]);
    calls[3]?.resolve(done('upload/r4/a.jpg'));
    await vi.advanceTimersByTimeAsync(150);
    expect(uploadStore.getState().files[id]).toMatchObject({ status: 'done', bytesDone: size });
    expect(settled).toEqual([{ id, ok: true }]);
  });

  it('fails the file at once with the server\'s reason when a chunk is refused (4xx): no retry', async () => {
    const { id, settled } = pick('r2', 1000, 1);
    await settle();
    calls[0]?.reject(new ApiError(400, '只能上传.zip,.pdf,.png,.jpg', undefined, null));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(1);
    expect(uploadStore.getState().files[id]).toMatchObject({ status: 'failed', error: '只能上传.zip,.pdf,.png,.jpg' });
    expect(settled).toEqual([{ id, ok: false, error: '只能上传.zip,.pdf,.png,.jpg' }]);
  });

  it('on a 401 (the login ran out mid-batch) sends no more files, fails them as retryable with what to do, and 重试 after the login sends them', async () => {
    const ids = Array.from({ length: 6 }, (_, i) => `r4-${i}`);
    addUploadItems([{ key: 'r4/相册', batchId: 'r4', name: '相册', isFolder: true, filePath: 'upload/r4/相册',
      files: ids.map((id, i) => ({ id, relativePath: `相册/${i}.jpg`, size: 1000, chunkTotal: 1 })) }]);
    const uploader = createUploader(page, () => {});
    uploader.add(ids.map((id, i) => ({ id, file: new Blob([new Uint8Array(1000)]), relativePath: `相册/${i}.jpg`, batchId: 'r4', fileNum: 6, fileIndex: i, itemIndex: 0 })));
    await settle();
    expect(calls).toHaveLength(4);
    const unauthorized = () => new ApiError(401, '请先登录', undefined, null);
    for (const call of calls.slice()) call.reject(unauthorized());
    await vi.advanceTimersByTimeAsync(10_000);
    // The two files not yet started were not sent to be refused too (through a proxy each was a whole chunk's upload).
    expect(calls).toHaveLength(4);
    for (const id of ids) expect(uploadStore.getState().files[id]).toMatchObject({ status: 'failed', error: MSG.uploadLoginEnded, refused: false });

    uploader.retry(ids);
    await settle();
    expect(calls.slice(4).map((c) => c.id)).toHaveLength(4);
    for (let i = 4; i < 10; i++) {
      calls[i]?.resolve(done(`upload/r4/相册/${i}.jpg`));
      await settle();
    }
    await vi.advanceTimersByTimeAsync(150);
    for (const id of ids) expect(uploadStore.getState().files[id]?.status).toBe('done');
  });

  it('gives up after LIMITS.chunkRetries retries with 上传失败，请重试！, and `retry` sends only the chunks not yet acknowledged', async () => {
    const size = 2 * 2_048_000 + 10;
    const { id, settled, uploader } = pick('r3', size, 3);
    await settle();
    // Chunks 1 and 2 go out (two at a time for a file); chunk 1 is taken, chunk 2 never gets through.
    expect(calls.map((c) => c.chunkIndex)).toEqual([1, 2]);
    calls[0]?.resolve({ state: 200, message: { status: 200 } });
    await settle();
    expect(calls.map((c) => c.chunkIndex)).toEqual([1, 2, 3]);
    calls[2]?.resolve({ state: 200, message: { status: 200 } });
    const tries = () => calls.filter((c) => c.chunkIndex === 2);
    for (let attempt = 0; attempt <= LIMITS.chunkRetries; attempt++) {
      expect(tries()).toHaveLength(attempt + 1);
      tries().at(-1)?.reject(new TypeError('network'));
      await vi.advanceTimersByTimeAsync(60_000);
    }
    // The first try and LIMITS.chunkRetries more.
    expect(tries()).toHaveLength(1 + LIMITS.chunkRetries);
    expect(uploadStore.getState().files[id]).toMatchObject({ status: 'failed', error: MSG.uploadFailed });
    expect(settled).toEqual([{ id, ok: false, error: MSG.uploadFailed }]);

    uploader.retry([id]);
    await settle();
    expect(calls.at(-1)?.chunkIndex).toBe(2);
    calls.at(-1)?.resolve(done('upload/r3/a.jpg'));
    await vi.advanceTimersByTimeAsync(150);
    expect(uploadStore.getState().files[id]).toMatchObject({ status: 'done', bytesDone: size });
    // One more request, for chunk 2 only.
    expect(calls).toHaveLength(2 + LIMITS.chunkRetries + 2);
  });
});
