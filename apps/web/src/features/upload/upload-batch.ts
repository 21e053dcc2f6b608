/**
 * From a pick or a drop to rows of the order table (../shared/spec/product-spec.md §2 file preview area, §4
 * Parsing, §5 upload rules). One pick or drop is one batch with its own folderId; its files are
 * grouped by top-level item (a file, or a folder with everything below it), and each item gets a
 * file-check entry.
 *
 * The life of an item, as its entry shows it:
 *   start/uploading → start/parsing → success (removed after SUCCESS_LINGER_MS; rows appended)
 *                   ↘ failure (上传失败，请重试！; 重试 sends the failed files again)
 *                                 ↘ failure (文件解析失败：<server text>; 重新解析 when the call failed,
 *                                   none when the server judged the file: a zip it cannot read stays so)
 * Keep in mind:
 * - an item is parsed once every one of its files is uploaded, never before: the server parses
 *   what it has on disk;
 * - one summary toast per batch (上传成功 or 上传失败，请重试！) when all its files are settled, again
 *   after a retry settles, never one per file;
 * - deleting a failed entry forgets its files and deletes what was stored of the item; a success
 *   entry leaving keeps the stored files, which its rows point at.
 */
import pLimit from 'p-limit';
import { PARSE_ITEMS_MAX, type ParseResult } from '@portal/contract/api';
import { MSG } from '@portal/contract/messages';
import { errorMessage } from '../../lib/http.ts';
import { randomUuid } from '../../lib/uuid.ts';
import { yieldToMain } from '../../lib/yield.ts';
import { createLinker } from '../dedupe/index.ts';
import { failedFilesOf, perBatch, workRowOf, type Batch, type NewUploadItem, type PreflightChoice, type PreflightFile, type UploadFileState } from '../batch/index.ts';
import { deleteStoredFile } from './api/delete-file.ts';
import { storedChunks } from './api/stored-chunks.ts';
import { naturalCompare } from './lib/natural-order.ts';
import { groupByTopLevel, itemArticleName, screenFiles, type PickedFile } from './lib/pick.ts';
import { ParseFailure, pollParseTask, refusesTheFile } from './parse-item.ts';
import { parseUploadedItems } from './api/parse.ts';
import { measureFiles } from './preflight/measurer.ts';
import { chunkCount, createUploader, type UploadJob } from './uploader.ts';
import { paced } from '../../lib/paced.ts';

/** The entry of a restored upload whose files must be picked again (features/draft restores it). */
export const UNFINISHED_UPLOAD = '上传未完成：请重新选择这些文件（或所在文件夹），已上传的部分不会重新发送';
const UNFINISHED_FILE = '文件未上传完成，请重新选择该文件';

/** A file of a restored upload, found again in a new pick. */
export interface ResumePick {
  fileId: string;
  picked: PickedFile;
}

/** What a pick filter makes of a pick: files for a new upload, files that resume an upload, and how many are stored already. */
export interface PickSplit {
  fresh: PickedFile[];
  resume: ResumePick[];
  /** Files already uploaded whose works are in the table: not sent, not added again. */
  linked: number;
  /** Files of a restored upload the server has, picked again with the rest: not sent; measured for the item's 预检 row. */
  stored?: ResumePick[];
}
export type PickFilter = (picked: readonly PickedFile[]) => PickSplit;

/** An upload item of an earlier page (a restored draft), with the files whose upload had finished. */
export interface RestoredUploadItem {
  key: string;
  batchId: string;
  name: string;
  isFolder: boolean;
  filePath: string;
  fileNum: number;
  itemIndex: number;
  /** `refused`: the server's reason when it refused the file (a re-pick would be refused again). */
  files: ReadonlyArray<{ id: string; relativePath: string; size: number; lastModified?: number | null; chunkTotal: number; done: boolean; refused?: string }>;
  /** The product chosen on its 预检 row before the reload. */
  choice?: PreflightChoice;
}

