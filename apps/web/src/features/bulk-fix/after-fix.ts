import type { FixedWork } from '@portal/contract/bulk-fix';
import type { Batch } from '../batch/index.ts';
import { checkFlowOf } from '../file-check/index.ts';

/** A fixed picture's stored path: fixes/<fix id>/<file name> (services/bulk-fix.ts on the server). */
const FIXED_PATH = /^fixes\/([0-9a-f-]{36})\//;

/** The fix a stored path is the result of, or null for a file as uploaded. */
export const fixIdOf = (filePath: string): string | null => FIXED_PATH.exec(filePath)?.[1] ?? null;

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
