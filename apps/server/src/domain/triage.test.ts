/**
 * 文件问题汇总 (issue #20 item 1): the triage of packages/contract/src/triage.ts over real check results,
 * the rows checkWork answers for measured files, one table row per kind of miss.
 */
import { describe, expect, it } from 'vitest';
import { fileIssues, triage, type TriageWorkInput } from '@portal/contract';
import { checkWork, type CheckComponent, type CheckItem } from './check.ts';
import { comp, img, noPages, pdfPage } from './check.fixtures.ts';


/** 5寸 photo of the demo shop: 127×89 ±1 mm, 300 dpi wanted; a card without automatic orientation. */
const photo = comp({ id: 5, name: '照片', width: 127, height: 89, autoOrientationDetection: true, resolutionThreshold: 300 });
const card = comp({ id: 6, name: '正面', width: 90, height: 54, resolutionThreshold: 300 });
const cover = comp({ id: 1, name: '封面', width: 420, height: 285 });
const inner = comp({ id: 2, name: '内页', width: 210, height: 285 });

const issuesOf = (item: CheckItem, components: CheckComponent[]) =>
  fileIssues(checkWork([item], components, noPages).rows[0]!).map((i) => (i.band ? `${i.cause} ${i.band}` : i.cause));

describe('fileIssues over checkWork rows', () => {
  it.each<[string, CheckItem, CheckComponent[], string[]]>([
    ['a passing photo', img('ok.jpg', 127, 89), [photo], []],
    ['a passing photo turned, with automatic orientation', img('turned.jpg', 89, 127), [photo], []],
    ['1.5 mm short (±1 allowed)', img('a.jpg', 125.5, 89), [photo], ['尺寸偏小 <2 mm']],
    ['3 mm short on the height', img('b.jpg', 127, 86), [photo], ['尺寸偏小 2–5 mm']],
    ['7 mm short, turned (automatic orientation measures it upright)', img('c.jpg', 82, 120), [photo], ['尺寸偏小 5–10 mm']],
    ['a 6寸 photo on 5寸: 25 mm too long', img('d.jpg', 152, 102), [photo], ['尺寸偏大 ≥10 mm']],
    ['3 mm too wide', img('e.jpg', 130, 89), [photo], ['尺寸偏大 2–5 mm']],
    ['a card standing upright without automatic orientation', img('f.jpg', 54, 90), [card], ['方向不符']],
    ['a card upright and too small', img('g.jpg', 50, 85), [card], ['方向不符']],
    ['150 dpi, right size', img('h.jpg', 127, 89, 150), [photo], ['分辨率不足 150–199 dpi']],
    ['72 dpi and too small', img('i.jpg', 120, 80, 72), [photo], ['尺寸偏小 5–10 mm', '分辨率不足 <100 dpi']],
    ['240 dpi', img('j.jpg', 127, 89, 240), [photo], ['分辨率不足 ≥200 dpi']],
    ['no component fits (two to choose from)', img('k.jpg', 100, 100), [cover, inner], ['未匹配组件']],
    ['a broken image', img('l.jpg', 127, 89, 300, { broken: '文件破损' }), [photo], ['文件破损']],
    ['a file that is gone', img('m.jpg', 0, 0, 72, { broken: '文件不存在，请重新上传' }), [photo], ['文件破损']],
  ])('%s', (_name, item, components, expected) => {
    expect(issuesOf(item, components)).toEqual(expected);
  });

  it('a PDF whose pages cannot be given to the components is 页数不符', () => {
    const out = checkWork([pdfPage(1, 210, 285), pdfPage(2, 210, 285), pdfPage(3, 210, 285)], [
      { ...cover, pages: { min: 4, max: 4 } }, { ...inner, pages: { min: 8, max: null } },
    ], noPages);
    expect(out.rows.flatMap(fileIssues).map((i) => i.cause)).toEqual(['页数不符', '页数不符', '页数不符']);
  });
});

