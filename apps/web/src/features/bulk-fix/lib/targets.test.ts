import type { FileCheckRow } from '@portal/contract/api';
import { FIX_REASONS } from '@portal/contract/bulk-fix';
import { describe, expect, it } from 'vitest';
import { fixesFor, percent, targetsOf } from './targets.ts';

const c = { componentId: 1, componentName: '照片', width: 152, height: 102, error: 2, errorType: 'mm' as const, errorText: '±2mm', autoOrientationDetection: false };
const row = (o: Partial<FileCheckRow>): FileCheckRow => ({
  filename: 'a.jpg', itemPath: 'upload/f/a.jpg', type: 'image', page: null, width: 152, height: 102, component: c, resolutionDetect: 300, dpiStated: true,
  resolutionThreshold: 300, resolutionLimit: 1200, resolutionWarning: false, effectiveDpi: 300, pass: true, reason: null, previewUrl: '', previewRelativeUrl: '', ...o,
});

describe('the fixes offered for a checked file', () => {
  it('suggests 旋转 when only the orientation is wrong, 裁切填充 for a wrong size, 批量确认使用 for a warning', () => {
    expect(fixesFor(row({ width: 102, height: 152, pass: false }))).toEqual({ kinds: ['fill', 'fit', 'rotate', 'delete'], suggested: 'rotate' });
    expect(fixesFor(row({ width: 76, height: 51, pass: false }))).toEqual({ kinds: ['fill', 'fit', 'delete'], suggested: 'fill' });
    expect(fixesFor(row({ resolutionWarning: true, resolutionDetect: 150 }))).toEqual({ kinds: ['fill', 'fit', 'accept', 'delete'], suggested: 'accept' });
    // Either orientation allowed: no 旋转.
    expect(fixesFor(row({ width: 102, height: 152, pass: false, component: { ...c, autoOrientationDetection: true } })).kinds).not.toContain('rotate');
    // PDF pages, files without a component and unreadable pictures: only 删除, and why.
    expect(fixesFor(row({ type: 'pdf', resolutionDetect: null, pass: false }))).toEqual({ kinds: ['delete'], suggested: null, note: FIX_REASONS.pdf });
    expect(fixesFor(row({ component: null, pass: false }))).toEqual({ kinds: ['delete'], suggested: null, note: FIX_REASONS.noComponent });
    expect(fixesFor(row({ resolutionDetect: 0, pass: false }))).toEqual({ kinds: ['delete'], suggested: null, note: FIX_REASONS.broken });
  });

  it('lists the failing and warned files of works, once each', () => {
    const ok = row({});
    const bad = row({ itemPath: 'upload/f/b.jpg', filename: 'b.jpg', width: 76, height: 51, pass: false, reason: '尺寸不符' });
    const t = targetsOf([{ uuid: 'w', articleName: '作品', checkResult: { message: { fileCheckResult: [ok, bad, bad] } } }]);
    expect(t).toEqual([{ workUuid: 'w', articleName: '作品', filePath: 'upload/f/b.jpg', fileName: 'b.jpg', problem: '尺寸不符', kinds: ['fill', 'fit', 'delete'], kind: 'fill' }]);
    expect(percent(0.04471)).toBe('4.5%');
  });

  it('leaves out a warning the customer accepted, by 批量确认使用 (the file\'s) or 确认使用 (the work\'s): it was listed again', () => {
    const low = row({ itemPath: 'upload/f/low.jpg', filename: 'low.jpg', resolutionWarning: true, resolutionDetect: 150 });
    const bad = row({ itemPath: 'upload/f/b.jpg', filename: 'b.jpg', width: 76, height: 51, pass: false, resolutionWarning: true, reason: '尺寸不符' });
    const paths = (t: ReturnType<typeof targetsOf>) => t.map((x) => x.filePath);
    expect(paths(targetsOf([{ uuid: 'w', articleName: '作品', checkResult: { message: { fileCheckResult: [low] } } }]))).toEqual(['upload/f/low.jpg']);
    expect(paths(targetsOf([{ uuid: 'w', articleName: '作品', checkResult: { message: { fileCheckResult: [{ ...low, resolutionAccepted: true }] } } }]))).toEqual([]);
    // 确认使用 marks the work's answer; a file failing besides its resolution is still to fix.
    expect(paths(targetsOf([{ uuid: 'w', articleName: '作品', checkResult: { fileCheckResult: [low, bad], resolutionAccepted: true } }]))).toEqual(['upload/f/b.jpg']);
  });
});
