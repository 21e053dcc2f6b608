/**
 * The file check of works against a chosen SKU (../shared/spec/product-spec.md §4 work state, §7 checkFile), outside
 * React: it writes the rows of the order table and the file-check entries of the page's batch
 * (features/batch); one check flow per batch (checkFlowOf).
 *
 * The outcome of a work's check, and its entry (one per work, id `check:<work uuid>`):
 *   match       → no entry; an entry the work already had shows success (文件校验成功) and leaves
 *                 after SUCCESS_LINGER_MS
 *   dpiAbnormal → entry dpiAbnormal (查看详情, 重新校验, 确认使用 → match)
 *   abnormal    → entry error (查看详情, 重新校验); 文件校验失败 when the check could not run
 * Keep in mind:
 * - one toast per single check, one summary toast per batch of several works;
 * - a work checked again while a check of it is still running keeps only the newest answer;
 * - deleting an entry in error reverts its work to unmatch and clears pages, area and the SKU, and
 *   the customer is told to choose the product again; entries this module removes itself (a
 *   success leaving, 确认使用, a work that left the table) do not do that;
 * - no entry is made while a check runs: 2,000 works checked at once would flood the list.
 */
import type { FileCheckRow } from '@portal/contract/api';
import { MSG } from '@portal/contract/messages';
import { fileLabels } from '@portal/contract/rules';
import { createStore, type Store } from '../../lib/external-store.ts';
import { ApiError, isApiError } from '../../lib/http.ts';
import { paced } from '../../lib/paced.ts';
import { mapPooled } from '../../lib/pool.ts';
import { perBatch, rowByUuid, type Batch, type CheckEntry, type NewCheckEntry, type WorkComponent, type WorkProduct, type WorkRow, type WorksState } from '../batch/index.ts';
import { checkFile, type CheckFileAnswer } from './api/check-file.ts';
import { checkFiles } from './api/check-files.ts';

const SUCCESS_LINGER_MS = 1500;
/** Works per checkFiles call and calls in flight: docs/decisions.md "#20 item 5" records how they were chosen. */
const WORKS_PER_CALL = 25;
const CALLS_AT_ONCE = 2;

/** A check of several works: works answered (or dropped) out of all, of which failed; the works it checked. */
export interface CheckProgress {
  running: boolean;
  done: number;
  total: number;
  failed: number;
  uuids: readonly string[];
}
const DETAIL_LINES = 3;

/** How the works of the last check of several stand now: all of them, and those failed, warned, or back to 未匹配. */
export interface CheckStanding {
  total: number;
  failed: number;
  warned: number;
  unmatched: number;
}

/** The standing of `uuids` (the works of the last check of several) in the order table as it is now; works gone leave it. */
export function checkStandingOf(uuids: readonly string[], works: WorksState): CheckStanding {
  const rows = uuids.map((u) => rowByUuid(works, u)).filter((r) => r !== undefined);
  const count = (state: WorkRow['state']) => rows.filter((r) => r.state === state).length;
  return { total: rows.length, failed: count('abnormal'), warned: count('dpiAbnormal'), unmatched: count('unmatch') };
}

/** The text of the bar's line (CheckProgressBar): the running count, or how the check's works stand now. */
export function checkLineText(progress: CheckProgress, now: CheckStanding): string {
  if (progress.running) return `正在校验 ${progress.done}/${progress.total} 个作品`;
  // 分辨率异常 is named beside 未通过: 全部通过 above a triage listing 分辨率不足 read as a contradiction (LAN probe).
  // So is 未匹配: a work whose failed entry was deleted, or that lost a file in 文件详情, passed nothing (the line said 全部通过).
  const standing = [now.failed ? `${now.failed}个未通过` : '', now.warned ? `${now.warned}个分辨率异常` : '', now.unmatched ? `${now.unmatched}个未匹配` : '']
    .filter(Boolean)
    .join('，');
  return `校验完成：共${now.total}个作品，${standing || '全部通过'}`;
}

/** What the bar's line says now (null: no line, before the customer closes it). */
export function checkLine(progress: CheckProgress, works: WorksState): string | null {
  const now = checkStandingOf(progress.uuids, works);
  if (progress.total === 0 || (!progress.running && now.total === 0)) return null;
  return checkLineText(progress, now);
}

/** The SKU a work is checked against, as the row keeps it: what choosing a SKU sets on a row. */
export type SkuChoice = WorkProduct;

