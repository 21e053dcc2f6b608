import { MSG, orientationFit, pxToMm, toleranceText, type Tolerance } from '@portal/contract';

/**
 * The file check of decisions §5, as a pure function over measured files: which component each file
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
};

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

export function checkWork(items: CheckItem[], components: CheckComponent[], pages: PageRule & { check: boolean }): CheckOutcome {
  const rows: FileCheckRow[] = items.map((item) => {
    const size = measure(item);
    const c = item.broken ? null : assignComponent(item, size, components);
    const reasons: string[] = [];
    let pass = true;
    let fit: 'as-is' | 'swapped' | null = null;
    if (item.broken) {
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
  const messages = rows.filter((r) => !r.pass).map((r) => `${r.filename}${r.page ? ` 第${r.page}页` : ''}：${r.reason}`);
  if (pageCountWarning) messages.unshift(`页数${pageCount}不符合要求（${pages.min ?? 1}-${pages.max ?? '不限'}页）`);

  const counts = new Map<number, { componentId: number; componentName: string; width: number; height: number; count: number }>();
  for (const r of rows) {
    if (!r.component) continue;
    const e = counts.get(r.component.componentId) ?? { componentId: r.component.componentId, componentName: r.component.componentName, width: r.component.width, height: r.component.height, count: 0 };
    e.count++;
    counts.set(r.component.componentId, e);
  }
  const area = rows.reduce((s, r) => s + (r.width * r.height) / 1e6, 0);
  return {
    pass: rows.every((r) => r.pass) && !pageCountWarning,
    rows,
    pageCount,
    addPageNum,
    pageCountWarning,
    resolutionWarning: rows.some((r) => r.resolutionWarning),
    fileArea: Math.round(area * 1e6) / 1e6,
    components: [...counts.values()],
    messages,
  };
}