/** fileIndex of an id made by uploadPicked (`<folderId>-<fileIndex>`). */
const fileIndexOf = (id: string) => Number(id.slice(id.lastIndexOf('-') + 1)) || 0;

const SUCCESS_LINGER_MS = 1500;
/** parseItems calls in flight. */
const PARSE_CALLS_AT_ONCE = 2;
/** Long parse tasks (zips, big folders) polled at once. */
const TASKS_POLLED_AT_ONCE = 4;
const FAILED_FILES_LISTED = 5;
/** Why a picked file of another type is listed with the files left out (UnsupportedNotices). */
const SKIPPED_TYPE = '文件类型不支持，未上传';
/** The toast of a pick whose failed files were all refused by the server: 重试 cannot help; 文件检查 says why. */
const FILES_REFUSED = '有文件无法上传，原因见文件检查';

/** The toasts of the page (antd's message from App.useApp). */
export interface UploadNotifier {
  success(text: string): void;
  error(text: string): void;
  warning(text: string): void;
}

export interface UploadContext {
  customerHubId: number;
  notify: UploadNotifier;
}

interface PickRound extends UploadContext {
  /** Picks in the order they were made: the first number of its rows' place. */
  seq: number;
  itemKeys: string[];
  /** Each item's place in the pick (natural order), kept when other items leave. */
  itemOrder: ReadonlyMap<string, number>;
  /** True until the summary toast of the current round is shown. */
  summaryPending: boolean;
}

export interface PickOutcome {
  /** Files that will be uploaded. */
  accepted: number;
  items: number;
}

/**
 * The upload of one page's batch: its picks, their uploader and the parses of their items. Made once
 * per batch (uploadFlowOf), when the page first uploads.
 */
