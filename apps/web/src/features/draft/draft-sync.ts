/**
 * The batch kept on the server as the login's open draft (issue #21 item 3): restored when the batch
 * page first opens, saved while the customer works, closed by 重置 or when the batch empties (the
 * order empties it: payment1 resets the batch, and the server closes the draft with the order).
 *
 * Keep in mind:
 * - saves are coalesced: at most one in flight, the next one SAVE_INTERVAL_MS after a change (or after
 *   the save in flight ended) with the latest state, so a drop of 300 folders saves every 2 s, not per
 *   file event; made only when the batch's structure changed: the rows, the selection, the entries, or
 *   a file's state (done, failed, added, removed); upload progress ticks change none of these;
 * - the document is built cheaply: a row's draft JSON text and a finished file's ledger entry are kept per
 *   state object (rows and files are replaced, never changed), so a save rebuilds only what changed, and
 *   the body is joined and encoded in slices between tasks (lib/json-in-slices.ts): a 2,000-work save is
 *   no long task (issue #20 item 1);
 * - a save records the state it was built from: a change while it is out is saved next;
 * - saves, creation and closing run one after another (one chain): a save never overtakes a close;
 * - a save names the version it changes; a 409 (saved elsewhere, or closed by an order or 重置 in
 *   another tab) stops saving on this page and says so: the page never overwrites another's work. The
 *   order this page placed is no such news: the page lets its draft go first (`ordered`);
 * - the ledger remembers every item this batch uploaded, also after its parse took it off the upload
 *   list, so a restored batch knows which files it has (path, size, modification time) and a re-pick
 *   of the same folder resumes the unfinished ones and sends none of the finished ones. Only files of
 *   a restored draft are matched: within one page, picking a file twice still uploads it twice
 *   (the duplicate dialog's case);
 * - a product chosen on the 预检 row of an item still uploading is kept with the item until it is parsed: a
 *   reload and a re-pick bring the row back with it, and its works get it (it was dropped);
 * - a row's check answer is not kept (its signed links expire); rows left abnormal or with a
 *   resolution warning are checked again when restored, which brings their entries back.
 */
import type { BatchDraftDocument, DraftUploadItem, DraftWork } from '@portal/contract/batch-draft';
import { isApiError } from '../../lib/http.ts';
import { perBatch, type Batch, type UploadFileState, type WorkRow } from '../batch/index.ts';
import { checkFlowOf } from '../file-check/index.ts';
import { uploadFlowOf, type PickedFile, type PickFilter, type ResumePick, type UploadContext } from '../upload/index.ts';
import { discardDraft } from './api/discard-draft.ts';
import { getOpenDraft } from './api/open-draft.ts';
import { createDraft, saveDraft } from './api/save-draft.ts';
import { jsonArrayParts, jsonInSlices } from './lib/json-in-slices.ts';
import { rangesOf } from './lib/ranges.ts';

const SAVE_INTERVAL_MS = 2000;

/** Where the page's draft tells the customer what happened. */
export interface RestoreContext extends UploadContext {
  /** A restored batch, in a few words. */
  info(text: string): void;
  /**
   * The draft changed elsewhere (another tab or computer, an order, 重置): this page saves no more, and
   * the customer must know it until the page is loaded again (a toast went by unread: LAN walk, 2026-11-30).
   */
  stale(text: string): void;
}

interface LedgerItem extends DraftUploadItem {
  /** Came with the restored draft: its files are matched by a re-pick. */
  restored: boolean;
}

/** What the draft feature tells the e2e tests and the bench (`window.__portalDraft` in the e2e build). */
export interface DraftStatus {
  id: number | null;
  version: number;
  saves: number;
  lastBytes: number;
  lastSaveMs: number;
  stopped: boolean;
  restored: boolean;
}

const fingerprint = (relativePath: string, size: number, lastModified: number | null | undefined) => `${relativePath}\n${size}\n${lastModified ?? ''}`;

