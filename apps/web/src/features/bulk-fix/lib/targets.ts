import { FIX_REASONS, type FixKind } from '@portal/contract/bulk-fix';
import type { FileCheckRow } from '@portal/contract/api';
import { fileLabels, fitsSize } from '@portal/contract/rules';

/** A file to fix: where it is, what is wrong, the fixes that can apply to it and the one chosen (null: leave it). */
export interface FixTarget {
  workUuid: string;
  articleName: string;
  filePath: string;
  fileName: string;
  problem: string;
  kinds: readonly FixKind[];
  kind: FixKind | null;
  /** Why no fix but 删除 applies (a PDF, no component, an unreadable picture): shown beside 不修复. */
  note?: string;
}

/** Only the orientation is wrong, and the component does not turn the picture itself: 旋转 fixes it. */
export function orientationOnly(r: Pick<FileCheckRow, 'width' | 'height' | 'component'>): boolean {
  const c = r.component;
  if (!c || c.autoOrientationDetection) return false;
  return !fitsSize(r, c, c) && fitsSize({ width: r.height, height: r.width }, c, c);
}

/** The fixes that can apply to a checked file, and the one that suits its problem best. */
export function fixesFor(r: FileCheckRow): { kinds: FixKind[]; suggested: FixKind | null; note?: string } {
  const kinds: FixKind[] = [];
  const image = r.type === 'image';
  const sized = image && r.component !== null && (r.resolutionDetect ?? 0) > 0;
  if (sized) kinds.push('fill', 'fit');
  if (sized && orientationOnly(r)) kinds.push('rotate');
  // Only a file whose one problem is its resolution: accepting it leaves any other failing.
  if (r.pass && r.resolutionWarning) kinds.push('accept');
  kinds.push('delete');
  let suggested: FixKind | null = null;
  if (!r.pass && kinds.includes('rotate')) suggested = 'rotate';
  else if (!r.pass && sized) suggested = 'fill';
  else if (r.pass && r.resolutionWarning) suggested = 'accept';
  // Nothing but 删除 fits: say why (PDF rows sat at 不修复 with an empty 效果: LAN walk, 2026-11-30).
  const note = kinds.length > 1 ? undefined : r.type === 'pdf' ? FIX_REASONS.pdf : r.component === null ? FIX_REASONS.noComponent : !sized ? FIX_REASONS.broken : undefined;
  return { kinds, suggested, ...(note ? { note } : {}) };
}

type Answer = { fileCheckResult: FileCheckRow[]; resolutionAccepted?: boolean } | { message: { fileCheckResult: FileCheckRow[] } };
export const checkRowsOf = (m: Answer | null | undefined): FileCheckRow[] => (!m ? [] : 'fileCheckResult' in m ? m.fileCheckResult : m.message.fileCheckResult);

/**
 * The files of checked works that fail or warn, each with its fixes (PDF pages of one file count once). A warning the
 * customer accepted (批量确认使用 marks the file, 确认使用 the work's answer) leaves nothing to fix.
 */
export function targetsOf(works: ReadonlyArray<{ uuid: string; articleName: string; checkResult?: Answer | null }>): FixTarget[] {
  const out: FixTarget[] = [];
  for (const w of works) {
    const seen = new Set<string>();
    const rows = checkRowsOf(w.checkResult);
    const workAccepted = !!w.checkResult && 'fileCheckResult' in w.checkResult && w.checkResult.resolutionAccepted === true;
    const labels = fileLabels(rows.map((r) => r.itemPath));
    for (const r of rows) {
      if (r.pass && (!r.resolutionWarning || r.resolutionAccepted || workAccepted)) continue;
      if (seen.has(r.itemPath)) continue;
      seen.add(r.itemPath);
      const { kinds, suggested, note } = fixesFor(r);
      out.push({ workUuid: w.uuid, articleName: w.articleName, filePath: r.itemPath, fileName: labels.get(r.itemPath) ?? r.filename, problem: r.reason ?? '', kinds, kind: suggested, ...(note ? { note } : {}) });
    }
  }
  return out;
}

/** Percent with one decimal, for the shares cut or padded. */
export const percent = (share: number) => `${(Math.round(share * 1000) / 10).toFixed(1)}%`;
