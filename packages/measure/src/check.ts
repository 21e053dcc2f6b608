import { MSG } from '@portal/contract/messages';
import { fileLabels, orientationFit, pxToMm, toleranceText, type Tolerance } from '@portal/contract/rules';

/**
 * The file check of ../shared/spec/decisions.md §5, as a pure function over measured files (the server's check and the
 * browser's provisional 预检 verdict both run it): which component each file
 * belongs to, whether its size fits, its resolution, and the work's page count.
 */

export type CheckComponent = Tolerance & {
  id: number;
  uuid: string;
  name: string;
  width: number;
  height: number;
  autoOrientationDetection: boolean;
  resolutionThreshold: number;
  resolutionLimit: number | null;
  /** Pages the catalogue gives the component (its papers' page counts); null when it states none. */
  pages?: PageSpec | null;
};

/** A component's page count as the catalogue states it: min = max is a fixed count (a 4-page cover). */
export type PageSpec = { min: number | null; max: number | null };

export type CheckItem = {
  filePath: string;
  fileName: string;
  /** The component named by the file's subfolder, if any. */
  folderComponent: string | null;
  /** Set for a broken file: it fails with this reason. */
  broken?: string;
} & (
  | { type: 'image'; widthPx: number; heightPx: number; dpi: number; dpiStated: boolean }
  | { type: 'pdf'; page: number; widthMm: number; heightMm: number }
);

export type PageRule = { base: number; min: number | null; max: number | null };

export type FileCheckRow = {
  filename: string;
  itemPath: string;
  type: 'image' | 'pdf';
  page: number | null;
  /** Actual size in mm, after EXIF orientation or /Rotate. */
  width: number;
  height: number;
  component: {
    componentId: number; componentName: string; width: number; height: number;
    error: number; errorType: 'mm' | 'percent'; errorText: string; autoOrientationDetection: boolean;
  } | null;
  /** The file's own dpi (images; null for PDF pages). */
  resolutionDetect: number | null;
  dpiStated: boolean | null;
  resolutionThreshold: number;
  resolutionLimit: number | null;
  resolutionWarning: boolean;
  /** Pixels ÷ the component's size in inches: the dpi the print really gets. */
  effectiveDpi: number | null;
  pass: boolean;
  reason: string | null;
};

export type CheckOutcome = {
  pass: boolean;
  rows: FileCheckRow[];
  pageCount: number;
  addPageNum: number;
  pageCountWarning: boolean;
  resolutionWarning: boolean;
  /** m², rounded to 6 decimals. */
  fileArea: number;
  components: Array<{ componentId: number; componentName: string; width: number; height: number; count: number }>;
  messages: string[];
};

const r1 = (n: number) => Math.round(n * 10) / 10;

function measure(item: CheckItem) {
  if (item.type === 'pdf') return { width: item.widthMm, height: item.heightMm };
  return { width: pxToMm(item.widthPx, item.dpi), height: pxToMm(item.heightPx, item.dpi) };
}

/** The subfolder's component; else the first that the size fits; else the only one; else none. */
export function assignComponent(item: CheckItem, size: { width: number; height: number }, components: CheckComponent[]) {
  if (item.folderComponent) {
    const named = components.find((c) => c.name === item.folderComponent);
    if (named) return named;
  }
  const fitting = components.find((c) => orientationFit(size, c, c) !== null);
  if (fitting) return fitting;
  return components.length === 1 ? components[0]! : null;
}

export type PageSplit = { ok: true; components: string[] } | { ok: false; reason: string };

const fixedCount = (p: PageSpec | null | undefined) => (p && p.min !== null && p.min === p.max ? p.min : null);

/**
 * The pages of one PDF given to a product's components by the catalogue's page counts (../shared/spec/decisions.md §5):
 * - a component whose count is fixed takes that many; the one component whose count is not fixed
 *   takes the rest (at least one page; the work's page limits judge the total, as for any work);
 * - when no component states a count (a card's 正面 and 背面) each takes one page, in order; a
 *   1-page PDF then gives 正面 its page and 背面 none;
 * - the first component, when its count is fixed and even and other components follow, wraps around
 *   them: a 4-page cover takes pages 1-2 and the last two (outside and inside covers);
 * - other components take their pages in catalogue order.
 * It cannot be split (the answer says why) when the fixed counts need more pages than the PDF has,
 * when every count is fixed and they add up to another number, or when several components state
 * counts that are not fixed (which one takes the rest?).
 * `components` answers the component of each page: [0] is page 1.
 */