const draftWorkTexts = new WeakMap<WorkRow, string>();
/** The JSON text of draftWorkOf, once per row object: a save stringifies only the rows that changed since the last. */
function draftWorkTextOf(row: WorkRow): string {
  let text = draftWorkTexts.get(row);
  if (text === undefined) draftWorkTexts.set(row, (text = JSON.stringify(draftWorkOf(row))));
  return text;
}

type LedgerFile = LedgerItem['files'][number];
const doneFiles = new WeakMap<UploadFileState, LedgerFile>();
/** A file's ledger entry; a finished file's is kept per state object (it has no chunk ranges to follow). */
function ledgerFileOf(f: UploadFileState, acknowledged: () => Parameters<typeof rangesOf>[0]): LedgerFile {
  const done = f.status === 'done';
  const cached = done ? doneFiles.get(f) : undefined;
  if (cached) return cached;
  const refused = f.status === 'failed' && f.refused && f.error ? f.error : undefined;
  const entry: LedgerFile = { id: f.id, relativePath: f.relativePath, size: f.size, lastModified: f.lastModified ?? null, chunkTotal: f.chunkTotal, done,
    ...(done ? {} : refused ? { refused } : { chunks: rangesOf(acknowledged()) }) };
  if (done) doneFiles.set(f, entry);
  return entry;
}

/** The row as the draft keeps it: without the check's detailed answer, with what its price counts. */
function draftWorkOf(row: WorkRow): DraftWork {
  const { checkResult, ...rest } = row;
  const basis = (checkResult as { priceBasis?: WorkRow['priceBasis'] } | null | undefined)?.priceBasis;
  return { ...rest, files: [...rest.files], components: rest.components ? [...rest.components] : rest.components,
    orderLocations: rest.orderLocations ? [...rest.orderLocations] : rest.orderLocations, priceBasis: rest.priceBasis ?? basis ?? null };
}

/** `upload/<folderId>/<item>` of a row's path, and `unzip/<folderId>` for works from a zip. */
function rootsOf(rows: readonly WorkRow[]): Set<string> {
  const roots = new Set<string>();
  for (const row of rows) {
    const parts = row.filePath.split('/');
    if (parts[0] === 'unzip') roots.add(parts.slice(0, 2).join('/'));
    else roots.add(parts.slice(0, 3).join('/'));
  }
  return roots;
}
const hasRows = (item: DraftUploadItem, roots: Set<string>) => roots.has(item.filePath) || roots.has(`unzip/${item.batchId}`);

