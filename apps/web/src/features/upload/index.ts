/**
 * The public entry of features/upload: Picking and uploading files, parsing them into works, and the
 * upload list. Other features and app/ import only this.
 */
export { deleteStoredFile } from './api/delete-file.ts';
export { UploadArea } from './components/UploadArea.tsx';
export { parseItem } from './parse-item.ts';
export { createUploader } from './uploader.ts';
export { uploadFlowOf, UNFINISHED_UPLOAD } from './upload-batch.ts';
export type { PickFilter, PickSplit, ResumePick, RestoredUploadItem, UploadContext } from './upload-batch.ts';
export type { PickedFile } from './lib/pick.ts';