export function splitPages(total: number, components: ReadonlyArray<{ name: string; pages?: PageSpec | null }>): PageSplit {
  const fixed = components.map((c) => fixedCount(c.pages));
  const open = components.filter((_, i) => fixed[i] === null);
  const stated = open.filter((c) => c.pages && (c.pages.min !== null || c.pages.max !== null));
  const fixedSum = fixed.reduce<number>((s, n) => s + (n ?? 0), 0);
  const first = fixed[0] ?? null;
  const wraps = first !== null && first >= 2 && first % 2 === 0 && components.length > 1;
  const need = (i: number) => {
    const c = components[i]!;
    const n = fixed[i] ?? null;
    if (n === null) return open.length === 1 ? `${c.name}至少1页` : `${c.name}1页`;
    return i === 0 && wraps ? `${c.name}${n}页（前${n / 2}页和最后${n / 2}页）` : `${c.name}${n}页`;
  };
  const needs = components.map((_, i) => need(i)).join('，');
  const hint = '请检查文件页数，或按部件分文件夹上传（文件夹名为部件名）';

  let counts: number[];
  if (open.length > 1 && stated.length > 0) {
    return { ok: false, reason: `PDF共${total}页，${open.map((c) => c.name).join('、')}的页数都不固定，无法确定每个部件的页面，请按部件分文件夹上传（文件夹名为部件名）` };
  } else if (open.length === 1) {
    const rest = total - fixedSum;
    if (rest < 1) return { ok: false, reason: `PDF共${total}页，不够分给各部件（${needs}，共需至少${fixedSum + 1}页），${hint}` };
    counts = fixed.map((n) => n ?? rest);
  } else {
    counts = fixed.map((n) => n ?? 1);
    const sum = counts.reduce((s, n) => s + n, 0);
    if (total > sum) return { ok: false, reason: `PDF共${total}页，多于各部件所需的${sum}页（${needs}），${hint}` };
    // Fewer pages than the components could take: only one-page components may go without.
    if (total < sum && (fixedSum > 0 || total < 1)) return { ok: false, reason: `PDF共${total}页，不够分给各部件（${needs}，共需${sum}页），${hint}` };
  }

  const out = Array.from({ length: total }, () => '');
  let from = 0;
  let to = total;
  counts.forEach((n, i) => {
    const name = components[i]!.name;
    if (i === 0 && wraps && total > n) {
      for (let k = 0; k < n / 2; k++) out[from++] = name;
      for (let k = 0; k < n / 2; k++) out[--to] = name;
      return;
    }
    for (let k = 0; k < n && from < to; k++) out[from++] = name;
  });
  return { ok: true, components: out };
}

/**
 * A work that is one PDF (alone, or alone in a folder without component subfolders) for a product
 * of several components: its pages go to the components by splitPages.
 */
function splitSinglePdf(items: CheckItem[], components: CheckComponent[]): { items: CheckItem[]; failure: string | null } {
  const first = items[0];
  const single = first !== undefined && components.length > 1
    && items.every((i) => i.type === 'pdf' && i.filePath === first.filePath && !i.folderComponent && !i.broken);
  if (!single) return { items, failure: null };
  const split = splitPages(items.length, components);
  if (!split.ok) return { items, failure: split.reason };
  return { items: items.map((item, i) => ({ ...item, folderComponent: split.components[i] ?? null })), failure: null };
}

