/**
 * The public entry of features/upload: Picking and uploading files, parsing them into works, and the
 * check entries of the upload list. Other features and app/ import only this.
 */
export { deleteStoredFile } from './api/delete-file.ts';
export { addCheckEntries, checkEntriesStore, onCheckEntriesRemoved, removeCheckEntries, selectHasProblems, updateCheckEntry, useCheckEntries } from './check-entries.ts';
export type { CheckEntry } from './check-entries.ts';
export { UploadArea } from './components/UploadArea.tsx';
export { parseItem } from './parse-item.ts';
export { clearUnsupportedNotices, removeUploadItems, selectIsUploading, uploadStore } from './store.ts';
export { createUploader } from './uploader.ts';
