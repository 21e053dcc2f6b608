/**
 * The duplicate dialog's rules (../shared/spec/product-spec.md §4 "Duplicate dialog"): rows whose file name is sent
 * twice or is already in an order of the hub are listed and start unresolved; each must be set to
 * retain or delete. Rows not listed are retained. Confirming keeps the retained rows.
 */
import type { RepeatCheckRow } from '../api/repeat-check.ts';

export type DuplicateChoice = 'retain' | 'delete';

export interface DuplicateRow {
  uuid: string;
  /** The row's place in the order table, from 1: tells two rows of the same name apart. */
  position: number;
  articleName: string;
  fileName: string;
  duplicated: boolean;
  salesOrderNumber: string | null;
  /** The work's content (its files' bytes) is already in the order salesOrderNumber, whatever its name. */
  sameContent?: boolean;
  /** Unset until the customer chooses. */
  operatingResult?: DuplicateChoice;
}

/**
 * The rows to list, in table order. The answer names each file name sent (one answer row per name,
 * duplicates included); rows are matched to it by name.
 */
export function duplicateRowsOf(
  works: ReadonlyArray<{ uuid: string; articleName: string; fileName: string }>,
  answer: readonly RepeatCheckRow[],
): DuplicateRow[] {
  const byName = new Map<string, RepeatCheckRow>();
  const byContent = new Map<string, string>();
  for (const a of answer) {
    if (a.sameContent && a.workUuid) {
      if (a.salesOrderNumber) byContent.set(a.workUuid, a.salesOrderNumber);
      continue;
    }
    const seen = byName.get(a.fileName);
    byName.set(a.fileName, {
      fileName: a.fileName,
      duplicated: a.duplicated || (seen?.duplicated ?? false),
      salesOrderNumber: a.salesOrderNumber ?? seen?.salesOrderNumber ?? null,
    });
  }
  const out: DuplicateRow[] = [];
  works.forEach((w, i) => {
    const a = byName.get(w.fileName);
    const content = byContent.get(w.uuid);
    if ((a && (a.duplicated || a.salesOrderNumber)) || content) {
      out.push({
        uuid: w.uuid, position: i + 1, articleName: w.articleName, fileName: w.fileName, duplicated: a?.duplicated ?? false,
        // A name already ordered is the spec's 已下单 row; only a work whose name was not ordered is named by its content.
        salesOrderNumber: a?.salesOrderNumber ?? content ?? null, ...(content && !a?.salesOrderNumber ? { sameContent: true } : {}),
      });
    }
  });
  return out;
}

export const unresolvedCount = (rows: readonly DuplicateRow[]): number => rows.filter((r) => !r.operatingResult).length;

export const deletedUuids = (rows: readonly DuplicateRow[]): string[] => rows.filter((r) => r.operatingResult === 'delete').map((r) => r.uuid);

export function choose(rows: readonly DuplicateRow[], uuids: ReadonlySet<string> | 'all', choice: DuplicateChoice): DuplicateRow[] {
  return rows.map((r) => (uuids === 'all' || uuids.has(r.uuid) ? { ...r, operatingResult: choice } : r));
}
