/**
 * The file detail dialog's view of a check answer (../shared/spec/product-spec.md §2 文件详情, §4 "File rows in the
 * detail dialog"), and the changes a re-upload, a crop or a delete make to it. Pure functions.
 */
import type { CheckFileAnswer, FileCheckRow } from '@portal/contract/api';
import { MSG } from '@portal/contract/messages';
import { fileLabels, MM_PER_INCH, orientationFit, pxToMm } from '@portal/contract/rules';

type CheckMessage = CheckFileAnswer['message'];

export type FailedMessage = Extract<CheckMessage, { status: 'error' }>;

export type DetailModel =
  | {
      kind: 'rows';
      workUuid: string;
      fileName: string;
      /** 'error' once the check failed, or once a file was changed after it (the entry needs a recheck). */
      status: 'error' | 'success';
      rows: FileCheckRow[];
      pageCountWarning: boolean;
      messages: string[];
    }
  | { kind: 'plain'; text: string };

/** Reads whatever the entry or the row holds: a check answer's message, or a plain text. */
export function detailOf(message: unknown, fallbackName: string): DetailModel {
  if (typeof message === 'string') return { kind: 'plain', text: message };
  if (!message || typeof message !== 'object') return { kind: 'plain', text: MSG.checkFailedNetwork };
  const m = message as Partial<CheckMessage> & { message?: unknown; messages?: unknown };
  if ('status' in m && m.status === 'error' && m.message && typeof m.message === 'object') {
    const failed = m as FailedMessage;
    return {
      kind: 'rows',
      workUuid: failed.workUuid,
      fileName: failed.fileName || fallbackName,
      status: 'error',
      rows: failed.message.fileCheckResult,
      pageCountWarning: failed.message.pageCountWarning,
      messages: failed.messages.map((x) => x.message),
    };
  }
  if ('fileCheckResult' in m && Array.isArray(m.fileCheckResult)) {
    return {
      kind: 'rows',
      workUuid: String(m.workUuid ?? ''),
      fileName: fallbackName,
      status: 'success',
      rows: m.fileCheckResult,
      pageCountWarning: false,
      messages: [],
    };
  }
  const text = typeof m.message === 'string' ? m.message : MSG.checkFailedNetwork;
  return { kind: 'plain', text };
}

/** The model as a check message again (error-shaped), for the row and the entries to keep. */
/** What 文件详情 says of a work once one of its files was deleted, before the work is checked again. */
export const FILE_DELETED_RECHECK = '作品的文件已变化，请重新选择产品或重新校验';

/**
 * The detail after a file left the work: its row goes, and so do the red lines that spoke of it or of the
 * whole work (its page count); the rest stay, under a line asking for a new check (they stayed as they were, the
 * deleted file's too: LAN walk, 2026-11-30).
 */
export function withoutFile(model: Extract<DetailModel, { kind: 'rows' }>, itemPath: string): Extract<DetailModel, { kind: 'rows' }> {
  const labels = fileLabels(model.rows.map((r) => r.itemPath));
  const left = model.rows.filter((r) => r.itemPath !== itemPath);
  const names = left.map((r) => `${labels.get(r.itemPath) ?? r.filename}：`);
  const kept = model.messages.filter((m) => names.some((n) => m.startsWith(n)));
  return { ...model, status: 'error', rows: left, pageCountWarning: false, messages: [FILE_DELETED_RECHECK, ...kept] };
}

export function messageOf(model: Extract<DetailModel, { kind: 'rows' }>): FailedMessage {
  return {
    workUuid: model.workUuid,
    fileName: model.fileName,
    status: 'error',
    message: { fileCheckResult: model.rows, pageCountWarning: model.pageCountWarning, error: true },
    messages: model.messages.map((message) => ({ message })),
  };
}

