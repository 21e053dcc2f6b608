/**
 * Which pages of a PDF went to which component, for 文件详情: `第1–2、19–20页 → 封面；第3–18页 → 内页`.
 * Pure functions over the check's rows (each PDF row carries its 1-based `page`).
 */
import type { FileCheckRow } from '@portal/contract/api';
import { MSG } from '@portal/contract/messages';

/** 1,2,3,7,9,10 → 1–3、7、9–10: consecutive pages as a range with an en dash, ranges joined with 、. */
export function compressPages(pages: readonly number[]): string {
  const sorted = [...new Set(pages)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] as number) + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return parts.join('、');
}

type PageRow = Pick<FileCheckRow, 'itemPath' | 'filename' | 'page' | 'component'>;

/**
 * One line per PDF of the work: its pages by component, components in the order of their first
 * page. A page no component took shows as 未定义. The file's name leads the line when the work holds
 * more than one PDF. Images (no page) are left out.
 */
export function pageAssignmentLines(rows: readonly PageRow[]): string[] {
  const byFile = new Map<string, { filename: string; byComponent: Map<string, number[]> }>();
  for (const row of rows) {
    if (row.page == null) continue;
    const file = byFile.get(row.itemPath) ?? { filename: row.filename, byComponent: new Map<string, number[]>() };
    byFile.set(row.itemPath, file);
    const name = row.component?.componentName ?? MSG.undefinedStandard;
    const pages = file.byComponent.get(name) ?? [];
    pages.push(row.page);
    file.byComponent.set(name, pages);
  }
  return [...byFile.values()].map(({ filename, byComponent }) => {
    const parts = [...byComponent]
      .sort(([, a], [, b]) => Math.min(...a) - Math.min(...b))
      .map(([name, pages]) => `第${compressPages(pages)}页 → ${name}`)
      .join('；');
    return byFile.size > 1 ? `${filename}：${parts}` : parts;
  });
}
