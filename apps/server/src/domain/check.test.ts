import { describe, expect, it } from 'vitest';
import { assignComponent, checkWork, type CheckComponent, type CheckItem } from './check.ts';

const comp = (o: Partial<CheckComponent> & { id: number; name: string; width: number; height: number }): CheckComponent => ({
  uuid: `u${o.id}`, error: 1, errorType: 'mm', autoOrientationDetection: false, resolutionThreshold: 0, resolutionLimit: null, ...o,
});
/** An image of exactly w×h mm at the dpi. */
const img = (name: string, w: number, h: number, dpi = 300, extra: Partial<CheckItem> = {}): CheckItem => ({
  type: 'image', filePath: `upload/f/${name}`, fileName: name, folderComponent: null,
  widthPx: Math.round((w / 25.4) * dpi), heightPx: Math.round((h / 25.4) * dpi), dpi, dpiStated: true, ...extra,
} as CheckItem);
const page = (n: number, w: number, h: number): CheckItem => ({ type: 'pdf', filePath: 'upload/f/a.pdf', fileName: 'a.pdf', folderComponent: null, page: n, widthMm: w, heightMm: h });
const noPages = { base: 1, min: null, max: null, check: true };

describe('component assignment', () => {
  const cover = comp({ id: 1, name: '封面', width: 420, height: 285 });
  const inner = comp({ id: 2, name: '内页', width: 210, height: 285 });
  it('takes the subfolder\'s component first, even when another fits', () => {
    const item = img('p1.jpg', 210, 285, 300, { folderComponent: '封面' });
    expect(assignComponent(item, { width: 210, height: 285 }, [cover, inner])!.name).toBe('封面');
  });
  it('else the first whose size fits, else the only one, else none', () => {
    const item = img('p1.jpg', 210, 285);
    expect(assignComponent(item, { width: 210, height: 285 }, [cover, inner])!.name).toBe('内页');
    expect(assignComponent(item, { width: 100, height: 100 }, [inner])!.name).toBe('内页');
    expect(assignComponent(item, { width: 100, height: 100 }, [cover, inner])).toBeNull();
  });
});

describe('checkWork', () => {
  const photo = comp({ id: 5, name: '照片', width: 127, height: 89, error: 2, autoOrientationDetection: true, resolutionThreshold: 300, resolutionLimit: 1200 });

  it('passes sizes within tolerance, in the swapped orientation with auto orientation', () => {
    const out = checkWork([img('a.jpg', 128.5, 88), img('b.jpg', 89, 127)], [photo], noPages);
    expect(out.pass).toBe(true);
    expect(out.rows.map((r) => r.pass)).toEqual([true, true]);
    expect(out.rows[1]!.effectiveDpi).toBe(300);
    expect(out.components).toEqual([{ componentId: 5, componentName: '照片', width: 127, height: 89, count: 2 }]);
    expect(out.fileArea).toBeCloseTo(2 * 0.127 * 0.089, 4);
  });

  it('fails the swapped orientation without auto orientation, with a reason', () => {
    const card = comp({ id: 6, name: '正面', width: 90, height: 54 });
    const out = checkWork([img('c.jpg', 54, 90)], [card], noPages);
    expect(out.pass).toBe(false);
    expect(out.rows[0]!.reason).toMatch(/尺寸不符：实际54×90mm，标准90×54mm（允许误差±1mm）/);
    expect(out.messages[0]).toMatch(/^c\.jpg：尺寸不符/);
  });

  it('applies a tolerance in percent', () => {
    const a3 = comp({ id: 7, name: 'A3', width: 297, height: 420, error: 1, errorType: 'percent' });
    expect(checkWork([img('p.jpg', 299.5, 424)], [a3], noPages).pass).toBe(true);
    expect(checkWork([img('p.jpg', 301, 420)], [a3], noPages).pass).toBe(false);
  });

  it('warns below the resolution threshold and above the limit without failing the size', () => {
    const low = checkWork([img('low.jpg', 127, 89, 150)], [photo], noPages);
    expect(low.pass).toBe(true);
    expect(low.resolutionWarning).toBe(true);
    expect(low.rows[0]!.reason).toMatch(/分辨率150dpi低于要求的300dpi/);
    expect(checkWork([img('hi.jpg', 127, 89, 2400)], [photo], noPages).rows[0]!.reason).toMatch(/高于上限1200dpi/);
  });

  it('measures an image without a stated density at 72 dpi and says so', () => {
    const item = { ...img('n.jpg', 127, 89, 72), dpiStated: false } as CheckItem;
    const out = checkWork([item], [comp({ id: 1, name: 'x', width: 127, height: 89 })], noPages);
    expect(out.rows[0]!.reason).toMatch(/文件未记录分辨率，按72dpi计算/);
    expect(out.rows[0]!.width).toBe(127);
  });

  it('fails with standard 未定义 when no component matches among several', () => {
    const out = checkWork([img('x.jpg', 50, 50)], [comp({ id: 1, name: 'a', width: 90, height: 54 }), comp({ id: 2, name: 'b', width: 210, height: 297 })], noPages);
    expect(out.rows[0]!.component).toBeNull();
    expect(out.rows[0]!.reason).toMatch(/未定义/);
  });

  it('fails a broken file with its reason', () => {
    const out = checkWork([img('t.jpg', 127, 89, 300, { broken: '文件破损：图片数据不完整' })], [photo], noPages);
    expect(out.rows[0]).toMatchObject({ pass: false, reason: '文件破损：图片数据不完整' });
  });

  it('counts pages, extra pages, and warns outside the limits', () => {
    const inner = comp({ id: 2, name: '内页', width: 210, height: 285 });
    const pages = Array.from({ length: 24 }, (_, i) => page(i + 1, 210, 285));
    const ok = checkWork(pages, [inner], { base: 20, min: 8, max: 48, check: true });
    expect(ok).toMatchObject({ pass: true, pageCount: 24, addPageNum: 4, pageCountWarning: false });
    const few = checkWork(pages.slice(0, 6), [inner], { base: 20, min: 8, max: 48, check: true });
    expect(few).toMatchObject({ pass: false, pageCountWarning: true, addPageNum: 0 });
    expect(few.messages[0]).toBe('页数6不符合要求（8-48页）');
    expect(checkWork(pages.slice(0, 6), [inner], { base: 20, min: 8, max: 48, check: false }).pass).toBe(true);
  });
});
