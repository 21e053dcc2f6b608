/**
 * The uploader's progress accounting, with the HTTP call replaced at its boundary (sendChunk): the
 * test plays the browser's upload progress events and the server's answers, and reads the store.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChunkAnswer } from '@portal/contract/api';

type Call = { id: string; chunkIndex: number; onProgress?: (bytes: number) => void; resolve: (a: ChunkAnswer) => void; reject: (e: unknown) => void };
const calls: Call[] = [];

vi.mock('./api/update-file.ts', () => ({
  sendChunk: (fields: { identifier: string; chunkIndex: number }, _chunk: Blob, _name: string, _signal: AbortSignal, onProgress?: (bytes: number) => void) =>
    new Promise<ChunkAnswer>((resolve, reject) => calls.push({ id: fields.identifier, chunkIndex: fields.chunkIndex, onProgress, resolve, reject })),
}));

const { createUploader } = await import('./uploader.ts');
const { addUploadItems, uploadStore } = await import('./store.ts');

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
    const uploader = createUploader((id) => settled.push(id));
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
    const uploader = createUploader(() => undefined);
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
