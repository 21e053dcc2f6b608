import { describe, expect, it } from 'vitest';
import type { Batch, WorkRow } from '../batch/index.ts';
import { shownForGroup, triageOf } from './hooks.ts';

const component = { componentId: 1, componentName: '照片', width: 127, height: 89, error: 2, errorType: 'mm' as const, errorText: '±2mm', autoOrientationDetection: true };
/** A checked photo work: `width` mm wide (127 passes, 120 is 尺寸偏小 5–10 mm), at `dpi`. */
function work(n: number, width: number, dpi = 300): WorkRow {
  const pass = width === 127;
  const row = {
    filename: `p${n}.jpg`, itemPath: `upload/b/w${n}/p${n}.jpg`, type: 'image' as const, page: null, width, height: 89, component,
    resolutionDetect: dpi, dpiStated: true, resolutionThreshold: 300, resolutionLimit: 1200, resolutionWarning: dpi < 300, effectiveDpi: dpi,
    pass, reason: pass ? null : '尺寸不符', previewUrl: '', previewRelativeUrl: '',
  };
  return {
    uuid: `w${n}`, articleName: `作品${n}`, filePath: `upload/b/w${n}`, fileName: `w${n}`, files: [], quantity: 1, state: pass ? 'match' : 'abnormal',
    checkResult: { workUuid: `w${n}`, resolutionWarning: dpi < 300, addPageNum: 0, pageCount: 1, fileArea: 0.0113, components: [], fileCheckResult: [row] } as unknown as WorkRow['checkResult'],
  };
}

describe('the triage of the page', () => {
  it('is worked out once per rows array, and a group whose files did not change keeps its object', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => work(i, i % 5 === 0 ? 120 : 127, i % 7 === 0 ? 150 : 300));
    const first = triageOf(rows);
    expect(first.map((g) => g.label)).toEqual(['尺寸偏小 5–10 mm · 共400个文件 · 400个作品', '分辨率不足 150–199 dpi · 共286个文件 · 286个作品']);
    // Every part of the page that asks for the same rows gets the same groups.
    expect(triageOf(rows)).toBe(first);

    // A check answer fixes the size of work 5: only the size group changes.
    const next = rows.map((r, i) => (i === 5 ? work(5, 127) : r));
    const second = triageOf(next);
    expect(second[0]!.label).toBe('尺寸偏小 5–10 mm · 共399个文件 · 399个作品');
    expect(second[0]).not.toBe(first[0]);
    expect(second[1]).toBe(first[1]);

    // Work 7 is deleted: the resolution group shrinks, the size group is the one of before.
    const third = triageOf(next.filter((r) => r.uuid !== 'w7'));
    expect(third[0]).toBe(second[0]);
    expect(third[1]!.label).toBe('分辨率不足 150–199 dpi · 共285个文件 · 285个作品');
  });
});

describe('the works the filtered table shows', () => {
  it('keeps the works shown for a group while it stays chosen, and is the same set until one joins', () => {
    const batch = {} as Batch;
    const first = shownForGroup(batch, 'small', ['a', 'b', 'c']);
    expect([...first]).toEqual(['a', 'b', 'c']);
    // b is fixed (leaves the group): the table keeps it, and gets the very same set.
    expect(shownForGroup(batch, 'small', ['a', 'c'])).toBe(first);
    // d joins: a new set with all of them.
    const second = shownForGroup(batch, 'small', ['a', 'c', 'd']);
    expect([...second].sort()).toEqual(['a', 'b', 'c', 'd']);
    // Another group starts afresh, and coming back to the first does too.
    expect([...shownForGroup(batch, 'low', ['x'])]).toEqual(['x']);
    expect([...shownForGroup(batch, 'small', ['a'])]).toEqual(['a']);
  });
});
