/**
 * The public entry of features/draft: the batch kept on the server as the login's open draft
 * (issue #21 item 3): restored when the batch page opens, saved as it changes, discarded by 重置.
 * Other features and app/ import only this.
 */
import type { Batch } from '../batch/index.ts';
import { draftSyncOf } from './draft-sync.ts';

export type { DraftStatus } from './draft-sync.ts';
export { useServerDraft } from './hooks/useServerDraft.ts';

/** The batch is ordered: the server closed its draft with the order; the page saves no more into it. */
export function orderedServerDraft(batch: Batch): void {
  draftSyncOf(batch).ordered();
}

/** 重置: closes the open draft on the server (after resetBatch emptied the page). */
export function discardServerDraft(batch: Batch): Promise<void> {
  return draftSyncOf(batch).discard();
}