describe('triage of a batch', () => {
  /** What the page keeps of a check: the passing message or the failure wrapper. */
  const work = (uuid: string, items: CheckItem[], components: CheckComponent[], pages = noPages): TriageWorkInput => {
    const out = checkWork(items, components, pages);
    return { uuid, checkResult: out.pass ? { fileCheckResult: out.rows } : { message: { fileCheckResult: out.rows, pageCountWarning: out.pageCountWarning } } };
  };

  it('groups files by cause and band with file and work counts, in the causes\' order', () => {
    const groups = triage([
      work('w1', [img('1.jpg', 124, 89), img('2.jpg', 127, 85), img('3.jpg', 127, 89)], [photo]),
      work('w2', [img('4.jpg', 124, 88), img('5.jpg', 127, 89, 150)], [photo]),
      work('w3', [img('6.jpg', 54, 90), img('7.jpg', 90, 54)], [card]),
      work('w4', [img('8.jpg', 127, 89)], [photo]),
      work('w5', [img('9.jpg', 127, 89), img('10.jpg', 127, 89)], [photo], { base: 1, min: 3, max: 10, check: true }),
      { uuid: 'w6' },
    ]);
    expect(groups.map((g) => g.label)).toEqual([
      '尺寸偏小 2–5 mm · 共3个文件 · 2个作品',
      '方向不符 · 共1个文件 · 1个作品',
      '分辨率不足 150–199 dpi · 共1个文件 · 1个作品',
      '页数不符 · 共2个文件 · 1个作品',
    ]);
    expect(groups[0]!.workUuids).toEqual(['w1', 'w2']);
    expect(groups[0]!.files.map((f) => f.row.filename)).toEqual(['1.jpg', '2.jpg', '4.jpg']);
  });

  it('follows the batch: a work re-checked or deleted leaves its groups', () => {
    const bad = work('w1', [img('1.jpg', 124, 89)], [photo]);
    const also = work('w2', [img('2.jpg', 124, 89)], [photo]);
    expect(triage([bad, also])[0]!.label).toBe('尺寸偏小 2–5 mm · 共2个文件 · 2个作品');
    const fixed = work('w1', [img('1.jpg', 127, 89)], [photo]);
    expect(triage([fixed, also])[0]!.label).toBe('尺寸偏小 2–5 mm · 共1个文件 · 1个作品');
    expect(triage([fixed])).toEqual([]);
  });

  it('names each file as the customer tells it apart: by its path within the work where another file has its name', () => {
    const at = (path: string) => img(path, 124, 86, 300, { fileName: path.slice(path.lastIndexOf('/') + 1) });
    const out = checkWork([at('相册/上/1.jpg'), at('相册/下/1.jpg'), at('相册/下/2.jpg')], [photo], noPages);
    const [group] = triage([{ uuid: 'w', checkResult: { message: { fileCheckResult: out.rows, pageCountWarning: false } } }]);
    expect(group!.files.map((f) => f.label)).toEqual(['上/1.jpg', '下/1.jpg', '2.jpg']);
  });

  it('leaves out the resolution warnings the customer accepted (批量确认使用), not the work\'s other issues', () => {
    const low = checkWork([img('低.jpg', 127, 89, 150)], [photo], noPages);
    const warned: TriageWorkInput = { uuid: 'w1', checkResult: { fileCheckResult: low.rows } };
    expect(triage([warned]).map((g) => g.label)).toEqual(['分辨率不足 150–199 dpi · 共1个文件 · 1个作品']);
    const accepted: TriageWorkInput = { uuid: 'w1', checkResult: { fileCheckResult: low.rows, resolutionAccepted: true } };
    expect(triage([accepted])).toEqual([]);
    const bad = checkWork([img('小.jpg', 124, 89, 150)], [photo], noPages);
    const failing: TriageWorkInput = { uuid: 'w2', checkResult: { message: { fileCheckResult: bad.rows, pageCountWarning: false } } };
    expect(triage([failing]).map((g) => g.label)).toEqual(['尺寸偏小 2–5 mm · 共1个文件 · 1个作品', '分辨率不足 150–199 dpi · 共1个文件 · 1个作品']);
    // In a work that fails for another file, a file whose warning was accepted is marked on its row and left out
    // (it stayed in 分辨率不足 after 批量确认使用: LAN walk).
    const both = checkWork([img('低.jpg', 127, 89, 150), img('小.jpg', 120, 89, 300)], [photo], noPages);
    const rows = both.rows.map((r) => (r.itemPath.endsWith('低.jpg') ? { ...r, resolutionAccepted: true as const } : r));
    expect(triage([{ uuid: 'w3', checkResult: { message: { fileCheckResult: rows, pageCountWarning: false } } }]).map((g) => g.label))
      .toEqual(['尺寸偏小 5–10 mm · 共1个文件 · 1个作品']);
  });
});