export interface CheckNotifier {
  success(text: string): void;
  error(text: string): void;
  warning(text: string): void;
}

export const checkEntryIdOf = (workUuid: string) => `check:${workUuid}`;
const isCheckEntry = (entry: CheckEntry) => entry.id.startsWith('check:') && entry.workUuid !== undefined;

export type Outcome = 'match' | 'dpiAbnormal' | 'abnormal' | 'failed' | 'stale';

export function componentsOf(answer: CheckFileAnswer): WorkComponent[] {
  if (answer.state === 200) {
    return answer.message.components.map((c) => ({ componentName: c.componentName, width: c.width, height: c.height, count: c.count }));
  }
  const counts = new Map<number, WorkComponent>();
  for (const row of answer.message.message.fileCheckResult) {
    const c = row.component;
    if (!c) continue;
    const e = counts.get(c.componentId) ?? { componentName: c.componentName, width: c.width, height: c.height, count: 0 };
    counts.set(c.componentId, { ...e, count: e.count + 1 });
  }
  return [...counts.values()];
}

function lines(texts: readonly string[]): { message: string | undefined; details: string[] | undefined } {
  if (texts.length === 0) return { message: undefined, details: undefined };
  const details = texts.slice(1, 1 + DETAIL_LINES);
  if (texts.length > 1 + DETAIL_LINES) details.push(`等${texts.length}条`);
  return { message: texts[0], details: details.length ? details : undefined };
}

/** The SKU a row was checked against, or undefined before any choice. */
export function skuChoiceOfRow(row: WorkRow): SkuChoice | undefined {
  if (row.productId == null || row.propertyConfigId == null) return undefined;
  return {
    productId: row.productId,
    productName: row.productName ?? '',
    propertyConfigId: row.propertyConfigId,
    sku: row.sku ?? '',
    toning: row.toning ?? 'None',
    customToning: row.customToning ?? false,
  };
}

/**
 * What settling checks writes, gathered so that the answers of one call reach the order table and the
 * upload list in one update each: with 2,000 rows, an update per work re-ran every subscriber per work.
 */
interface Writes {
  patches: Map<string, Partial<Omit<WorkRow, 'uuid'>>>;
  entries: NewCheckEntry[];
  /** Entries of works that now pass, with the answer: shown as a success for a moment. */
  succeeded: Array<{ entryId: string; detail: unknown }>;
}
const noWrites = (): Writes => ({ patches: new Map(), entries: [], succeeded: [] });
const isEmpty = (w: Writes) => w.patches.size === 0 && w.entries.length === 0 && w.succeeded.length === 0;

/**
 * The checks of one page's batch: the works it checks, their entries, the toasts. Made once per batch
 * (checkFlowOf), when the page first checks.
 */