/** Each component with its count, separated by semicolons; the number of files when no component is defined. */
export function quantitySummary(rows: readonly FileCheckRow[]): string {
  const counts = new Map<string, number>();
  let undefinedCount = 0;
  for (const row of rows) {
    if (row.component) counts.set(row.component.componentName, (counts.get(row.component.componentName) ?? 0) + 1);
    else undefinedCount++;
  }
  if (counts.size === 0) return `共${rows.length}个文件`;
  const parts = [...counts].map(([name, n]) => `${name}：${n}`);
  if (undefinedCount > 0) parts.push(`${MSG.undefinedStandard}：${undefinedCount}`);
  return parts.join('；');
}

/** Pass of a row by the shared print rules: the component's size within tolerance (either orientation when allowed). */
export function passOf(row: Pick<FileCheckRow, 'width' | 'height' | 'component' | 'reason'>): boolean {
  if (!row.component || row.width <= 0 || row.height <= 0) return false;
  return orientationFit(row, row.component, row.component) !== null;
}

/** Pixels of a row's image (its size in mm at its dpi), for the crop dialog. */
export function pixelsOf(row: Pick<FileCheckRow, 'width' | 'height' | 'resolutionDetect'>): { width: number; height: number; dpi: number } {
  const dpi = row.resolutionDetect ?? 0;
  if (dpi <= 0) return { width: 0, height: 0, dpi: 0 };
  return { width: Math.round((row.width / MM_PER_INCH) * dpi), height: Math.round((row.height / MM_PER_INCH) * dpi), dpi };
}

/** A row after its file was replaced (re-upload) or cropped: new size, dpi and preview; pass recomputed. */
export function withNewFile(
  row: FileCheckRow,
  next: { widthPx: number; heightPx: number; dpi: number; previewUrl: string; previewRelativeUrl?: string },
): FileCheckRow {
  const round = (mm: number) => Math.round(mm * 10) / 10;
  const width = round(pxToMm(next.widthPx, next.dpi));
  const height = round(pxToMm(next.heightPx, next.dpi));
  const low = row.resolutionThreshold > 0 && next.dpi < row.resolutionThreshold;
  const high = row.resolutionLimit !== null && row.resolutionLimit > 0 && next.dpi > row.resolutionLimit;
  // As the server reckons it: the pixels over the component's size in the orientation that fits.
  let effectiveDpi: number | null = null;
  if (row.component) {
    const c = row.component;
    const [w, h] = orientationFit({ width, height }, c, c) === 'swapped' ? [c.height, c.width] : [c.width, c.height];
    effectiveDpi = Math.round(Math.min(next.widthPx / (w / MM_PER_INCH), next.heightPx / (h / MM_PER_INCH)));
  }
  const updated: FileCheckRow = {
    ...row,
    width,
    height,
    resolutionDetect: next.dpi,
    resolutionWarning: low || high,
    effectiveDpi,
    reason: null,
    previewUrl: next.previewUrl,
    previewRelativeUrl: next.previewRelativeUrl ?? next.previewUrl,
  };
  return { ...updated, pass: passOf(updated) };
}

/**
 * A link that no cache has seen, for a file whose bytes just changed under the same path: its mark `t`
 * replaced, never repeated (the server refuses a `t` given twice).
 */
export function freshUrl(url: string, at: number = Date.now()): string {
  const q = url.indexOf('?');
  const kept = q < 0 ? [] : url.slice(q + 1).split('&').filter((p) => p && !p.startsWith('t='));
  return `${q < 0 ? url : url.slice(0, q)}?${[...kept, `t=${at}`].join('&')}`;
}

export const standardSizeText = (row: FileCheckRow): string =>
  row.component ? `${row.component.width}×${row.component.height} mm ${row.component.errorText}` : MSG.undefinedStandard;

export const standardDpiText = (row: FileCheckRow): string => `${row.resolutionThreshold ?? 0}-${row.resolutionLimit ?? '不限'}`;

export const sizeText = (row: Pick<FileCheckRow, 'width' | 'height'>): string => `${row.width}×${row.height} mm`;
