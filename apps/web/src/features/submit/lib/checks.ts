/**
 * The checks 批量下单 runs before anything is sent (../shared/spec/product-spec.md §5 "Batch order submit, checked in
 * this order"), as a pure function of the page's state: the first failing check wins, and its
 * message is the spec's, word for word. The server checks again (../shared/spec/decisions.md §7); these only spare
 * the customer a round trip and name the work to fix.
 */
import type { OrderLocation } from '@portal/contract/api';
import type { WorkState } from '@portal/contract/enums';
import { MSG } from '@portal/contract/messages';
import { locationProblem } from '../../address/index.ts';

/** What the checks read of a row of the order table. */
export interface SubmitWork {
  articleName: string;
  quantity: number;
  pageCount?: number | null;
  propertyConfigId?: number | null;
  state: WorkState;
  orderLocations?: readonly OrderLocation[] | null;
}

/** What the checks read of the rest of the page. */
export interface SubmitContext {
  /**
   * Rule 1: an entry the customer must deal with (error, dpiAbnormal, failure). Entries still in
   * `start` are rule 2's: were they counted here, 文件上传中 could never be shown, since every
   * upload has its entry from the first byte.
   */
  hasProblemEntries: boolean;
  /** Rule 2: a file queued or being sent, or an entry still in `start` (uploading, parsing, checking). */
  inProgress: boolean;
  /** The hub's flag: every row carries its own address. */
  batchAddressParsing: boolean;
}

/**
 * Rule 6, "missing page count": the page count is what a passing check of the chosen SKU leaves on
 * the row (the file check clears it when the check is undone). The parse already counts pages, so a
 * row that never got a SKU, or whose check failed, has a page count and still fails this rule.
 */
export function isCheckedForOrder(work: SubmitWork): boolean {
  return (
    typeof work.pageCount === 'number' &&
    work.pageCount > 0 &&
    work.propertyConfigId != null &&
    (work.state === 'match' || work.state === 'dpiAbnormal')
  );
}

/** The message of the first check that fails, or null when the order may go on. */
export function submitProblem(works: readonly SubmitWork[], context: SubmitContext): string | null {
  if (context.hasProblemEntries) return MSG.pendingCheckEntries;
  if (context.inProgress) return MSG.uploading;
  if (works.length === 0) return MSG.noFiles;
  if (works.some((w) => !w.articleName.trim())) return MSG.emptyWorkName;
  if (works.some((w) => !(Number.isInteger(w.quantity) && w.quantity >= 1))) return MSG.quantityBelowOne;
  const unchecked = works.find((w) => !isCheckedForOrder(w));
  if (unchecked) return MSG.workCheckFailed(unchecked.articleName.trim());
  if (context.batchAddressParsing) {
    for (const w of works) {
      const problem = locationProblem(w.orderLocations?.[0], w.articleName.trim());
      if (problem) return problem;
    }
  }
  return null;
}
