/**
 * The public entry of features/batch: the state of one batch upload order (works, check entries,
 * uploads, preflight) with its named commands, made by BatchProvider. Other features and app/ import only this.
 */
export { createBatch, perBatch, type Batch } from './batch.ts';
export { BatchProvider, useBatch, useCheckEntries, usePreflight, useUploadState, useWorks } from './BatchProvider.tsx';
export { isPreflightKey, PREFLIGHT_PREFIX, preflightVerdict } from './preflight.ts';
export type { PreflightChoice, PreflightFile, PreflightItem, PreflightState, PreflightVerdict } from './preflight.ts';
export { isProblemStatus, removableIds, selectHasPendingEntries, selectHasProblems } from './check-entries.ts';
export type { CheckEntriesState, CheckEntry, CheckEntryPhase, CheckEntryRetry, NewCheckEntry } from './check-entries.ts';
export { failedFilesOf, selectIsUploading, selectItem, selectOverall, selectRetrying } from './uploads.ts';
export type { NewUploadItem, Sums, UnsupportedNotice, UploadFileState, UploadFileStatus, UploadItemState, UploadState } from './uploads.ts';
export { comparePlaces, rowByUuid, selectWorkByUuid, workRowOf } from './works.ts';
export type { RowPlace, WorkComponent, WorkProduct, WorkRow, WorksState } from './works.ts';