export function checkWork(measured: CheckItem[], components: CheckComponent[], pages: PageRule & { check: boolean }): CheckOutcome {
  const { items, failure: splitFailure } = splitSinglePdf(measured, components);
  const rows: FileCheckRow[] = items.map((item) => {
    const size = measure(item);
    const c = item.broken || splitFailure ? null : assignComponent(item, size, components);
    const reasons: string[] = [];
    let pass = true;
    let fit: 'as-is' | 'swapped' | null = null;
    if (splitFailure) {
      pass = false;
      reasons.push(splitFailure);
    } else if (item.broken) {
      pass = false;
      reasons.push(item.broken);
    } else if (!c) {
      pass = false;
      reasons.push(`没有与此文件尺寸匹配的部件（标准尺寸${MSG.undefinedStandard}）`);
    } else {
      fit = orientationFit(size, c, c);
      if (!fit) {
        pass = false;
        reasons.push(`尺寸不符：实际${r1(size.width)}×${r1(size.height)}mm，标准${c.width}×${c.height}mm（允许误差${toleranceText(c)}${c.autoOrientationDetection ? '，可横竖互换' : ''}）`);
      }
    }
    let resolutionWarning = false;
    let effectiveDpi: number | null = null;
    const threshold = c?.resolutionThreshold ?? 0;
    const limit = c?.resolutionLimit ?? null;
    if (item.type === 'image' && !item.broken) {
      if (!item.dpiStated) reasons.push('文件未记录分辨率，按72dpi计算');
      if (threshold > 0 && item.dpi < threshold) {
        resolutionWarning = true;
        reasons.push(`分辨率${r1(item.dpi)}dpi低于要求的${threshold}dpi`);
      }
      if (limit && item.dpi > limit) {
        resolutionWarning = true;
        reasons.push(`分辨率${r1(item.dpi)}dpi高于上限${limit}dpi`);
      }
      if (c) {
        const [w, h] = fit === 'swapped' ? [c.height, c.width] : [c.width, c.height];
        effectiveDpi = Math.round(Math.min(item.widthPx / (w / 25.4), item.heightPx / (h / 25.4)));
      }
    }
    return {
      filename: item.fileName,
      itemPath: item.filePath,
      type: item.type,
      page: item.type === 'pdf' ? item.page : null,
      width: r1(size.width),
      height: r1(size.height),
      component: c ? {
        componentId: c.id, componentName: c.name, width: c.width, height: c.height, error: c.error, errorType: c.errorType,
        errorText: toleranceText(c), autoOrientationDetection: c.autoOrientationDetection,
      } : null,
      resolutionDetect: item.type === 'image' ? r1(item.dpi) : null,
      dpiStated: item.type === 'image' ? item.dpiStated : null,
      resolutionThreshold: threshold,
      resolutionLimit: limit,
      resolutionWarning,
      effectiveDpi,
      pass,
      reason: reasons.length ? reasons.join('；') : null,
    };
  });

  const pageCount = items.length;
  const addPageNum = Math.max(0, pageCount - pages.base);
  const outOfRange = (pages.min !== null && pageCount < pages.min) || (pages.max !== null && pageCount > pages.max);
  const pageCountWarning = pages.check && outOfRange;
  // A PDF that cannot be split is one message, not one per page.
  // Files named alike in subfolders of the work are told apart by their path (fileLabels).
  const labels = fileLabels(rows.map((r) => r.itemPath));
  const labelOf = (r: FileCheckRow) => labels.get(r.itemPath) ?? r.filename;
  const messages = splitFailure
    ? [`${labelOf(rows[0]!)}：${splitFailure}`]
    : rows.filter((r) => !r.pass).map((r) => `${labelOf(r)}${r.page ? ` 第${r.page}页` : ''}：${r.reason}`);
  if (pageCountWarning) messages.unshift(`页数${pageCount}不符合要求（${pages.min ?? 1}-${pages.max ?? '不限'}页）`);

  const counts = new Map<number, { componentId: number; componentName: string; width: number; height: number; count: number }>();
  for (const r of rows) {
    if (!r.component) continue;
    const e = counts.get(r.component.componentId) ?? { componentId: r.component.componentId, componentName: r.component.componentName, width: r.component.width, height: r.component.height, count: 0 };
    e.count++;
    counts.set(r.component.componentId, e);
  }
  // Each component's own page count (a brochure's cover of 4): a work of one PDF is split by them above; a folder of
  // files gives each component the pages assigned to it, checked here (a 3-page cover passed: LAN walk, 2026-11-30).
  const componentMisses = pages.check && !splitFailure
    ? components.flatMap((c) => {
      const n = counts.get(c.id)?.count ?? 0;
      const spec = c.pages;
      if (!spec || ((spec.min === null || n >= spec.min) && (spec.max === null || n <= spec.max))) return [];
      const wanted = spec.min !== null && spec.min === spec.max ? `${spec.min}页` : `${spec.min ?? 1}-${spec.max ?? '不限'}页`;
      return [`${c.name}页数${n}不符合要求（${wanted}）`];
    })
    : [];
  messages.splice(pageCountWarning ? 1 : 0, 0, ...componentMisses);
  const area = rows.reduce((s, r) => s + (r.width * r.height) / 1e6, 0);
  return {
    pass: rows.every((r) => r.pass) && !pageCountWarning && componentMisses.length === 0,
    rows,
    pageCount,
    addPageNum,
    pageCountWarning: pageCountWarning || componentMisses.length > 0,
    resolutionWarning: rows.some((r) => r.resolutionWarning),
    fileArea: Math.round(area * 1e6) / 1e6,
    // In the catalogue's order (正面 before 背面), whatever order the files came in.
    components: components.flatMap((c) => counts.get(c.id) ?? []),
    messages,
  };
}
