import { describe, expect, it } from 'vitest';
import { createUploads, failedFilesOf, selectIsUploading } from './uploads.ts';

const { addUploadItems, patchUploadFile, removeUploadItems, setUploadBytes, uploadStore } = createUploads();

const state = () => uploadStore.getState();

describe('the upload store keeps its sums in step', () => {
  it('sums files and bytes per item and overall as files are sent, fail and leave', () => {
    addUploadItems([
      { key: 'b/Book1', batchId: 'b', name: 'Book1', isFolder: true, filePath: 'upload/b/Book1', files: [
        { id: 'f1', relativePath: 'Book1/p1.jpg', size: 100, chunkTotal: 1 },
        { id: 'f2', relativePath: 'Book1/p2.jpg', size: 300, chunkTotal: 1 },
      ] },
      { key: 'b/one.pdf', batchId: 'b', name: 'one.pdf', isFolder: false, filePath: 'upload/b/one.pdf', files: [{ id: 'f3', relativePath: 'one.pdf', size: 50, chunkTotal: 1 }] },
    ]);
    expect(state().overall).toEqual({ filesTotal: 3, filesDone: 0, filesFailed: 0, bytesTotal: 450, bytesDone: 0 });
    expect(selectIsUploading(state())).toBe(true);

    patchUploadFile('f1', { status: 'uploading' });
    patchUploadFile('f2', { status: 'uploading' });
    expect(state().active).toEqual(['f1', 'f2']);
    setUploadBytes(new Map([['f1', 60], ['f2', 100], ['f3', 50]]));
    // f3 is not being sent: it takes no bytes.
    expect(state().items['b/Book1']?.bytesDone).toBe(160);
    expect(state().overall.bytesDone).toBe(160);

    patchUploadFile('f1', { status: 'done', bytesDone: 100 });
    patchUploadFile('f2', { status: 'failed', error: '上传失败，请重试！', bytesDone: 0 });
    expect(state().active).toEqual([]);
    expect(state().items['b/Book1']).toMatchObject({ filesDone: 1, filesFailed: 1, bytesDone: 100 });
    expect(failedFilesOf(state(), 'b/Book1').map((f) => f.id)).toEqual(['f2']);
    // f3 still waits.
    expect(selectIsUploading(state())).toBe(true);

    removeUploadItems(['b/one.pdf']);
    expect(state().overall).toEqual({ filesTotal: 2, filesDone: 1, filesFailed: 1, bytesTotal: 400, bytesDone: 100 });
    expect(selectIsUploading(state())).toBe(false);
    removeUploadItems(['b/Book1']);
    expect(state().overall).toEqual({ filesTotal: 0, filesDone: 0, filesFailed: 0, bytesTotal: 0, bytesDone: 0 });
    expect(state().files).toEqual({});
  });

  it('keeps a folder parsed (its entry gone) in 正在上传 n/N while the pick\'s other folders are still sent, then lets it go', () => {
    const { addUploadItems, patchUploadFile, removeUploadItems, uploadStore } = createUploads();
    const folder = (name: string, ids: string[]) =>
      ({ key: `p/${name}`, batchId: 'p', name, isFolder: true, filePath: `upload/p/${name}`, files: ids.map((id) => ({ id, relativePath: `${name}/${id}.jpg`, size: 10, chunkTotal: 1 })) });
    addUploadItems([folder('作品001', ['a1', 'a2']), folder('作品002', ['b1', 'b2'])]);
    for (const id of ['a1', 'a2']) patchUploadFile(id, { status: 'done', bytesDone: 10 });
    // 作品001 is parsed and its entry leaves the list; 作品002 is still being sent.
    removeUploadItems(['p/作品001']);
    expect(uploadStore.getState().overall).toEqual({ filesTotal: 4, filesDone: 2, filesFailed: 0, bytesTotal: 40, bytesDone: 20 });
    expect(selectIsUploading(uploadStore.getState())).toBe(true);
    patchUploadFile('b1', { status: 'done', bytesDone: 10 });
    expect(uploadStore.getState().overall).toMatchObject({ filesTotal: 4, filesDone: 3 });
    // The last file sent: the line reads 4/4 until it hides, never 2/2.
    patchUploadFile('b2', { status: 'done', bytesDone: 10 });
    expect(uploadStore.getState().overall).toEqual({ filesTotal: 4, filesDone: 4, filesFailed: 0, bytesTotal: 40, bytesDone: 40 });
    expect(selectIsUploading(uploadStore.getState())).toBe(false);
    removeUploadItems(['p/作品002']);
    expect(uploadStore.getState().overall).toMatchObject({ filesTotal: 2, filesDone: 2 });
    // The next pick starts a round of its own.
    addUploadItems([folder('作品003', ['c1'])]);
    expect(uploadStore.getState().overall).toEqual({ filesTotal: 1, filesDone: 0, filesFailed: 0, bytesTotal: 10, bytesDone: 0 });
  });

  it('drops a folder the customer deletes mid-upload from the sums at once', () => {
    const { addUploadItems, patchUploadFile, removeUploadItems, uploadStore } = createUploads();
    addUploadItems([
      { key: 'q/甲', batchId: 'q', name: '甲', isFolder: true, filePath: 'upload/q/甲', files: [{ id: 'x1', relativePath: '甲/1.jpg', size: 10, chunkTotal: 1 }, { id: 'x2', relativePath: '甲/2.jpg', size: 10, chunkTotal: 1 }] },
      { key: 'q/乙', batchId: 'q', name: '乙', isFolder: true, filePath: 'upload/q/乙', files: [{ id: 'y1', relativePath: '乙/1.jpg', size: 10, chunkTotal: 1 }] },
    ]);
    patchUploadFile('x1', { status: 'done', bytesDone: 10 });
    removeUploadItems(['q/甲']);
    expect(uploadStore.getState().overall).toEqual({ filesTotal: 1, filesDone: 0, filesFailed: 0, bytesTotal: 10, bytesDone: 0 });
  });

  it('counts in 正在上传 n/N only the files of this round: a failed file left in the list from an earlier pick is not, until it is sent again (LAN walk, 2026-11-30: 10/34 个文件，2 个失败 for 30 clean files)', () => {
    const { addUploadItems, patchUploadFile, removeUploadItems, uploadStore } = createUploads();
    const single = (name: string, id: string) => ({ key: `r/${name}`, batchId: 'r', name, isFolder: false, filePath: `upload/r/${name}`, files: [{ id, relativePath: name, size: 10, chunkTotal: 1 }] });
    addUploadItems([single('坏.jpg', 'bad'), single('好.jpg', 'good')]);
    patchUploadFile('bad', { status: 'failed', error: '文件内容与扩展名不符', refused: true });
    patchUploadFile('good', { status: 'done', bytesDone: 10 });
    expect(uploadStore.getState().overall).toMatchObject({ filesTotal: 2, filesDone: 1, filesFailed: 1 });
    // The next pick: its own count, without the failed file still listed.
    addUploadItems([single('新.jpg', 'new')]);
    expect(uploadStore.getState().overall).toEqual({ filesTotal: 1, filesDone: 0, filesFailed: 0, bytesTotal: 10, bytesDone: 0 });
    expect(uploadStore.getState().items['r/坏.jpg']).toMatchObject({ filesTotal: 1, filesFailed: 1, inRound: false });
    // Sent again while the new file goes: it joins the round.
    patchUploadFile('bad', { status: 'queued', error: undefined, refused: undefined });
    expect(uploadStore.getState().overall).toEqual({ filesTotal: 2, filesDone: 0, filesFailed: 0, bytesTotal: 20, bytesDone: 0 });
    patchUploadFile('new', { status: 'done', bytesDone: 10 });
    patchUploadFile('bad', { status: 'done', bytesDone: 10 });
    expect(uploadStore.getState().overall).toEqual({ filesTotal: 2, filesDone: 2, filesFailed: 0, bytesTotal: 20, bytesDone: 20 });
    expect(selectIsUploading(uploadStore.getState())).toBe(false);
    // An earlier round's item leaves without touching this round's sums.
    removeUploadItems(['r/好.jpg']);
    expect(uploadStore.getState().overall).toMatchObject({ filesTotal: 2, filesDone: 2 });
    // A retry when nothing else is sent is a round of its own: 正在上传 0/1.
    patchUploadFile('new', { status: 'failed', error: '上传失败，请重试！', bytesDone: 0 });
    patchUploadFile('new', { status: 'queued', error: undefined });
    expect(uploadStore.getState().overall).toEqual({ filesTotal: 1, filesDone: 0, filesFailed: 0, bytesTotal: 10, bytesDone: 0 });
  });
});
