import type { BulkFixUndoAnswer, FixedWork } from '@portal/contract/bulk-fix';
import type { Batch } from '../batch/index.ts';
import { checkFlowOf } from '../file-check/index.ts';
import { undoFixes } from './api/undo-fixes.ts';

/**
 * After fixes or their undo (the works were checked again on the server): the page's rows take the works'
 * files as they are now (a fixed picture, or the original again), so 预览, the draft and the order send what
 * will be printed; then the rows and entries take the check's answers.
 */
export async function takeFixedWorks(batch: Batch, works: readonly FixedWork[], customerHubId: number | undefined): Promise<void> {
  const after = new Map(works.map((w) => [w.uuid, w.files]));
  batch.updateWorks((row) => {
    const files = after.get(row.uuid);
    return files ? { files, pageCount: files.reduce((n, f) => n + f.pages, 0) } : null;
  });
  const uuids = works.map((w) => w.uuid);
  if (customerHubId !== undefined && uuids.length) await checkFlowOf(batch).recheckWorks(uuids, customerHubId);
}

/** Undoes fixes after the dialog was closed (文件详情's 撤销修复, 批量修复 on fixed rows), then as above. */
export async function undoAndTake(batch: Batch, fixIds: string[], customerHubId: number | undefined): Promise<BulkFixUndoAnswer['message']> {
  const answer = await undoFixes({ fixIds });
  await takeFixedWorks(batch, answer.works, customerHubId);
  return answer;
}
