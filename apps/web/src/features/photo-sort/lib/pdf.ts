/** ../shared/spec/product-spec.md §5: a work holding a PDF cannot be sorted (PDF文件不支持排序操作). */
export const isPdfWork = (work: { filePath: string; files: readonly { filePath: string }[] }): boolean =>
  /\.pdf$/i.test(work.filePath) || work.files.some((f) => /\.pdf$/i.test(f.filePath));
