import { describe, expect, it } from 'vitest';
import { assignComponent, checkWork, splitPages, type CheckItem, type PageSpec } from './check.ts';
import { comp, img, noPages, pdfPage as page } from './check.fixtures.ts';


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

  it('measures the area on the sizes it shows (0.1 mm): a board exported at 7087×10630 px for 600×900 mm is 0.54 m², not 0.55', () => {
    // 7087 px at 300 dpi are 600.03 mm: on the exact sizes the price's round-up would charge every such file a
    // started hundredth of a m² more than the board the press cuts (docs/decisions.md, Catalogue and prices).
    const board = comp({ id: 7, name: '展板', width: 600, height: 900 });
    const item = { ...img('kt.jpg', 600, 900), widthPx: 7087, heightPx: 10630 } as CheckItem;
    const out = checkWork([item], [board], noPages);
    expect([out.rows[0]!.width, out.rows[0]!.height]).toEqual([600, 900]);
    expect(out.fileArea).toBe(0.54);
  });

  it('holds a folder\'s components to their own page counts: a cover of 3 pages fails where 4 are fixed (LAN walk)', () => {
    const cover = comp({ id: 8, name: '封面', width: 210, height: 285, pages: { min: 4, max: 4 } });
    const inner = comp({ id: 9, name: '内页', width: 210, height: 285, pages: { min: 8, max: 100 } });
    const rule = { base: 4, min: 12, max: 104, check: true };
    const folder = (covers: number, inners: number) => [
      ...Array.from({ length: covers }, (_, i) => img(`c${i}.jpg`, 210, 285, 300, { folderComponent: '封面' })),
      ...Array.from({ length: inners }, (_, i) => img(`i${i}.jpg`, 210, 285, 300, { folderComponent: '内页' })),
    ];
    const short = checkWork(folder(3, 10), [cover, inner], rule);
    expect(short.pass).toBe(false);
    expect(short.pageCountWarning).toBe(true);
    expect(short.messages).toEqual(['封面页数3不符合要求（4页）']);
    expect(checkWork(folder(4, 10), [cover, inner], rule).pass).toBe(true);
    expect(checkWork(folder(4, 7), [cover, inner], { ...rule, min: null }).messages).toEqual(['内页页数7不符合要求（8-100页）']);
    // checkNumberOfPages=false leaves page counts alone, as for the whole work.
    expect(checkWork(folder(3, 10), [cover, inner], { ...rule, check: false }).pass).toBe(true);
  });

  it('fails the swapped orientation without auto orientation, with a reason', () => {
    const card = comp({ id: 6, name: '正面', width: 90, height: 54 });
    const out = checkWork([img('c.jpg', 54, 90)], [card], noPages);
    expect(out.pass).toBe(false);
    expect(out.rows[0]!.reason).toMatch(/尺寸不符：实际54×90mm，标准90×54mm（允许误差±1mm）/);
    expect(out.messages[0]).toMatch(/^c\.jpg：尺寸不符/);
  });

  it('names files of the same name by their path within the work (上/1.jpg, 下/1.jpg), others by their name', () => {
    const at = (path: string) => img(path, 100, 70, 300, { fileName: path.slice(path.lastIndexOf('/') + 1) });
    const out = checkWork([at('相册/上/1.jpg'), at('相册/下/1.jpg'), at('相册/下/2.jpg')], [photo], noPages);
    expect(out.messages.map((m) => m.slice(0, m.indexOf('：')))).toEqual(['上/1.jpg', '下/1.jpg', '2.jpg']);
    // The rows keep the file's own name (the spec's filename).
    expect(out.rows.map((r) => r.filename)).toEqual(['1.jpg', '1.jpg', '2.jpg']);
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

  it('lists the work\'s components in the catalogue\'s order, whatever order its files come in (a card read 背面 before 正面)', () => {
    const front = comp({ id: 7, name: '正面', width: 90, height: 54 });
    const back = comp({ id: 8, name: '背面', width: 90, height: 54 });
    const out = checkWork([img('背面/b.jpg', 90, 54, 300, { folderComponent: '背面' }), img('正面/a.jpg', 90, 54, 300, { folderComponent: '正面' })], [front, back], noPages);
    expect(out.components.map((c) => c.componentName)).toEqual(['正面', '背面']);
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

describe('splitPages: one PDF for a product of several components', () => {
  const spec = (min: number | null, max: number | null): PageSpec => ({ min, max });
  const brochure = [{ name: '封面', pages: spec(4, 4) }, { name: '内页', pages: spec(8, 100) }];
  const card = [{ name: '正面', pages: null }, { name: '背面', pages: null }];
  /** "封面:1-2,19-20 内页:3-18": the pages of each component, as runs. */
  const runs = (names: string[]) => {
    const by = new Map<string, number[]>();
    names.forEach((n, i) => by.set(n, [...(by.get(n) ?? []), i + 1]));
    return [...by].map(([n, ps]) => `${n}:${ps.reduce<string[]>((out, p, i) => {
      if (i > 0 && p === ps[i - 1]! + 1) out[out.length - 1] = `${out[out.length - 1]!.split('-')[0]}-${p}`;
      else out.push(String(p));
      return out;
    }, []).join(',')}`).join(' ');
  };

  it.each([
    ['a 20-page brochure: the 4-page cover wraps the inner pages', 20, brochure, '封面:1-2,19-20 内页:3-18'],
    ['the smallest brochure that splits', 5, brochure, '封面:1-2,4-5 内页:3'],
    ['a 100-page brochure', 100, brochure, '封面:1-2,99-100 内页:3-98'],
    ['a 2-page card: 正面 p1, 背面 p2', 2, card, '正面:1 背面:2'],
    ['a 1-page card: 正面 only', 1, card, '正面:1'],
    ['a 2-page cover (outside only) wraps too', 6, [{ name: '封面', pages: spec(2, 2) }, { name: '内页', pages: spec(null, null) }], '封面:1,6 内页:2-5'],
    ['an odd fixed first component does not wrap', 5, [{ name: '扉页', pages: spec(1, 1) }, { name: '内页', pages: spec(2, 50) }], '扉页:1 内页:2-5'],
    ['fixed counts that add up', 8, [{ name: '封面', pages: spec(4, 4) }, { name: '内页', pages: spec(4, 4) }], '封面:1-2,7-8 内页:3-6'],
  ])('%s', (_, total, comps, expected) => {
    const out = splitPages(total, comps);
    expect(out.ok).toBe(true);
    if (out.ok) expect(runs(out.components)).toBe(expected);
  });

  it.each([
    ['3 pages for a 4-page cover', 3, brochure, 'PDF共3页，不够分给各部件（封面4页（前2页和最后2页），内页至少1页，共需至少5页），请检查文件页数，或按部件分文件夹上传（文件夹名为部件名）'],
    ['4 pages: nothing left for 内页', 4, brochure, /^PDF共4页，不够分给各部件/],
    ['3 pages for a card', 3, card, 'PDF共3页，多于各部件所需的2页（正面1页，背面1页），请检查文件页数，或按部件分文件夹上传（文件夹名为部件名）'],
    ['fixed counts that do not add up', 9, [{ name: '封面', pages: spec(4, 4) }, { name: '内页', pages: spec(4, 4) }], /^PDF共9页，多于各部件所需的8页/],
    ['two components with open counts', 20, [{ name: '内页', pages: spec(8, 100) }, { name: '插页', pages: spec(1, 10) }], /^PDF共20页，内页、插页的页数都不固定/],
  ])('cannot split %s, and says why', (_, total, comps, reason) => {
    const out = splitPages(total, comps);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.reason).toMatch(reason);
  });

  const a4 = (name: string, pages: PageSpec | null, id: number) => comp({ id, name, width: 210, height: 285, error: 2, pages });
  const pdf = (n: number, extra: Partial<CheckItem> = {}) => Array.from({ length: n }, (_, i) => ({ ...page(i + 1, 210, 285), ...extra }) as CheckItem);
  const brochureComps = [a4('封面', spec(4, 4), 1), a4('内页', spec(8, 100), 2)];
  const pagesRule = { base: 20, min: 8, max: 48, check: true };

  it('gives a single PDF\'s pages to the components in checkWork (rows keep their page numbers)', () => {
    const out = checkWork(pdf(20), brochureComps, pagesRule);
    expect(out.pass).toBe(true);
    expect(out.rows.filter((r) => r.component?.componentName === '封面').map((r) => r.page)).toEqual([1, 2, 19, 20]);
    expect(out.rows.filter((r) => r.component?.componentName === '内页').map((r) => r.page)).toEqual(Array.from({ length: 16 }, (_, i) => i + 3));
    expect(out.components.map((c) => [c.componentName, c.count])).toEqual([['封面', 4], ['内页', 16]]);
  });

  it('fails a PDF that cannot be split with one message that says why', () => {
    const out = checkWork(pdf(3), brochureComps, pagesRule);
    expect(out.pass).toBe(false);
    expect(out.rows.every((r) => !r.pass && r.component === null && r.reason!.startsWith('PDF共3页，不够分给各部件'))).toBe(true);
    expect(out.messages).toEqual(['页数3不符合要求（8-48页）', expect.stringMatching(/^a\.pdf：PDF共3页，不够分给各部件/)]);
  });

  it('leaves alone a PDF in a component folder, several files, and products of one component', () => {
    const inFolder = checkWork(pdf(20, { folderComponent: '内页' }), brochureComps, pagesRule);
    expect(inFolder.rows.every((r) => r.component?.componentName === '内页')).toBe(true);
    const two = checkWork([...pdf(2), { ...page(1, 210, 285), filePath: 'upload/f/b.pdf', fileName: 'b.pdf' }], brochureComps, { ...pagesRule, min: 1 });
    expect(two.rows.every((r) => r.component?.componentName === '封面')).toBe(true);
    expect(checkWork(pdf(3), [a4('内页', spec(8, 100), 2)], { ...pagesRule, check: false }).pass).toBe(true);
  });
});
