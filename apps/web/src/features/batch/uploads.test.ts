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
});
