/**
 * The public entry of features/submit: 批量下单: the checks before ordering, the draft, 重置. Other features
 * and app/ import only this.
 */
export { DuplicateDialog } from './components/DuplicateDialog.tsx';
export { clearDraft, readDraft } from './draft.ts';
export type { BatchDraft } from './draft.ts';
export { useBatchSubmit } from './hooks/useBatchSubmit.ts';
export { useRestoreDraft } from './hooks/useRestoreDraft.ts';
export { resetBatch } from './reset.ts';
