/**
 * The batch draft (../shared/spec/product-spec.md §2 route, §3 "Batch draft"; ../shared/spec/decisions.md §7): what 批量下单 hands to
 * /payment1, kept in localStorage under `batchUploadOrderDraft` so a reload of /payment1 keeps it
 * and 返回修改 can bring the rows back.
 *
 * Keep in mind:
 * - the idempotency key is made once with the draft and travels with it: every 提交订单 of this
 *   draft (a double click, a retry after a lost answer, a reload) sends the same key, so the server
 *   places the order once; a new 批量下单 makes a new draft and a new key;
 * - `orderLocations[i]` is the address of `fileList[i]` (Partial); `location` is the one address of a
 *   Unified order, with the number of copies;
 * - the batch page reads the draft when it opens and clears it; /payment1 clears it once the order is
 *   placed;
 * - a draft belongs to the hub that made it: another customer logging in on this browser does not
 *   see it (nor order it);
 * - the rows are stored without the file check's detailed answer: a row that may be ordered has no
 *   open check to show, and 2,000 answers would not fit the browser's storage.
 */
import type { OrderLocation } from '@portal/contract/api';
import type { DeliveryMethod } from '@portal/contract/enums';
import { randomUuid } from '../../lib/uuid.ts';
import type { WorkRow } from '../batch/index.ts';

export const DRAFT_KEY = 'batchUploadOrderDraft';

export interface BatchDraft {
  version: 1;
  customerHubId: number;
  idempotencyKey: string;
  savedAt: string;
  deliveryMethod: DeliveryMethod;
  location?: OrderLocation;
  fileList: WorkRow[];
  orderLocations: OrderLocation[];
}

type RowWithAddress = WorkRow & { orderLocations?: readonly OrderLocation[] | null; checkResult?: unknown };

function storedRow(row: RowWithAddress): WorkRow {
  const copy: Record<string, unknown> = { ...row };
  // The answer is large; what the price counts is all the restored row needs of it (加页数).
  const answer = row.checkResult as { priceBasis?: WorkRow['priceBasis'] } | null | undefined;
  if (answer?.priceBasis) copy.priceBasis = answer.priceBasis;
  delete copy.checkResult;
  return copy as unknown as WorkRow;
}

/**
 * A new draft of the rows. Partial: each row's first location with the row's quantity; Unified: the
 * given location (the hub's default address) with the total of copies.
 */
export function makeDraft(
  rows: readonly WorkRow[],
  options: { customerHubId: number; deliveryMethod: DeliveryMethod; location?: OrderLocation | null },
): BatchDraft {
  const partial = options.deliveryMethod === 'Partial';
  const copies = rows.reduce((sum, r) => sum + r.quantity, 0);
  const fileList: WorkRow[] = [];
  const orderLocations: OrderLocation[] = [];
  for (const row of rows as readonly RowWithAddress[]) {
    if (partial) {
      const located = row.orderLocations?.[0];
      const location: OrderLocation | undefined = located ? { ...located, quantity: row.quantity } : undefined;
      if (location) orderLocations.push(location);
      fileList.push(storedRow({ ...row, orderLocations: location ? [location] : [] }));
    } else {
      fileList.push(storedRow(row));
    }
  }
  return {
    version: 1,
    customerHubId: options.customerHubId,
    idempotencyKey: randomUuid(),
    savedAt: new Date().toISOString(),
    deliveryMethod: options.deliveryMethod,
    location: !partial && options.location ? { ...options.location, quantity: copies } : undefined,
    fileList,
    orderLocations,
  };
}

/** false when the browser refused to store it (storage full or disabled). */
export function saveDraft(draft: BatchDraft): boolean {
  try {
    localStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

function isDraft(value: unknown): value is BatchDraft {
  if (!value || typeof value !== 'object') return false;
  const d = value as Partial<BatchDraft>;
  return (
    typeof d.customerHubId === 'number' &&
    typeof d.idempotencyKey === 'string' &&
    (d.deliveryMethod === 'Unified' || d.deliveryMethod === 'Partial') &&
    Array.isArray(d.fileList) &&
    d.fileList.every((r) => r && typeof r === 'object' && typeof (r as WorkRow).uuid === 'string')
  );
}

/** The hub's saved draft, or null when there is none (or it is another hub's, or not one this app wrote). */
export function readDraft(customerHubId: number): BatchDraft | null {
  let text: string | null;
  try {
    text = localStorage.getItem(DRAFT_KEY);
  } catch {
    return null;
  }
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (!isDraft(value) || value.customerHubId !== customerHubId) return null;
    return { ...value, orderLocations: Array.isArray(value.orderLocations) ? value.orderLocations : [] };
  } catch {
    return null;
  }
}

export function clearDraft(): void {
  try {
    localStorage.removeItem(DRAFT_KEY);
  } catch {
    // nothing stored, nothing to clear
  }
}

/** The batch page opening: the hub's draft, read once and cleared. */
export function takeDraft(customerHubId: number): BatchDraft | null {
  const draft = readDraft(customerHubId);
  if (draft) clearDraft();
  return draft;
}
