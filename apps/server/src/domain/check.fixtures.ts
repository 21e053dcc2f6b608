/** The check's inputs as its tests write them (check.test.ts, triage.test.ts). */
import type { CheckComponent, CheckItem, PageRule } from './check.ts';

export const comp = (o: Partial<CheckComponent> & { id: number; name: string; width: number; height: number }): CheckComponent => ({
  uuid: `u${o.id}`, error: 1, errorType: 'mm', autoOrientationDetection: false, resolutionThreshold: 0, resolutionLimit: null, ...o,
});
/** An image of exactly w×h mm at the dpi, as the check measures it. */
export const img = (name: string, w: number, h: number, dpi = 300, extra: Partial<CheckItem> = {}): CheckItem => ({
  type: 'image', filePath: `upload/f/${name}`, fileName: name, folderComponent: null,
  widthPx: Math.round((w / 25.4) * dpi), heightPx: Math.round((h / 25.4) * dpi), dpi, dpiStated: true, ...extra,
} as CheckItem);
/** Page n of upload/f/a.pdf, w×h mm. */
export const pdfPage = (n: number, w: number, h: number): CheckItem => ({ type: 'pdf', filePath: 'upload/f/a.pdf', fileName: 'a.pdf', folderComponent: null, page: n, widthMm: w, heightMm: h });
export const noPages: PageRule & { check: boolean } = { base: 1, min: null, max: null, check: true };