function createUploadFlow(page: Batch) {
  const { addWorks, addCheckEntries, onCheckEntriesRemoved, removeCheckEntries, updateCheckEntry, addUnsupportedNotices, addUploadItems, patchUploadFile, removeUploadItems, uploadStore } = page;
  const { addPreflightItems, setPreflightMeasures, resolvePreflightItem, removePreflightItems } = page;
  /** Of each item: the number of files of its pick and its place there (sent as fileNum and index; kept by a draft). */
  const pickInfo = new Map<string, { fileNum: number; itemIndex: number }>();
  /** The product chosen on the 预检 row of a restored item before the reload, until its 预检 row is back (resumeFiles). */
  const restoredChoices = new Map<string, PreflightChoice>();
  let pickFilter: PickFilter | null = null;

  const batches = new Map<string, PickRound>();
  let batchSeq = 0;
  const uploader = createUploader(page, (id) => onFileSettled(id), createLinker());

  // --- parses: the items whose files are all stored go to the server together, up to PARSE_ITEMS_MAX a
  // call (parseItems), PARSE_CALLS_AT_ONCE calls in flight. One call per item made a drop of 300 folders
  // 300 calls, each answer waiting behind the page's own work (bench batch-triage, bench/HISTORY.md
  // 2026-11-29 12:40). An item answered with a long task (a zip, a big folder) is polled on its own,
  // TASKS_POLLED_AT_ONCE at a time, without holding a call's place.
  // Not p-limit for the calls: an item queued twice is parsed once, and a removed item leaves the queue
  // (p-limit can only clear a whole queue).
  const parseQueue: string[] = [];
  let parseCalls = 0;
  const polls = pLimit(TASKS_POLLED_AT_ONCE);

  function pumpParses() {
    while (parseCalls < PARSE_CALLS_AT_ONCE && parseQueue.length > 0) {
      const keys = parseQueue.splice(0, PARSE_ITEMS_MAX);
      parseCalls++;
      void runParses(keys).finally(() => {
        parseCalls--;
        pumpParses();
      });
    }
  }

  function queueParse(key: string) {
    updateCheckEntry(key, { status: 'start', phase: 'parsing', message: undefined, details: undefined, retry: undefined, taskProgress: undefined });
    if (!parseQueue.includes(key)) parseQueue.push(key);
    pumpParses();
  }

  // --- parsed works reach the table together, paced as the stores are (lib/paced.ts): the works
  // table renders synchronously (its inputs are controlled), and a drop of 300 folders finishes 300 parses.
  const landing: Array<() => void> = [];
  const landParsed = paced(() => {
    for (const land of landing.splice(0)) land();
  });
  function queueLanding(land: () => void) {
    landing.push(land);
    landParsed();
  }

  /** `again`: 重新解析 is offered (the call failed, not the file: a zip that cannot be read gives the same answer again). */
  function failParse(key: string, text: string, again: boolean) {
    updateCheckEntry(key, {
      status: 'failure',
      phase: undefined,
      taskProgress: undefined,
      message: text ? `${MSG.parseFailed}：${text}` : MSG.parseFailed,
      retry: again ? 'parse' : undefined,
    });
    // The failure in the upload list replaces the preflight's row.
    removePreflightItems([key]);
  }

  function parsed(key: string, result: ParseResult) {
    const item = uploadStore.getState().items[key];
    const batch = item && batches.get(item.batchId);
    if (!item || !batch) return;
    addUnsupportedNotices(result.unsupported.map((u) => ({ ...u, itemName: item.name })));
    if (result.works.length === 0) {
      failParse(key, '没有可下单的图片或PDF文件', false);
      return;
    }
    const works = result.works;
    queueLanding(() => {
      // Removed while waiting for the frame: its works are not the batch's.
      if (!uploadStore.getState().items[key]) return;
      // In the pick's order, not in the order the parses finish.
      const rows = works.map(workRowOf);
      addWorks(rows, [batch.seq, batch.itemOrder.get(key) ?? 0]);
      // A SKU chosen on the item's preflight row goes to its works, and the server's check runs;
      // the server's rows replace the preflight's.
      resolvePreflightItem(key, rows.map((r) => r.uuid));
      updateCheckEntry(key, {
        status: 'success',
        phase: undefined,
        taskProgress: undefined,
        message: `解析完成，共${works.length}个作品`,
      });
      setTimeout(() => removeCheckEntries([key]), SUCCESS_LINGER_MS);
    });
  }

  /** One parseItems call for `keys` (the items of one hub: a page has one; others go back to the queue). */
  async function runParses(keys: string[]) {
    const { items } = uploadStore.getState();
    const hubOf = (key: string) => {
      const item = items[key];
      return item ? batches.get(item.batchId)?.customerHubId : undefined;
    };
    const hub = keys.map(hubOf).find((h) => h !== undefined);
    if (hub === undefined) return;
    const sent = keys.filter((k) => hubOf(k) === hub);
    parseQueue.unshift(...keys.filter((k) => hubOf(k) !== undefined && hubOf(k) !== hub));
    let results;
    try {
      results = await parseUploadedItems(sent.map((k) => items[k]!.filePath), hub);
    } catch (error) {
      for (const key of sent) if (uploadStore.getState().items[key]) failParse(key, errorMessage(error), true);
      return;
    }
    results.forEach((r, i) => {
      const key = sent[i]!;
      if (!uploadStore.getState().items[key]) return;
      if ('error' in r) failParse(key, r.error.message, !refusesTheFile(r.error.status));
      else if (r.answer.state === 200) parsed(key, r.answer.message);
      else {
        const { taskId } = r.answer.message;
        void polls(() => pollParseTask(taskId, (progress) => updateCheckEntry(key, { taskProgress: progress }))).then(
          (result) => parsed(key, result),
          (error: unknown) => {
            if (uploadStore.getState().items[key]) failParse(key, error instanceof ParseFailure ? error.message : MSG.networkError, !(error instanceof ParseFailure && error.lasting));
          },
        );
      }
    });
  }

  function onFileSettled(id: string) {
    const state = uploadStore.getState();
    const file = state.files[id];
    const item = file && state.items[file.itemKey];
    if (!item) return;
    if (item.filesDone === item.filesTotal) queueParse(item.key);
    else if (item.filesDone + item.filesFailed === item.filesTotal) showFailedItem(item.key);
    summarise(item.batchId);
  }

  /** The entry of an item whose every file settled and some failed: the failed files and what can be done. */
  function showFailedItem(key: string) {
    const item = uploadStore.getState().items[key];
    if (!item) return;
    const failed = failedFilesOf(uploadStore.getState(), key);
    // The server's reason when it refused a file; for a lost connection the message says it all.
    const reason = (f: (typeof failed)[number]) => (f.error && f.error !== MSG.uploadFailed ? f.error : '');
    const listed = item.isFolder
      ? failed.slice(0, FAILED_FILES_LISTED).map((f) => (reason(f) ? `${f.relativePath}：${reason(f)}` : f.relativePath))
      : failed.map(reason).filter(Boolean);
    if (item.isFolder && failed.length > FAILED_FILES_LISTED) listed.push(`等${failed.length}个文件未上传成功`);
    // Refused by the server, every one: its reason is the message, and no 重试 is offered (it said
    // 上传失败，请重试！ over an encrypted PDF: the LAN check of 2026-11-29).
    const refused = failed.every((f) => f.refused);
    updateCheckEntry(key, {
      status: 'failure',
      phase: undefined,
      message: !refused ? MSG.uploadFailed : item.isFolder ? `${failed.length}个文件无法上传` : (listed[0] ?? MSG.uploadFailed),
      details: refused && !item.isFolder ? [] : listed,
      retry: !refused ? 'upload' : item.isFolder ? 'skip' : undefined,
    });
    // As for a failed parse: the failure in the upload list replaces the preflight's row (重试 that
    // succeeds brings the server's rows).
    removePreflightItems([key]);
  }

  function summarise(batchId: string) {
    const batch = batches.get(batchId);
    if (!batch?.summaryPending) return;
    const { items } = uploadStore.getState();
    let failed = 0;
    for (const key of batch.itemKeys) {
      const item = items[key];
      if (!item) continue;
      if (item.filesDone + item.filesFailed < item.filesTotal) return;
      failed += item.filesFailed;
    }
    batch.summaryPending = false;
    const refusedOnly = failed > 0 && batch.itemKeys.every((key) => failedFilesOf(uploadStore.getState(), key).every((f) => f.refused));
    if (failed === 0) batch.notify.success(MSG.uploadSuccess);
    else batch.notify.error(refusedOnly ? FILES_REFUSED : MSG.uploadFailed);
  }

  onCheckEntriesRemoved((removed) => {
    const { items } = uploadStore.getState();
    const keys: string[] = [];
    for (const entry of removed) {
      const item = entry.uploadItemKey ? items[entry.uploadItemKey] : undefined;
      if (!item) continue;
      keys.push(item.key);
      uploader.cancel(item.fileIds);
      const i = parseQueue.indexOf(item.key);
      if (i >= 0) parseQueue.splice(i, 1);
      // Leftovers of an item that never became rows: tidy the server, quietly; an item none of whose files
      // was stored has nothing there (全部删除 asked to delete refused files: 404s in the console).
      if (entry.status !== 'success' && item.filesDone > 0) void deleteStoredFile(item.filePath, { silent: true }).catch(() => undefined);
      const batch = batches.get(item.batchId);
      if (batch) {
        batch.itemKeys = batch.itemKeys.filter((k) => k !== item.key);
        if (batch.itemKeys.length === 0) batches.delete(item.batchId);
      }
    }
    removeUploadItems(keys);
    removePreflightItems(keys);
    for (const key of keys) restoredChoices.delete(key);
  });

  const measurable = (path: string) => /\.(jpe?g|png|pdf)$/i.test(path);

  /**
   * The provisional rows of a pick's items (features/batch/preflight.ts) and the measuring of their
   * images and PDFs in the workers, while the bytes upload.
   */
  function preflight(items: readonly NewUploadItem[], jobs: readonly UploadJob[], seq: number): void {
    addPreflightItems(items.map((item, i) => ({
      // Where the item's works will stand (addWorks of its parse): its row stands there until they come.
      key: item.key, place: [seq, i], name: item.name, isFolder: item.isFolder,
      files: item.files.map((f) => (measurable(f.relativePath) ? { id: f.id, relativePath: f.relativePath } : { id: f.id, relativePath: f.relativePath, unmeasured: true })),
    })));
    // Posted in a task of its own, as the sending starts: the pick's task ends with the files listed.
    const files = jobs.filter((j) => measurable(j.relativePath)).map((j) => ({ id: j.id, file: j.file, name: j.relativePath }));
    void yieldToMain().then(() => measureFiles(files, setPreflightMeasures));
  }

  /**
   * The 预检 row of a restored item again, as on its first upload, with the product chosen on it before the reload:
   * its works get it, and the server's check, when it is parsed (without the row the choice was dropped, and a resumed
   * upload showed no 预检 row). `picked`: the item's files picked again, measured in the workers; a file not among
   * them is left to the server.
   */
  function preflightRestored(key: string, picked: ReadonlyMap<string, PickedFile>): void {
    const { items, files } = uploadStore.getState();
    const item = items[key];
    const batch = item && batches.get(item.batchId);
    if (!item || !batch || page.preflightStore.getState().items[key]) return;
    // Kept until the item leaves: a resumed upload that fails and is picked again gets its row again.
    const choice = restoredChoices.get(key);
    addPreflightItems([{
      key, place: [batch.seq, batch.itemOrder.get(key) ?? 0], name: item.name, isFolder: item.isFolder,
      files: item.fileIds.flatMap((id): PreflightFile[] => {
        const f = files[id];
        if (!f) return [];
        if (!measurable(f.relativePath)) return [{ id, relativePath: f.relativePath, unmeasured: true }];
        return [picked.has(id) ? { id, relativePath: f.relativePath } : { id, relativePath: f.relativePath, measure: null }];
      }),
      ...(choice ? { choice } : {}),
    }]);
    const toMeasure = item.fileIds.flatMap((id) => {
      const p = picked.get(id);
      return p && measurable(p.relativePath) ? [{ id, file: p.file, name: files[id]?.relativePath ?? p.relativePath }] : [];
    });
    if (toMeasure.length > 0) void yieldToMain().then(() => measureFiles(toMeasure, setPreflightMeasures));
  }

  /**
   * Takes the files of one pick or drop: drops what the rules refuse (one warning per kind),
   * then uploads and parses the rest.
   */
  function uploadPicked(picked: readonly PickedFile[], context: UploadContext): PickOutcome {
    const screened = screenFiles(picked);
    // Each toast is the spec's words and names no file: the files left out are listed with those the parses leave out.
    const leftOut = (files: readonly PickedFile[], toast: string, reason: string) => {
      if (files.length === 0) return;
      context.notify.warning(toast);
      addUnsupportedNotices(files.map((p) => {
        const path = p.relativePath;
        return { fileName: path.slice(path.lastIndexOf('/') + 1), filePath: path, reason, itemName: path.split('/')[0]! };
      }));
    };
    leftOut(screened.wrongType, MSG.wrongFileType, SKIPPED_TYPE);
    // A path too long was named nowhere (LAN walk, 2026-11-30).
    leftOut(screened.tooLong, MSG.pathTooLong, MSG.pathTooLong);
    if (screened.empty.length > 0) {
      const names = screened.empty.slice(0, 3).map((p) => p.relativePath).join('、');
      context.notify.warning(`${MSG.fileBroken}：${names}${screened.empty.length > 3 ? `等${screened.empty.length}个文件` : ''}`);
    }
    let accepted = screened.accepted;
    let resumed = 0;
    if (pickFilter && accepted.length > 0) {
      const split = pickFilter(accepted);
      accepted = split.fresh;
      resumed = split.resume.length;
      if (split.resume.length > 0) void resumeFiles(split.resume, context, split.stored ?? []);
      if (split.linked > 0) context.notify.success(`${split.linked}个文件已上传过，未重新发送`);
    }
    if (accepted.length === 0) return { accepted: resumed, items: 0 };

    const batchId = randomUuid();
    const groups = groupByTopLevel(accepted);
    const newItems: NewUploadItem[] = [];
    const jobs: UploadJob[] = [];
    let fileIndex = 0;
    groups.forEach((group, itemIndex) => {
      const key = `${batchId}/${group.name}`;
      const files = group.files.map((p) => {
        // Unique on the page and within the batch's folderId, which is all the server asks of an
        // identifier; a uuid per file cost 45 ms for a folder of 10,000.
        const id = `${batchId}-${fileIndex}`;
        const size = p.file.size;
        jobs.push({ id, file: p.file, holds: p.holds, relativePath: p.relativePath, batchId, fileNum: accepted.length, fileIndex: fileIndex++, itemIndex });
        return { id, relativePath: p.relativePath, size, lastModified: p.file.lastModified, chunkTotal: chunkCount(size) };
      });
      pickInfo.set(key, { fileNum: accepted.length, itemIndex });
      newItems.push({ key, batchId, name: group.name, isFolder: group.isFolder, filePath: `upload/${batchId}/${group.name}`, files });
    });
    const seq = batchSeq++;
    batches.set(batchId, {
      ...context,
      seq,
      itemKeys: newItems.map((i) => i.key),
      itemOrder: new Map(newItems.map((item, i) => [item.key, i])),
      summaryPending: true,
    });
    addUploadItems(newItems);
    preflight(newItems, jobs, seq);
    addCheckEntries(
      newItems.map((item) => ({
        id: item.key,
        articleName: itemArticleName(item),
        fileName: item.name,
        filePath: item.filePath,
        status: 'start' as const,
        phase: 'uploading' as const,
        uploadItemKey: item.key,
      })),
    );
    // The sending starts in a task of its own: the pick's task (a folder of 10,000 files) ends with
    // the files listed, and the uploader's bookkeeping for them does not lengthen it.
    void yieldToMain().then(() => {
      const { files } = uploadStore.getState();
      uploader.add(jobs.filter((job) => files[job.id]));
    });
    return { accepted: accepted.length + resumed, items: newItems.length };
  }

  /** Restored items whose unfinished files the server is being asked about (restoreItems); a re-pick takes one over. */
  const restoring = new Set<string>();

  /**
   * Puts back the upload items of an earlier page (a restored draft): finished files count as done; the others are
   * asked of the server first (a file that finished after the last save is done), and what is still missing waits to
   * be picked again (its entry says so, with 重新选择). An item whose every file had finished is parsed now. Items
   * already present are left as they are. Settles once every entry says what it lacks, with the number of files still
   * missing (the restore's notice).
   */
  function restoreItems(items: readonly RestoredUploadItem[], context: UploadContext): Promise<number> {
    const fresh = items.filter((item) => !uploadStore.getState().items[item.key] && item.files.length > 0);
    if (fresh.length === 0) return Promise.resolve(0);
    for (const item of fresh) {
      let batch = batches.get(item.batchId);
      if (!batch) {
        batch = { ...context, seq: batchSeq++, itemKeys: [], itemOrder: new Map(), summaryPending: false };
        batches.set(item.batchId, batch);
      }
      batch.itemKeys.push(item.key);
      (batch.itemOrder as Map<string, number>).set(item.key, item.itemIndex);
      pickInfo.set(item.key, { fileNum: item.fileNum, itemIndex: item.itemIndex });
      if (item.choice) restoredChoices.set(item.key, item.choice);
    }
    addUploadItems(fresh.map((item) => ({
      key: item.key, batchId: item.batchId, name: item.name, isFolder: item.isFolder, filePath: item.filePath,
      files: item.files.map((f) => ({ id: f.id, relativePath: f.relativePath, size: f.size, lastModified: f.lastModified ?? undefined, chunkTotal: f.chunkTotal })),
    })));
    for (const item of fresh) {
      for (const f of item.files) {
        patchUploadFile(f.id, f.done ? { status: 'done', bytesDone: f.size } : f.refused ? { status: 'failed', error: f.refused, refused: true } : { status: 'failed', error: UNFINISHED_FILE });
      }
    }
    addCheckEntries(fresh.map((item) => ({
      id: item.key, articleName: itemArticleName(item), fileName: item.name, filePath: item.filePath, uploadItemKey: item.key,
      status: 'start' as const, phase: 'uploading' as const,
    })));
    // A file the draft saved unfinished may have finished before the page went (the save after it had not
    // reached the server): the server is asked before it is listed to be picked again.
    const unsure = fresh.flatMap((item) => item.files.filter((f) => !f.done && !f.refused).map((f) => ({ item, f })));
    if (unsure.length === 0) return Promise.resolve(fresh.reduce((n, item) => n + settleRestored(item), 0));
    for (const item of fresh) restoring.add(item.key);
    return storedChunks(unsure.map(({ item, f }) => ({ folderId: item.batchId, filePath: f.relativePath, size: f.size, chunkTotal: f.chunkTotal })))
      .then((answers) => answers.forEach((answer, i) => {
        const { f } = unsure[i]!;
        if (answer.status === 'done' && answer.result && uploadStore.getState().files[f.id]?.status === 'failed') {
          patchUploadFile(f.id, { status: 'done', result: answer.result, bytesDone: f.size, error: undefined });
        }
      }))
      // Without the answer the files are listed to be picked again, as the draft had them.
      .catch(() => undefined)
      // An item deleted meanwhile, or picked again (resumeFiles took it over), is left as it is.
      .then(() => fresh.reduce((n, item) => n + (restoring.delete(item.key) && uploadStore.getState().items[item.key] ? settleRestored(item) : 0), 0));
  }

  /** A restored item's entry, its files' states known: parsed when every file is done, else what is missing (their number). */
  function settleRestored(item: RestoredUploadItem): number {
    const files = item.files.map((f) => uploadStore.getState().files[f.id]).filter((f) => f !== undefined);
    // A file the server refused stays refused, with its reason: picking it again would not help.
    const unfinished = files.filter((f) => f.status !== 'done' && !f.refused);
    if (unfinished.length === 0) {
      if (files.every((f) => f.status === 'done')) {
        // A product chosen before the reload goes to its works through its 预检 row.
        if (item.choice) preflightRestored(item.key, new Map());
        queueParse(item.key);
      } else showFailedItem(item.key);
      return 0;
    }
    const listed = item.isFolder ? unfinished.map((f) => f.relativePath).sort(naturalCompare).slice(0, FAILED_FILES_LISTED) : [];
    if (item.isFolder && unfinished.length > FAILED_FILES_LISTED) listed.push(`等${unfinished.length}个文件未上传完成`);
    updateCheckEntry(item.key, { status: 'failure', phase: undefined, message: UNFINISHED_UPLOAD, details: listed, retry: 'pick' });
    return unfinished.length;
  }

  /**
   * Sends the files of restored uploads picked again, under their own upload (folderId, path and
   * label), without the chunks the server holds (one call asks for all of them); a file the server
   * completed meanwhile is done at once. `stored`: files of theirs the server has, picked again too (measured
   * for the 预检 row).
   */
  async function resumeFiles(pairs: readonly ResumePick[], context: UploadContext, stored: readonly ResumePick[] = []): Promise<void> {
    const state = uploadStore.getState();
    // A refused file would be refused again.
    const known = pairs.filter((p) => state.files[p.fileId]?.status === 'failed' && !state.files[p.fileId]?.refused);
    if (known.length === 0) return;
    for (const key of new Set(known.map((p) => (state.files[p.fileId] as UploadFileState).itemKey))) {
      updateCheckEntry(key, { status: 'start', phase: 'uploading', message: undefined, details: undefined, retry: undefined });
      const batch = batches.get(state.items[key]?.batchId ?? '');
      if (batch) {
        batch.summaryPending = true;
        batch.notify = context.notify;
      }
    }
    for (const p of known) patchUploadFile(p.fileId, { status: 'queued', error: undefined });
    for (const p of known) restoring.delete((state.files[p.fileId] as UploadFileState).itemKey);
    const picked = new Map([...known, ...stored].map((p) => [p.fileId, p.picked]));
    for (const key of new Set(known.map((p) => (state.files[p.fileId] as UploadFileState).itemKey))) preflightRestored(key, picked);
    const files = known.map((p) => state.files[p.fileId] as UploadFileState);
    let answers: Awaited<ReturnType<typeof storedChunks>>;
    try {
      answers = await storedChunks(files.map((f) => ({ folderId: f.batchId, filePath: f.relativePath, size: f.size, chunkTotal: f.chunkTotal })));
    } catch {
      // Without the answer every chunk is sent: a chunk the server has is taken again harmlessly.
      answers = files.map(() => ({ status: 'none' as const, chunks: [] }));
    }
    const jobs: UploadJob[] = [];
    known.forEach((p, i) => {
      const f = uploadStore.getState().files[p.fileId];
      if (!f) return;
      const answer = answers[i];
      if (answer?.status === 'done' && answer.result) {
        patchUploadFile(f.id, { status: 'done', result: answer.result, bytesDone: f.size });
        onFileSettled(f.id);
        return;
      }
      const info = pickInfo.get(f.itemKey);
      jobs.push({
        id: f.id, file: p.picked.file, holds: p.picked.holds, relativePath: f.relativePath, batchId: f.batchId,
        fileNum: info?.fileNum ?? 1, fileIndex: fileIndexOf(f.id), itemIndex: info?.itemIndex ?? 0,
        acknowledged: answer?.status === 'receiving' ? answer.chunks : [],
      });
    });
    uploader.add(jobs);
  }

  /** 重试 on a failure entry: the upload's failed files (their acknowledged chunks are not sent again), or the parse. */
  function retryEntry(entryId: string): void {
    const state = uploadStore.getState();
    const item = state.items[entryId];
    if (!item) return;
    const failed = failedFilesOf(state, item.key);
    if (failed.length === 0) {
      if (item.filesDone === item.filesTotal) queueParse(item.key);
      return;
    }
    const batch = batches.get(item.batchId);
    if (batch) batch.summaryPending = true;
    // A refused file would be refused again.
    const again = failed.filter((f) => !f.refused);
    if (again.length === 0) return;
    updateCheckEntry(item.key, { status: 'start', phase: 'uploading', message: undefined, details: undefined, retry: undefined });
    uploader.retry(again.map((f) => f.id));
  }

  /** For a folder that failed in part: parse what did arrive, leaving the failed files out. */
  function parseWithoutFailed(entryId: string): void {
    const item = uploadStore.getState().items[entryId];
    if (item && item.filesDone > 0) queueParse(item.key);
  }

  return {
    uploadPicked,
    retryEntry,
    parseWithoutFailed,
    restoreItems,
    /** A draft's say over each pick (features/draft): which files resume an upload, which are stored already. */
    setPickFilter: (filter: PickFilter | null) => {
      pickFilter = filter;
    },
    pickInfoOf: (itemKey: string) => pickInfo.get(itemKey),
    acknowledgedOf: (fileId: string) => uploader.acknowledgedOf(fileId),
  };
}

export type UploadFlow = ReturnType<typeof createUploadFlow>;

/** The upload of `page`: uploadPicked, retryEntry (重试) and parseWithoutFailed. */
export const uploadFlowOf: (page: Batch) => UploadFlow = perBatch(createUploadFlow);