function createDraftSync(batch: Batch) {
  const { worksStore, uploadStore, checkEntriesStore, preflightStore, addWorks, setSelectedWorks, onCheckEntriesRemoved } = batch;
  const flow = uploadFlowOf(batch);
  const ledger = new Map<string, LedgerItem>();
  // An item whose entry the customer deleted before it became rows (a failed upload or parse) leaves the
  // ledger at once: the upload flow deletes its stored files. Judged later by its rows, an item of a zip
  // passed for parsed whenever another zip of the same pick had rows (their rows are all under
  // unzip/<folderId>), and picking it again after a reload sent nothing and showed nothing (LAN check, 2026-11-29).
  onCheckEntriesRemoved((removed) => {
    for (const entry of removed) if (entry.uploadItemKey && entry.status !== 'success') ledger.delete(entry.uploadItemKey);
  });
  const status: DraftStatus = { id: null, version: 0, saves: 0, lastBytes: 0, lastSaveMs: 0, stopped: false, restored: false };
  let context: RestoreContext | null = null;
  let chain: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** A save is queued on the chain or in flight: changes meanwhile wait for it, then one save takes them all. */
  let saving = false;
  let lastSignature: unknown[] = [];
  let restoring: Promise<void> | null = null;
  /** One more each time the page lets its draft go (`ordered`): a save that was out meanwhile was for a draft closed since. */
  let generation = 0;

  /** What a save depends on; upload progress is not part of it. */
  function signature(): unknown[] {
    const w = worksStore.getState();
    const u = uploadStore.getState();
    return [w.rows, w.selectedKeys, checkEntriesStore.getState().ids, u.overall.filesTotal, u.overall.filesDone, u.overall.filesFailed, Object.keys(u.items).length, choicesOf(), status.id];
  }

  /** The products chosen on 预检 rows, in a few words: a choice is saved (its measures are not). */
  function choicesOf(): string {
    const { keys, items } = preflightStore.getState();
    return keys.map((k) => {
      const product = items[k]?.choice?.product;
      return product ? `${k}\t${product.productId}\t${product.propertyConfigId}` : '';
    }).filter(Boolean).join('\n');
  }
  const sameSignature = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

  /** Brings the ledger up to the upload list: items on it as they are now, items gone kept only while their works are rows. */
  function syncLedger(): void {
    const { items, files } = uploadStore.getState();
    const entries = checkEntriesStore.getState().byId;
    const preflight = preflightStore.getState().items;
    for (const item of Object.values(items)) {
      const info = flow.pickInfoOf(item.key);
      const before = ledger.get(item.key);
      // The product chosen on its 预检 row; a restored item waiting to be picked again has no row, and keeps the draft's.
      const choice = preflight[item.key]?.choice ?? before?.choice;
      ledger.set(item.key, {
        key: item.key, batchId: item.batchId, name: item.name, isFolder: item.isFolder, filePath: item.filePath,
        fileNum: info?.fileNum ?? item.fileIds.length, itemIndex: info?.itemIndex ?? 0,
        parsed: entries[item.key]?.status === 'success', restored: before?.restored ?? false,
        files: item.fileIds.flatMap((id) => {
          const f = files[id];
          return f ? [ledgerFileOf(f, () => flow.acknowledgedOf(f.id))] : [];
        }),
        ...(choice ? { choice } : {}),
      });
    }
    const roots = rootsOf(worksStore.getState().rows);
    for (const [key, item] of ledger) {
      if (items[key]) continue;
      // Off the list: parsed into rows (kept while a row comes from it), or deleted by the customer.
      if (item.files.every((f) => f.done) && hasRows(item, roots)) {
        item.parsed = true;
        // Its works have the product now.
        delete item.choice;
      } else ledger.delete(key);
    }
  }

  /**
   * The save's body, `{"version":…,"document":{…}}` (BatchDraftDocument; no version when it creates the
   * draft), as of now: the rows and the ledger are taken at once, their JSON is written in slices
   * between tasks (with 2,000 works it is 1.7 MB, a long task in one piece).
   */
  function bodyNow(version: number | null): { empty: boolean; body: () => Promise<Blob> } {
    const w = worksStore.getState();
    const uploads = [...ledger.values()].map(({ restored: _restored, ...item }) => item);
    function* parts(): Generator<string> {
      yield `{${version === null ? '' : `"version":${version},`}"document":{"format":1,"selectedKeys":${JSON.stringify(w.selectedKeys)},"works":`;
      yield* jsonArrayParts(w.rows, draftWorkTextOf);
      yield ',"uploads":';
      yield* jsonArrayParts(uploads, (item) => JSON.stringify(item));
      yield '}}';
    }
    return { empty: w.rows.length === 0 && uploads.length === 0, body: () => jsonInSlices(parts()) };
  }

  function notifyWarning(text: string) {
    context?.notify.warning(text);
  }

  async function flush(): Promise<void> {
    if (status.stopped || !status.restored) return;
    const sig = signature();
    if (sameSignature(sig, lastSignature)) return;
    syncLedger();
    const { empty, body } = bodyNow(status.id === null ? null : status.version);
    const started = performance.now();
    const since = generation;
    try {
      if (empty) {
        if (status.id !== null) await discardDraft(status.id);
        status.id = null;
        status.version = 0;
      } else if (status.id === null) {
        const saved = await createDraft(await body());
        // Opened after the order closed the open one: it holds the ordered batch, which must not come back.
        if (since !== generation) {
          await discardDraft(saved.id).catch(() => undefined);
          return;
        }
        Object.assign(status, { id: saved.id, version: saved.version, lastBytes: saved.bytes });
      } else {
        const saved = await saveDraft(status.id, await body());
        if (since !== generation) return;
        Object.assign(status, { version: saved.version, lastBytes: saved.bytes });
      }
      status.saves++;
      status.lastSaveMs = performance.now() - started;
      // What was saved is the state of `sig`; a change while the save was out is saved next (the finally of schedule).
      lastSignature = [...sig.slice(0, -1), status.id];
    } catch (error) {
      // The order placed meanwhile closed the draft this save was for: its 409 is no news to this page.
      if (since !== generation) return;
      if (isApiError(error) && error.status === 409) {
        status.stopped = true;
        context?.stale(error.message);
      } else if (isApiError(error) && (error.status === 401 || error.status === 404)) {
        // Logged out, or the draft is not this login's (another customer logged in on this page): this page saves no more.
        status.stopped = true;
      } else if (isApiError(error) && error.status === 413) {
        // Not tried again until the batch changes.
        lastSignature = sig;
        notifyWarning(error.message);
      } else {
        // The network or the server: the next change, or this timer, tries again.
        schedule();
      }
    }
  }

  function schedule(): void {
    if (timer !== undefined || saving || status.stopped || !status.restored) return;
    timer = setTimeout(() => {
      timer = undefined;
      saving = true;
      chain = chain.then(flush).finally(() => {
        saving = false;
        // What changed while this save was out (or a failed save): one more save, SAVE_INTERVAL_MS on.
        if (!sameSignature(signature(), lastSignature)) schedule();
      });
    }, SAVE_INTERVAL_MS);
  }

  /** Matches a pick against the restored draft's files: unfinished ones resume, finished ones whose works are rows are not sent. */
  const pickFilter: PickFilter = (picked: readonly PickedFile[]) => {
    syncLedger();
    const known = new Map<string, { id: string; item: LedgerItem }>();
    for (const item of ledger.values()) {
      if (!item.restored) continue;
      for (const f of item.files) known.set(fingerprint(f.relativePath, f.size, f.lastModified), { id: f.id, item });
    }
    if (known.size === 0) return { fresh: [...picked], resume: [], linked: 0 };
    const live = uploadStore.getState().files;
    const roots = rootsOf(worksStore.getState().rows);
    const fresh: PickedFile[] = [];
    const resume: ResumePick[] = [];
    const stored: ResumePick[] = [];
    let linked = 0;
    for (const p of picked) {
      const hit = known.get(fingerprint(p.relativePath, p.file.size, p.file.lastModified));
      const state = hit && live[hit.id];
      if (hit && state?.status === 'failed') resume.push({ fileId: hit.id, picked: p });
      else if (hit && state) {
        linked++;
        stored.push({ fileId: hit.id, picked: p });
      }
      else if (hit && hit.item.parsed && hasRows(hit.item, roots)) linked++;
      else fresh.push(p);
    }
    return { fresh, resume, linked, stored };
  };

  /** Puts the draft's batch on the page: rows, selection, uploads (unfinished ones wait for a re-pick); rows that failed their check, or whose check had not answered, are checked again. */
  function apply(document: BatchDraftDocument, customerHubId: number): { works: number; unfinished: Promise<number> } {
    const rows = document.works as WorkRow[];
    addWorks(rows);
    const uuids = new Set(rows.map((r) => r.uuid));
    setSelectedWorks(document.selectedKeys.filter((k) => uuids.has(k)));
    const roots = rootsOf(rows);
    const onList: DraftUploadItem[] = [];
    for (const item of document.uploads) {
      const stays = !(item.parsed && item.files.every((f) => f.done) && hasRows(item, roots));
      if (stays) onList.push(item);
      ledger.set(item.key, { ...item, restored: true });
    }
    // Counted once the server has said which of the files it has: the draft's last save may have been made before
    // some finished (LAN walk, 2026-11-30: 30个文件未上传完成 said for an entry that listed 22).
    const unfinished = context && onList.length > 0 ? flow.restoreItems(onList, context) : Promise.resolve(0);
    // Failed checks, and checks under a chosen SKU that had not answered when the draft was saved.
    const unsettled = (r: WorkRow) => r.state === 'abnormal' || r.state === 'dpiAbnormal' || (r.state === 'unmatch' && r.propertyConfigId != null && r.productId != null);
    const recheck = rows.filter(unsettled).map((r) => r.uuid);
    if (recheck.length > 0) void checkFlowOf(batch).recheckWorks(recheck, customerHubId, { quiet: true });
    return { works: rows.length, unfinished };
  }

  /**
   * The batch page opening: the login's open draft onto the page (unless the page has a batch
   * already: it came back from /payment1, whose rows it keeps and saves over the draft), then saving
   * starts. Once per batch.
   */
  function restore(customerHubId: number, ctx: RestoreContext): Promise<void> {
    context = ctx;
    restoring ??= (async () => {
      flow.setPickFilter(pickFilter);
      let draft = null;
      try {
        draft = await getOpenDraft();
      } catch {
        // Unreadable now: the page starts empty; a later save will find the open draft (409) and say so.
      }
      if (draft) {
        status.id = draft.id;
        status.version = draft.version;
        const page = worksStore.getState().rows.length > 0 || Object.keys(uploadStore.getState().items).length > 0;
        if (!page) {
          const restored = apply(draft.document, customerHubId);
          void restored.unfinished.then((unfinished) => {
            if (restored.works > 0 || unfinished > 0) {
              // 0个作品 said nothing a customer could use while the files of the only folder were still missing.
              const parts = [restored.works > 0 ? `${restored.works}个作品` : '', unfinished > 0 ? `${unfinished}个文件未上传完成，请重新选择这些文件继续上传` : ''];
              ctx.info(`已恢复未完成的批量订单：${parts.filter(Boolean).join('，')}`);
            }
          });
          syncLedger();
          lastSignature = signature();
        } else {
          for (const item of draft.document.uploads) if (item.parsed) ledger.set(item.key, { ...item, restored: true });
        }
      }
      status.restored = true;
      for (const store of [worksStore, uploadStore, checkEntriesStore, preflightStore] as const) store.subscribe(schedule);
      schedule();
    })();
    return restoring;
  }

  /**
   * The batch is ordered (/payment1): the server closed the open draft with the order, so the page lets it
   * go at once. A save still out finds it closed (409), and is not told to the customer as a change made
   * elsewhere; the next batch opens a draft of its own.
   */
  function ordered(): void {
    generation++;
    letGo();
  }

  /** 重置: the draft is closed on the server now, and the ledger forgotten. */
  function discard(): Promise<void> {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    chain = chain.then(async () => {
      const id = letGo();
      lastSignature = signature();
      if (id !== null && !status.stopped) await discardDraft(id).catch(() => undefined);
    });
    return chain;
  }

  /** The page holds no draft any more: no save waits, the ledger is forgotten; answers the draft's id it held. */
  function letGo(): number | null {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    ledger.clear();
    const id = status.id;
    status.id = null;
    status.version = 0;
    return id;
  }

  return { restore, discard, ordered, status: (): DraftStatus => ({ ...status }) };
}

export type DraftSync = ReturnType<typeof createDraftSync>;

/** The server draft of `batch`: restore (once, when the batch page opens), discard (重置), status. */
export const draftSyncOf: (batch: Batch) => DraftSync = perBatch(createDraftSync);
