/** The part of a work the footer totals need. */
export interface TotalsInput {
  quantity: number;
  pageCount?: number | null;
  /** The work's files; a work without the list counts as one file. */
  files?: readonly unknown[];
}

export interface Totals {
  /** Σ quantity × page count: the pages the shop will print. */
  totalPages: number;
  /** Σ files of every work: what the customer uploaded and the shop receives. */
  fileCount: number;
  /** Σ quantity. */
  totalCopies: number;
}

/** ../shared/spec/product-spec.md §2: total pages = sum of (quantity × page count); file count; sum of copies. */
export function computeTotals(works: readonly TotalsInput[]): Totals {
  let totalPages = 0;
  let totalCopies = 0;
  let fileCount = 0;
  for (const work of works) {
    totalPages += work.quantity * (work.pageCount ?? 0);
    totalCopies += work.quantity;
    fileCount += work.files?.length ?? 1;
  }
  return { totalPages, fileCount, totalCopies };
}