function createCheckFlow(page: Batch) {
  const { addCheckEntries, checkEntriesStore, onCheckEntriesRemoved, removeCheckEntries, updateCheckEntry, updateWork, updateWorks, worksStore } = page;

  let notifier: CheckNotifier = { success: () => undefined, error: console.error, warning: console.warn };

  /** Installs the page's toasts (antd message); returns the uninstall. */
  function setCheckNotifier(next: CheckNotifier): () => void {
    notifier = next;
    return () => {
      if (notifier === next) notifier = { success: () => undefined, error: console.error, warning: console.warn };
    };
  }

  /** Entries this module removes itself: their removal must not revert the work. */
  const quiet = new Set<string>();
  function removeQuietly(ids: readonly string[]) {
    for (const id of ids) quiet.add(id);
    try {
      removeCheckEntries(ids);
    } finally {
      for (const id of ids) quiet.delete(id);
    }
  }

  /** The progress of the running check of several works (one bar, not a toast per work). */
  const noProgress = (): CheckProgress => ({ running: false, done: 0, total: 0, failed: 0, uuids: [] });
  const progress: Store<CheckProgress> = createStore<CheckProgress>(noProgress());
  const finishedListeners = new Set<() => void>();

  /** The newest check of each work: an older answer arriving late is dropped. */
  const generation = new Map<string, number>();

  const rowOf = (uuid: string): WorkRow | undefined => rowByUuid(worksStore.getState(), uuid);

  /** The writes gathered by settle, each store updated once. */
  function apply(writes: Writes) {
    const { patches } = writes;
    if (patches.size > 0) updateWorks((row) => patches.get(row.uuid) ?? null);
    addCheckEntries(writes.entries);
    for (const { entryId, detail } of writes.succeeded) {
      if (!checkEntriesStore.getState().byId[entryId]) continue;
      updateCheckEntry(entryId, { status: 'success', phase: undefined, message: MSG.checkSuccess, details: undefined, messageDetail: detail, retry: undefined });
      setTimeout(() => {
        if (checkEntriesStore.getState().byId[entryId]?.status === 'success') removeQuietly([entryId]);
      }, SUCCESS_LINGER_MS);
    }
  }

  /**
   * Starts a work's check: its SKU is set (gathered in `writes`), and an older answer still on its way
   * will be dropped. A new SKU brings its own toning; the same SKU chosen again keeps what the customer set.
   * Under a new SKU the work is 未匹配 until its answer comes: the last check was of another product (it read
   * 已匹配 with the new one, a draft saved meanwhile kept that, and 批量下单 went on: LAN check, 2026-11-29).
   */
  function begin(uuid: string, choice: SkuChoice, writes: Writes): { row: WorkRow; mine: number } | null {
    const row = rowOf(uuid);
    if (!row) return null;
    const mine = (generation.get(uuid) ?? 0) + 1;
    generation.set(uuid, mine);
    const { toning: _toning, customToning: _customToning, ...sku } = choice;
    const sameSku = row.propertyConfigId === choice.propertyConfigId && row.productId === choice.productId;
    writes.patches.set(uuid, sameSku ? sku : { ...choice, state: 'unmatch', checkResult: null, components: null, addPageNum: null, fileArea: null });
    return { row, mine };
  }

  /** The check's answer (or why it could not run) for the work and its entry, gathered in `writes`. */
  function settle(uuid: string, row: WorkRow, mine: number, got: { answer: CheckFileAnswer } | { error: unknown }, writes: Writes): Outcome {
    if (generation.get(uuid) !== mine || !rowOf(uuid)) return 'stale';
    const entryId = checkEntryIdOf(uuid);
    const write = (patch: Partial<Omit<WorkRow, 'uuid'>>) => writes.patches.set(uuid, { ...writes.patches.get(uuid), ...patch });
    // The entry of the work (one per work, replaced by each outcome that needs the customer).
    const put = (patch: Pick<CheckEntry, 'status' | 'message' | 'details' | 'messageDetail'>) =>
      writes.entries.push({ id: entryId, articleName: row.articleName, fileName: row.fileName, filePath: row.filePath, workUuid: uuid, retry: 'check', ...patch });

    if ('error' in got) {
      const error = got.error;
      // A 4xx names what is wrong (a work that is gone, a SKU no longer sold); anything else did not answer.
      const text = isApiError(error) && error.status >= 400 && error.status < 500 ? `${MSG.checkFailedNetwork}：${error.message}` : MSG.checkFailedNetwork;
      write({ state: 'abnormal', checkResult: null, addPageNum: null, fileArea: null });
      put({ status: 'error', message: text, details: undefined, messageDetail: text });
      return 'failed';
    }
    const answer = got.answer;

    if (answer.state === 200) {
      const m = answer.message;
      // 批量确认使用 accepted every warning of the work (stored on the server): it is 已匹配.
      const state = m.resolutionWarning && !m.resolutionAccepted ? 'dpiAbnormal' : 'match';
      write({
        state,
        pageCount: m.pageCount,
        addPageNum: m.addPageNum,
        fileArea: m.fileArea,
        components: componentsOf(answer),
        checkResult: m,
      });
      if (state === 'match') {
        // A work that had an entry shows its success for a moment; others need none (the toast says it).
        writes.succeeded.push({ entryId, detail: m });
      } else {
        const labels = fileLabels(m.fileCheckResult.map((r) => r.itemPath));
        const warned = m.fileCheckResult.filter((r) => r.resolutionWarning).map((r) => `${labels.get(r.itemPath) ?? r.filename}：分辨率${r.resolutionDetect ?? '—'}dpi，要求${r.resolutionThreshold}-${r.resolutionLimit ?? '不限'}dpi`);
        put({
          status: 'dpiAbnormal',
          message: `分辨率异常：${warned.length}个文件的分辨率不符合要求`,
          details: warned.length > DETAIL_LINES ? [...warned.slice(0, DETAIL_LINES), `等${warned.length}个文件`] : warned,
          messageDetail: m,
        });
      }
      return state;
    }

    const m = answer.message;
    const texts = m.messages.map((x) => x.message);
    const { message, details } = lines(texts.length ? texts : [MSG.checkFailedToast]);
    write({
      state: 'abnormal',
      pageCount: m.message.fileCheckResult.length,
      addPageNum: null,
      fileArea: null,
      components: componentsOf(answer),
      checkResult: m,
    });
    put({ status: 'error', message, details, messageDetail: m });
    return 'abnormal';
  }

  async function checkOne(uuid: string, choice: SkuChoice, customerHubId: number): Promise<Outcome> {
    const begun = noWrites();
    const started = begin(uuid, choice, begun);
    apply(begun);
    if (!started) return 'stale';
    // The bar's line tells of the last check of several works; one checked alone since that it does not count (重选产品,
    // 文件详情's re-check, a preflight item's work) makes it old news: it said 全部通过 beside this work's 分辨率异常.
    const last = progress.getState();
    if (!last.running && last.total > 0 && !last.uuids.includes(uuid)) progress.setState(noProgress());
    let got: { answer: CheckFileAnswer } | { error: unknown };
    try {
      got = {
        answer: await checkFile({
          propertyConfigId: choice.propertyConfigId,
          productId: choice.productId,
          customerHubId,
          filePath: started.row.filePath,
          makeWay: 'File',
          checkNumberOfPages: true,
          workUuid: uuid,
        }),
      };
    } catch (error) {
      got = { error };
    }
    const writes = noWrites();
    const outcome = settle(uuid, started.row, started.mine, got, writes);
    apply(writes);
    return outcome;
  }

  /**
   * Many works against one SKU: calls of WORKS_PER_CALL works to checkFiles (the server checks each
   * call's works in parallel), CALLS_AT_ONCE calls in flight; the progress counts works as calls answer.
   * `announce`: tell onBatchChecked's listeners when done (the page turns to the triage).
   * A call that fails as a whole (network, a SKU no longer sold) fails its works as checkFile would.
   */
  async function checkMany(uuids: readonly string[], choice: SkuChoice, customerHubId: number, { announce = true } = {}): Promise<Outcome[]> {
    const begun = noWrites();
    const started = uuids.map((uuid) => ({ uuid, s: begin(uuid, choice, begun) }));
    apply(begun);
    const live = started.filter((x): x is { uuid: string; s: { row: WorkRow; mine: number } } => x.s !== null);
    const calls: (typeof live)[] = [];
    for (let i = 0; i < live.length; i += WORKS_PER_CALL) calls.push(live.slice(i, i + WORKS_PER_CALL));
    const outcomes = new Map<string, Outcome>();
    progress.setState({ running: true, done: 0, total: uuids.length, failed: 0, uuids });
    progress.setState((p) => ({ ...p, done: uuids.length - live.length }));
    // The calls' answers reach the table, the lists and the bar together, on the page's clock (lib/paced.ts):
    // 12 calls answered within a second drew the order table and the triage 12 times (bench batch-triage).
    let pending = noWrites();
    let counted = { done: 0, failed: 0 };
    /** The check each pending answer belongs to: a work checked again meanwhile keeps the newer check's writes. */
    const settledAs = new Map<string, number>();
    const flush = () => {
      if (isEmpty(pending) && counted.done === 0) return;
      const [writes, add] = [pending, counted];
      pending = noWrites();
      counted = { done: 0, failed: 0 };
      const stale = new Set([...settledAs].filter(([uuid, mine]) => generation.get(uuid) !== mine).map(([uuid]) => uuid));
      settledAs.clear();
      for (const uuid of stale) writes.patches.delete(uuid);
      writes.entries = writes.entries.filter((e) => !e.workUuid || !stale.has(e.workUuid));
      const staleEntries = new Set([...stale].map(checkEntryIdOf));
      writes.succeeded = writes.succeeded.filter((s) => !staleEntries.has(s.entryId));
      apply(writes);
      progress.setState((p) => ({ ...p, done: p.done + add.done, failed: p.failed + add.failed }));
    };
    const land = paced(flush);
    await mapPooled(calls, CALLS_AT_ONCE, async (call) => {
      let results: Array<{ answer: CheckFileAnswer } | { error: unknown }>;
      try {
        const answer = await checkFiles({
          propertyConfigId: choice.propertyConfigId,
          productId: choice.productId,
          customerHubId,
          makeWay: 'File',
          checkNumberOfPages: true,
          works: call.map((x) => ({ filePath: x.s.row.filePath, workUuid: x.uuid })),
        });
        results = answer.message.results.map((r) => ('answer' in r ? { answer: r.answer } : { error: new ApiError(r.error.status, r.error.message, r.error, null, true) }));
      } catch (error) {
        results = call.map(() => ({ error }));
      }
      call.forEach((x, i) => {
        const outcome = settle(x.uuid, x.s.row, x.s.mine, results[i] ?? { error: new Error('no result') }, pending);
        settledAs.set(x.uuid, x.s.mine);
        if (outcome === 'abnormal' || outcome === 'failed') counted.failed++;
        outcomes.set(x.uuid, outcome);
      });
      counted.done += call.length;
      land();
    }, { taskEach: true });
    flush();
    progress.setState((p) => ({ ...p, running: false }));
    if (announce) for (const listener of finishedListeners) listener();
    return uuids.map((uuid) => outcomes.get(uuid) ?? 'stale');
  }

  function summarise(outcomes: readonly Outcome[]) {
    const counted = outcomes.filter((o) => o !== 'stale');
    if (counted.length === 0) return;
    const bad = counted.filter((o) => o === 'abnormal' || o === 'failed').length;
    if (counted.length === 1) {
      if (bad) notifier.error(MSG.checkFailedToast);
      else notifier.success(MSG.checkSuccess);
      return;
    }
    if (bad === 0) notifier.success(`${MSG.checkSuccess}：共${counted.length}个作品`);
    else notifier.error(`${MSG.checkFailedToast}：${bad}个作品未通过，${counted.length - bad}个通过`);
  }

  /**
   * Checks works against one SKU (选择产品 for the checked rows, 重选产品 for one): one work by
   * checkFile, several by checkFiles with one progress bar and one summary toast.
   */
  async function checkWorks(uuids: readonly string[], choice: SkuChoice, customerHubId: number): Promise<void> {
    const unique = [...new Set(uuids)];
    const outcomes = unique.length === 1 ? [await checkOne(unique[0]!, choice, customerHubId)] : await checkMany(unique, choice, customerHubId);
    summarise(outcomes);
  }

  /** Hear when a check of several works has finished (the page then shows the triage); returns the unsubscribe. */
  function onBatchChecked(listener: () => void): () => void {
    finishedListeners.add(listener);
    return () => finishedListeners.delete(listener);
  }

  /**
   * 重新校验: checks works again against the SKU each already has, the works of one SKU together as
   * 选择产品 checks them (checkFiles, one progress bar). `quiet`: no toast and no turn to the triage (a
   * restored draft's failed works, which the customer did not ask to check).
   */
  async function recheckWorks(uuids: readonly string[], customerHubId: number, { quiet = false } = {}): Promise<void> {
    const bySku = new Map<string, { choice: SkuChoice; uuids: string[] }>();
    for (const uuid of new Set(uuids)) {
      const row = rowOf(uuid);
      const choice = row && skuChoiceOfRow(row);
      if (!choice) continue;
      const key = JSON.stringify(choice);
      const group = bySku.get(key) ?? { choice, uuids: [] };
      group.uuids.push(uuid);
      bySku.set(key, group);
    }
    const outcomes: Outcome[] = [];
    // One SKU after another: the progress bar counts one check at a time.
    for (const { choice, uuids: group } of bySku.values()) {
      if (group.length === 1) outcomes.push(await checkOne(group[0]!, choice, customerHubId));
      else outcomes.push(...(await checkMany(group, choice, customerHubId, { announce: !quiet })));
    }
    if (!quiet) summarise(outcomes);
  }

  /**
   * Checks one work again against its SKU without a toast, after a file of it changed in 文件详情 (a
   * crop, a re-upload): the work, its entry and the dialog take the new answer, and the caller reports
   * what it means for the changed file. `rows` are the new answer's (none when the check did not run).
   */
  async function recheckWorkQuietly(uuid: string, customerHubId: number): Promise<{ outcome: Outcome; rows: FileCheckRow[] }> {
    const row = rowOf(uuid);
    const choice = row && skuChoiceOfRow(row);
    if (!choice) return { outcome: 'stale', rows: [] };
    const outcome = await checkOne(uuid, choice, customerHubId);
    const m = outcome === 'stale' || outcome === 'failed' ? null : rowOf(uuid)?.checkResult;
    const rows = !m ? [] : 'fileCheckResult' in m ? m.fileCheckResult : m.message.fileCheckResult;
    return { outcome, rows };
  }

  /** 确认使用 on a resolution warning: the work is good to order as it is. */
  function confirmUse(workUuid: string): void {
    // Its warnings leave 文件问题汇总 as 批量确认使用's do (they stayed there after 确认使用: LAN walk, 2026-11-30).
    const result = rowOf(workUuid)?.checkResult;
    const accepted = result && 'fileCheckResult' in result ? { ...result, resolutionAccepted: true } : result;
    updateWork(workUuid, { state: 'match', ...(accepted !== result ? { checkResult: accepted } : {}) });
    removeQuietly([checkEntryIdOf(workUuid)]);
  }

  /**
   * After a file of a work changed (re-upload, crop, delete) the last check no longer describes it:
   * its entries go to error, with the changed answer for the detail dialog.
   */
  function markWorkChanged(workUuid: string, messageDetail: unknown): void {
    const s = checkEntriesStore.getState();
    for (const id of s.ids) {
      const entry = s.byId[id];
      if (entry?.workUuid === workUuid) updateCheckEntry(id, { status: 'error', messageDetail });
    }
    updateWork(workUuid, { checkResult: (messageDetail ?? null) as WorkRow['checkResult'] });
  }

  /** Forgets a work's entries without touching the work (it left the table, or was replaced). */
  function dropWorkEntries(workUuids: readonly string[]): void {
    const doomed = new Set(workUuids);
    const s = checkEntriesStore.getState();
    removeQuietly(s.ids.filter((id) => {
      const uuid = s.byId[id]?.workUuid;
      return uuid !== undefined && doomed.has(uuid);
    }));
  }

  // Deleting an entry in error reverts its work (../shared/spec/product-spec.md §4).
  onCheckEntriesRemoved((removed) => {
    const reverted: string[] = [];
    for (const entry of removed) {
      if (!isCheckEntry(entry) || quiet.has(entry.id) || entry.status !== 'error') continue;
      const uuid = entry.workUuid as string;
      if (!rowOf(uuid)) continue;
      generation.set(uuid, (generation.get(uuid) ?? 0) + 1);
      updateWork(uuid, {
        state: 'unmatch',
        pageCount: null,
        addPageNum: null,
        fileArea: null,
        productId: null,
        productName: null,
        propertyConfigId: null,
        sku: null,
        components: null,
        checkResult: null,
      });
      reverted.push(entry.articleName);
    }
    if (reverted.length === 1) notifier.warning(`“${reverted[0]}”的校验结果已清除，请重新选择产品`);
    else if (reverted.length > 1) notifier.warning(`${reverted.length}个作品的校验结果已清除，请重新选择产品`);
  });

  // A work that leaves the table takes its entries along.
  let lastRows = worksStore.getState().rows;
  worksStore.subscribe(() => {
    const rows = worksStore.getState().rows;
    if (rows === lastRows) return;
    const shrank = rows.length < lastRows.length;
    lastRows = rows;
    if (!shrank) return;
    const present = new Set(rows.map((r) => r.uuid));
    const s = checkEntriesStore.getState();
    const gone = s.ids.filter((id) => {
      const entry = s.byId[id];
      return entry !== undefined && isCheckEntry(entry) && !present.has(entry.workUuid as string);
    });
    if (gone.length) removeQuietly(gone);
  });

  // A SKU chosen while the item was uploading (its preflight row): its works get it, and the server's check.
  page.onPreflightResolved(({ workUuids, choice }) => void checkWorks(workUuids, choice.product, choice.customerHubId));

  return { progressStore: progress, onBatchChecked, setCheckNotifier, checkWorks, recheckWorks, recheckWorkQuietly, confirmUse, markWorkChanged, dropWorkEntries };
}

export type CheckFlow = ReturnType<typeof createCheckFlow>;

/** The checks of `page`: checkWorks (选择产品), recheckWorks (重新校验), confirmUse (确认使用) and the rest. */
export const checkFlowOf: (page: Batch) => CheckFlow = perBatch(createCheckFlow);
