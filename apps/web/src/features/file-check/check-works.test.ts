/**
 * The line of the last check of several works (校验完成：…) against what the works and the 文件检查 list say
 * after later actions, with the check calls replaced at their boundary (checkFile, checkFiles): the server's
 * verdict of each work is set by the test.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CheckFileAnswer } from '@portal/contract/api';

type Verdict = 'match' | 'dpiAbnormal' | 'abnormal';
/** What the server answers for each work, by uuid. */
const verdicts = new Map<string, Verdict>();

function answerOf(workUuid: string): CheckFileAnswer {
  const verdict = verdicts.get(workUuid) ?? 'match';
  const row = {
    filename: `${workUuid}.jpg`, itemPath: `upload/b/${workUuid}.jpg`, type: 'image' as const, page: null, width: 127, height: 89, component: null,
    resolutionDetect: verdict === 'dpiAbnormal' ? 150 : 300, dpiStated: true, resolutionThreshold: 300, resolutionLimit: null,
    resolutionWarning: verdict === 'dpiAbnormal', effectiveDpi: null, pass: verdict !== 'abnormal', reason: null, previewUrl: '', previewRelativeUrl: '',
  };
  if (verdict === 'abnormal') {
    return { state: 400, message: { workUuid, fileName: row.filename, status: 'error', message: { fileCheckResult: [row], pageCountWarning: false, error: true }, messages: [{ message: '尺寸不符' }] } };
  }
  return { state: 200, message: { workUuid, resolutionWarning: verdict === 'dpiAbnormal', addPageNum: 0, pageCount: 1, fileArea: 0.01, components: [], fileCheckResult: [row] } };
}

vi.mock('./api/check-file.ts', () => ({
  checkFile: async (body: { workUuid: string }) => answerOf(body.workUuid),
}));
vi.mock('./api/check-files.ts', () => ({
  checkFiles: async (body: { works: Array<{ workUuid: string }> }) => ({ state: 200, message: { results: body.works.map((w) => ({ answer: answerOf(w.workUuid) })) } }),
}));

const { createBatch } = await import('../batch/index.ts');
const { checkFlowOf, checkLine } = await import('./check-works.ts');

const choice = { productId: 1, productName: '5寸照片冲印', propertyConfigId: 1, sku: '相纸:光面', toning: 'None' as const, customToning: false };
const work = (uuid: string) => ({ uuid, articleName: uuid, filePath: `upload/b/${uuid}.jpg`, fileName: `${uuid}.jpg`, files: [], quantity: 1, state: 'unmatch' as const });

describe('the line of the last check of several works', () => {
  let page: ReturnType<typeof createBatch>;
  let flow: ReturnType<typeof checkFlowOf>;
  /** What the page's line says now (null: no line), as CheckProgressBar draws it. */
  const line = () => checkLine(flow.progressStore.getState(), page.worksStore.getState());
  /** The problems the 文件检查 list shows. */
  const problems = () => Object.values(page.checkEntriesStore.getState().byId).filter((e) => e.status === 'error' || e.status === 'dpiAbnormal');

  beforeEach(() => {
    verdicts.clear();
    page = createBatch();
    flow = checkFlowOf(page);
    page.addWorks(['低分辨率', '合格1', '合格2', '另一个'].map(work));
  });

  it('is not 全部通过 beside a 分辨率异常 of a work checked after it (the tester\'s walk: a crop\'s re-check, then 确认使用)', async () => {
    // Another work failed its own check first: it has an entry, so 文件详情 can crop it.
    verdicts.set('另一个', 'abnormal');
    await flow.checkWorks(['另一个'], choice, 1);
    verdicts.set('低分辨率', 'dpiAbnormal');
    await flow.checkWorks(['低分辨率', '合格1', '合格2'], choice, 1);
    expect(line()).toBe('校验完成：共3个作品，1个分辨率异常');

    // 调整尺寸 of the other work: its re-check gives 分辨率异常.
    verdicts.set('另一个', 'dpiAbnormal');
    await flow.recheckWorkQuietly('另一个', 1);
    flow.confirmUse('低分辨率');

    expect(problems().map((e) => [e.articleName, e.status])).toEqual([['另一个', 'dpiAbnormal']]);
    // The line was of an older check: it goes, or it must not say that everything passed.
    expect(line() === null || !line()!.includes('全部通过')).toBe(true);
  });

  it('is not the older run\'s 1个分辨率异常 after later checks of passing works', async () => {
    verdicts.set('低分辨率', 'dpiAbnormal');
    await flow.checkWorks(['低分辨率', '合格1', '合格2'], choice, 1);
    // 重选产品 of a work of another pick (one work: checkFile), which passes.
    await flow.checkWorks(['另一个'], choice, 1);
    expect(line()).toBeNull();
  });

  it('counts a work of the run as it stands now: accepted, or reverted to 未匹配 (not 全部通过)', async () => {
    verdicts.set('低分辨率', 'dpiAbnormal');
    verdicts.set('合格2', 'abnormal');
    await flow.checkWorks(['低分辨率', '合格1', '合格2'], choice, 1);
    expect(line()).toBe('校验完成：共3个作品，1个未通过，1个分辨率异常');
    // 重新校验 of a work of the run keeps the line: it counts it as it stands.
    await flow.recheckWorks(['低分辨率'], 1);
    expect(line()).toBe('校验完成：共3个作品，1个未通过，1个分辨率异常');
    flow.confirmUse('低分辨率');
    expect(line()).toBe('校验完成：共3个作品，1个未通过');
    // Deleting the failed entry reverts its work to 未匹配 (no product): nothing passed for it.
    page.removeCheckEntries(['check:合格2']);
    expect(page.worksStore.getState().rows.find((r) => r.uuid === '合格2')?.state).toBe('unmatch');
    expect(line()).toBe('校验完成：共3个作品，1个未匹配');
  });
});
