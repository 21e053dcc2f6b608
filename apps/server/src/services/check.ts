import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import pLimit from 'p-limit';
import { MSG, type StoredFileMeta } from '@portal/contract';
import type { Db } from '../db/client.ts';
import { objectPapers, storedFiles, works } from '../db/schema/index.ts';
import { checkWork, type CheckComponent, type CheckItem, type CheckOutcome, type FileCheckRow } from '../domain/check.ts';
import { kindOf } from '../domain/works.ts';
import { AppError, notFound } from '../errors.ts';
import { perItem } from './per-item.ts';
import { MediaError } from '../media/errors.ts';
import { DENSITY_RULE, readImageMeta } from '../media/image.ts';
import { imageIntegrity } from '../media/integrity.ts';
import { readPdfMeta } from '../media/pdf.ts';
import type { FileStore } from '../storage/file-store.ts';
import { cleanRelativePath } from '../storage/paths.ts';
import type { CatalogueService } from './catalogue.ts';
import type { PreviewService } from './previews.ts';

export type CheckRequest = { propertyConfigId: number; productId: number; filePath: string; checkNumberOfPages?: boolean; workUuid?: string };

export type CheckRowOut = FileCheckRow & { previewUrl: string; previewRelativeUrl: string };
export type CheckAnswer =
  | { state: 200; message: { workUuid: string; resolutionWarning: boolean; addPageNum: number; pageCount: number; fileArea: number; components: CheckOutcome['components']; fileCheckResult: CheckRowOut[]; priceBasis?: 'print' | 'copy' | 'area' } }
  | { state: 400; message: { workUuid: string; fileName: string; status: 'error'; message: { fileCheckResult: CheckRowOut[]; pageCountWarning: boolean; error: true }; messages: Array<{ message: string }> } };

type Meta = StoredFileMeta;
const { checkResult: _stored, ...workColumns } = getTableColumns(works);
/** A work as the check reads it: every column but its stored check result. */
export type CheckedWork = Omit<typeof works.$inferSelect, 'checkResult'>;
const FILE_GONE = '文件不存在，请重新上传';
type FileRow = { id: number; path: string; meta: Meta | null };
/** The columns a check writes into its work (storeOutcomes names them in SQL too). */
type StoredOutcome = { [K in 'productId' | 'propertyConfigId' | 'checkResult' | 'checkPassed' | 'addPageNum' | 'fileArea' | 'pageCount' | 'checkedAt' | 'state']-?: NonNullable<(typeof works.$inferInsert)[K]> };
/**
 * What the checks of one checkFiles call share: the SKU, the works named by uuid (undefined: not the hub's)
 * and their files' rows, read once; and what they learn and decide, written once at the end.
 */
interface Shared {
  spec: { product: Awaited<ReturnType<CatalogueService['checkSpec']>>['product']; config: Awaited<ReturnType<CatalogueService['checkSpec']>>['config']; components: CheckComponent[] };
  works: Map<string, CheckedWork | undefined>;
  files: Map<string, FileRow>;
  learnt: Array<{ id: number; meta: Meta }>;
  outcomes: Array<{ uuid: string } & StoredOutcome>;
}
/** Files of a work looked at together: as many as libuv has threads for file system calls by default. */
const FILE_CONCURRENCY = 4;
/** Learnt metas stored per UPDATE: one JSON parameter each, bounded so that a huge work does not make one huge statement. */
const LEARNT_PER_STATEMENT = 500;
/**
 * Works of one checkFiles call checked at once: each already looks at FILE_CONCURRENCY files at a time,
 * so a few works keep the file system and the database busy without one call taking the whole server
 * (docs/decisions.md, #20 item 5).
 */
const WORKS_AT_ONCE = 4;

/**
 * checkFile: measures a work's files against the chosen SKU's components and stores the outcome with
 * the work, so the order can re-verify it. Measurements come from what was read at upload; what is
 * learnt here (is the image whole, every PDF page's size) is stored so a second check reads nothing.
 */
export function createCheckService(deps: { db: Db; store: FileStore; catalogue: CatalogueService; previews: PreviewService }) {
  const { db, store } = deps;

  // The statements every check runs, prepared once (see catalogue.ts pageStatement). A work is read
  // with every column but the stored outcome of an earlier check: hundreds of rows the check never reads.
  const ph = sql.placeholder;
  const workBy = (key: 'uuid' | 'filePath') => db.select(workColumns).from(works)
    .where(and(eq(works.hubId, ph('hubId')), eq(works[key], ph('key')))).orderBy(desc(works.createdAt)).limit(1)
    .prepare(`check_work_by_${key}`);
  const workByUuid = workBy('uuid');
  const workByPath = workBy('filePath');
  const worksByUuids = db.select(workColumns).from(works)
    .where(and(eq(works.hubId, ph('hubId')), sql`${works.uuid} = any(${ph('uuids')}::uuid[])`))
    .prepare('check_works_by_uuids');
  const filesOfWork = db.select({ id: storedFiles.id, path: storedFiles.path, meta: storedFiles.meta }).from(storedFiles)
    .where(and(eq(storedFiles.hubId, ph('hubId')), sql`${storedFiles.path} = any(${ph('paths')}::text[])`))
    .prepare('check_files_of_work');

  /**
   * Each component's page count from its papers (the lowest minimum and the highest maximum of those
   * that state one): only read for a work that is one PDF, the one case that needs it.
   */
  const paperPages = db.select({
    componentId: objectPapers.componentId,
    min: sql<number | null>`min(${objectPapers.minPageCount})`.mapWith((v: unknown) => (v === null ? null : Number(v))),
    max: sql<number | null>`max(${objectPapers.maxPageCount})`.mapWith((v: unknown) => (v === null ? null : Number(v))),
  }).from(objectPapers).where(sql`${objectPapers.componentId} = any(${ph('ids')}::int[])`).groupBy(objectPapers.componentId)
    .prepare('check_paper_pages');

  async function findWork(hubId: number, filePath: string, uuid?: string, shared?: Shared) {
    if (uuid && shared?.works.has(uuid)) {
      const known = shared.works.get(uuid);
      if (!known) throw notFound('作品不存在，请重新上传');
      return known;
    }
    const [w] = uuid ? await workByUuid.execute({ hubId, key: uuid }) : await workByPath.execute({ hubId, key: cleanRelativePath(filePath) });
    if (!w) throw notFound('作品不存在，请重新上传');
    return w;
  }

  async function sku(hubId: number, productId: number, propertyConfigId: number) {
    const { product, config, components: live } = await deps.catalogue.checkSpec(hubId, productId, propertyConfigId);
    const sizes = config.componentSizes;
    const components: CheckComponent[] = live.map((c) => ({
      id: c.id, uuid: c.uuid, name: c.name, width: sizes[c.uuid]?.width ?? c.width, height: sizes[c.uuid]?.height ?? c.height,
      error: c.error, errorType: c.errorType, autoOrientationDetection: c.autoOrientationDetection,
      resolutionThreshold: c.resolutionThreshold, resolutionLimit: c.resolutionLimit,
    }));
    return { product, config, components };
  }

  /**
   * The measured items of a work: one per image, one per PDF page, in the work's order. Files are
   * looked at a few at a time (a stat, and the first time an image is checked its integrity read),
   * and what was learnt is stored in one statement for the whole work.
   */
  async function measure(hubId: number, files: Array<{ filePath: string; fileName: string; component: string | null }>, shared?: Shared): Promise<CheckItem[]> {
    const paths = files.map((f) => f.filePath);
    const byPath = shared && paths.every((p) => shared.files.has(p)) ? shared.files
      : new Map((paths.length ? await filesOfWork.execute({ hubId, paths }) : []).map((r) => [r.path, r]));
    const learnt: Array<{ id: number; meta: Meta }> = shared?.learnt ?? [];
    const perFile = await pLimit(FILE_CONCURRENCY).map(files, async (f): Promise<CheckItem[]> => {
      const base = { filePath: f.filePath, fileName: f.fileName, folderComponent: f.component };
      const row = byPath.get(f.filePath);
      const kind = kindOf(f.filePath);
      if (!row || !(await store.stat(hubId, f.filePath))) {
        return [kind === 'pdf' ? { ...base, type: 'pdf', page: 1, widthMm: 0, heightMm: 0, broken: FILE_GONE } : { ...base, type: 'image', widthPx: 0, heightPx: 0, dpi: 72, dpiStated: false, broken: FILE_GONE }];
      }
      const meta: Meta = { ...row.meta };
      const items: CheckItem[] = [];
      let changed = false;
      if (kind === 'image') {
        if (meta.dpiRule !== DENSITY_RULE) {
          // Stored before the density rule (JFIF was read before EXIF): the header is read again, once.
          // A file whose header no longer reads keeps what it had; the integrity test below judges it.
          const m = await readImageMeta(store.localPath(hubId, f.filePath)).catch(() => null);
          if (m) Object.assign(meta, { width: m.width, height: m.height, dpi: m.dpi, dpiStated: m.dpiStated });
          meta.dpiRule = DENSITY_RULE;
          changed = true;
        }
        if (meta.intact === undefined) {
          const reason = await imageIntegrity(store.localPath(hubId, f.filePath), f.filePath.toLowerCase().endsWith('.png') ? 'png' : 'jpeg').catch(() => MSG.fileBroken);
          meta.intact = reason === null;
          meta.brokenReason = reason;
          changed = true;
        }
        const w = Number(meta.width) || 0;
        const h = Number(meta.height) || 0;
        const broken = meta.intact === false ? String(meta.brokenReason ?? MSG.fileBroken) : w <= 0 || h <= 0 ? MSG.fileBroken : undefined;
        items.push({ ...base, type: 'image', widthPx: w, heightPx: h, dpi: Number(meta.dpi) || 72, dpiStated: meta.dpiStated === true, broken });
      } else {
        if (!Array.isArray(meta.pageSizes)) {
          try {
            const m = await readPdfMeta(store.localPath(hubId, f.filePath));
            meta.pageSizes = m.pageSizes.map((p) => [p.widthMm, p.heightMm]);
          } catch (err) {
            meta.pageSizes = [];
            meta.brokenReason = err instanceof MediaError ? err.message : MSG.fileBroken;
          }
          changed = true;
        }
        const sizes = meta.pageSizes as Array<[number, number]>;
        if (sizes.length === 0) items.push({ ...base, type: 'pdf', page: 1, widthMm: 0, heightMm: 0, broken: String(meta.brokenReason ?? MSG.fileBroken) });
        sizes.forEach(([w, h], i) => items.push({ ...base, type: 'pdf', page: i + 1, widthMm: w, heightMm: h }));
      }
      if (changed) learnt.push({ id: row.id, meta });
      return items;
    });
    if (!shared) await storeLearnt(learnt);
    return perFile.flat();
  }

  /** Stores the metas learnt by a check, a batch of files per statement. */
  async function storeLearnt(learnt: Array<{ id: number; meta: Meta }>) {
    for (let i = 0; i < learnt.length; i += LEARNT_PER_STATEMENT) {
      const batch = JSON.stringify(learnt.slice(i, i + LEARNT_PER_STATEMENT));
      await db.execute(sql`update ${storedFiles} set meta = v.meta from jsonb_to_recordset(${batch}::jsonb) as v(id integer, meta jsonb) where ${storedFiles.id} = v.id`);
    }
  }

  /** The outcomes of a checkFiles call's works, in one statement. */
  async function storeOutcomes(hubId: number, outcomes: Shared['outcomes']) {
    if (outcomes.length === 0) return;
    const rows = JSON.stringify(outcomes.map((o) => ({
      uuid: o.uuid, product_id: o.productId, property_config_id: o.propertyConfigId, check_result: o.checkResult, check_passed: o.checkPassed,
      add_page_num: o.addPageNum, file_area: o.fileArea, page_count: o.pageCount, checked_at: o.checkedAt.toISOString(), state: o.state,
    })));
    await db.execute(sql`update ${works} set product_id = v.product_id, property_config_id = v.property_config_id, check_result = v.check_result,
      check_passed = v.check_passed, add_page_num = v.add_page_num, file_area = v.file_area, page_count = v.page_count, checked_at = v.checked_at, state = v.state
      from jsonb_to_recordset(${rows}::jsonb) as v(uuid uuid, product_id integer, property_config_id integer, check_result jsonb, check_passed boolean,
        add_page_num integer, file_area double precision, page_count integer, checked_at timestamptz, state text)
      where ${works.uuid} = v.uuid and ${works.hubId} = ${hubId}`);
  }

  function withPreviews(hubId: number, rows: FileCheckRow[]): CheckRowOut[] {
    return rows.map((r) => {
      const l = deps.previews.link(hubId, r.itemPath, r.type === 'pdf' ? r.page : null);
      return { ...r, previewUrl: l.url, previewRelativeUrl: l.relativeUrl };
    });
  }

  /** Runs the check; the outcome is stored with the work unless `dryRun` (the order's re-check). */
  async function check(hubId: number, req: CheckRequest, opts: { dryRun?: boolean; shared?: Shared } = {}): Promise<{ answer: CheckAnswer; outcome: CheckOutcome; work: CheckedWork }> {
    const { shared } = opts;
    const work = await findWork(hubId, req.filePath, req.workUuid, shared);
    const { product, config, components: specComponents } = shared?.spec ?? await sku(hubId, req.productId, req.propertyConfigId);
    // The check sets page counts on its components: its own copies when the SKU's are shared by a batch.
    const components = specComponents.map((c) => ({ ...c }));

    // Each component's page counts: they split a work of one PDF, and bound what a folder gives each component.
    if (components.length > 1) {
      const counts = new Map((await paperPages.execute({ ids: components.map((c) => c.id) })).map((r) => [r.componentId, r]));
      for (const c of components) {
        const n = counts.get(c.id);
        c.pages = n && (n.min !== null || n.max !== null) ? { min: n.min, max: n.max } : null;
      }
    }
    const items = await measure(hubId, work.files, shared);
    const outcome = checkWork(items, components, {
      base: product.pageCount,
      min: config.minPageCount ?? product.minNumberOfPages,
      max: config.maxPageCount ?? product.maxNumberOfPages,
      check: req.checkNumberOfPages !== false,
    });
    // 批量确认使用: a warning the customer accepted for this very file at this dpi (a file fixed or
    // replaced since is another file, and warned again).
    const accepted = outcome.resolutionWarning && outcome.rows.filter((r) => r.resolutionWarning)
      .every((r) => work.resolutionAccepted?.some((a) => a.filePath === r.itemPath && a.dpi === r.resolutionDetect));
    const answerWith = <R extends FileCheckRow>(rows: R[]) => (outcome.pass
      ? { state: 200 as const, message: { workUuid: work.uuid, resolutionWarning: outcome.resolutionWarning, addPageNum: outcome.addPageNum, pageCount: outcome.pageCount, fileArea: outcome.fileArea, components: outcome.components, fileCheckResult: rows, priceBasis: product.priceBasis, ...(accepted ? { resolutionAccepted: true } : {}) } }
      : { state: 400 as const, message: { workUuid: work.uuid, fileName: work.fileName, status: 'error' as const, message: { fileCheckResult: rows, pageCountWarning: outcome.pageCountWarning, error: true as const }, messages: outcome.messages.map((message) => ({ message })) } });
    // Each accepted warning is marked on its row, also where another file fails the work: the triage left such a
    // work's accepted files in 分辨率不足 (LAN walk, 2026-11-30).
    const acceptedRow = (r: FileCheckRow) => r.resolutionWarning && work.resolutionAccepted?.some((a) => a.filePath === r.itemPath && a.dpi === r.resolutionDetect);
    const answer: CheckAnswer = answerWith(withPreviews(hubId, outcome.rows).map((r) => (acceptedRow(r) ? { ...r, resolutionAccepted: true as const } : r)));
    if (!opts.dryRun) {
      const stored = {
        // What is kept of the answer (for the operator; no call reads it back: the page keeps the
        // answer, the order checks again): the verdict, the messages and the rows worth a look (a
        // failure or a resolution warning), without preview links (signed for an hour). Every
        // passing row of a 300-page PDF was 75 KB written on every check: on PGlite that update
        // was a third of the call.
        productId: req.productId, propertyConfigId: req.propertyConfigId,
        checkResult: { ...answerWith(outcome.rows.filter((r) => !r.pass || r.resolutionWarning)), rowsChecked: outcome.rows.length, ...(accepted ? { resolutionAccepted: work.resolutionAccepted } : {}) },
        checkPassed: outcome.pass, addPageNum: outcome.addPageNum, fileArea: outcome.fileArea, pageCount: outcome.pageCount, checkedAt: new Date(),
        state: outcome.pass ? (outcome.resolutionWarning && !accepted ? 'dpiAbnormal' : 'match') : 'abnormal',
      } satisfies StoredOutcome;
      if (shared) shared.outcomes.push({ uuid: work.uuid, ...stored });
      else await db.update(works).set(stored).where(eq(works.uuid, work.uuid));
    }
    return { answer, outcome, work };
  }

  return {
    check,

    /** The measured items of a work's files, as the check reads them (推荐产品 judges the same items: services/suggest.ts). */
    measure,

    /**
     * checkFiles: many works against one SKU, WORKS_AT_ONCE at a time; each result is what check
     * answers for the work, or its AppError (a work that is gone) as checkFile's 4xx would say it.
     * A SKU that cannot be checked against fails the whole call, before any work is read.
     */
    async checkMany(hubId: number, req: { propertyConfigId: number; productId: number; checkNumberOfPages?: boolean; works: Array<{ filePath: string; workUuid?: string }> }) {
      const spec = await sku(hubId, req.productId, req.propertyConfigId);
      // The works named by uuid and their files' rows are read in two statements for the call, and what the
      // checks learn and decide is written in two more at its end, not a few statements per work: on PGlite
      // (one thread) a call of 25 works spent more time on its statements than on its files.
      const uuids = [...new Set(req.works.map((w) => w.workUuid).filter((u): u is string => u !== undefined))];
      const found = uuids.length ? await worksByUuids.execute({ hubId, uuids }) : [];
      const byUuid = new Map<string, CheckedWork | undefined>(uuids.map((u) => [u, undefined]));
      for (const w of found) byUuid.set(w.uuid, w);
      const paths = found.flatMap((w) => w.files.map((f) => f.filePath));
      const rows = paths.length ? await filesOfWork.execute({ hubId, paths }) : [];
      const shared: Shared = { spec, works: byUuid, files: new Map(rows.map((r) => [r.path, r])), learnt: [], outcomes: [] };
      const results = await perItem(req.works, WORKS_AT_ONCE, async (w) => (await check(hubId, { ...req, filePath: w.filePath, workUuid: w.workUuid }, { shared })).answer);
      await storeLearnt(shared.learnt);
      await storeOutcomes(hubId, shared.outcomes);
      return { state: 200 as const, message: { results: results.map((r, i) => ({ filePath: req.works[i]!.filePath, workUuid: req.works[i]!.workUuid ?? null, ...r })) } };
    },


    /**
     * Persists the order of a work's images; an image left out of fileNames leaves the work (its file
     * stays stored). A work with a PDF cannot be sorted.
     */
    async sort(hubId: number, req: { accessPath: string; fileNames: string[]; name?: string; workUuid?: string }) {
      const work = await findWork(hubId, req.accessPath, req.workUuid);
      if (kindOf(work.filePath) === 'pdf' || work.files.some((f) => kindOf(f.filePath) === 'pdf')) throw new AppError(400, 'pdf-sort', MSG.pdfCannotSort);
      const left = [...work.files];
      const named = new Set<string>();
      const ordered = req.fileNames.map((n) => {
        if (named.has(n)) throw new AppError(400, 'repeated-file', `文件重复：${n}`);
        named.add(n);
        const i = left.findIndex((f) => f.filePath === n) >= 0 ? left.findIndex((f) => f.filePath === n) : left.findIndex((f) => f.fileName === n);
        if (i < 0) throw new AppError(400, 'not-in-work', `文件不在作品中：${n}`);
        return left.splice(i, 1)[0]!;
      });
      if (ordered.length === 0) throw new AppError(400, 'empty-work', '作品至少需要保留一个文件');
      const removed = left.length > 0;
      const pageCount = ordered.reduce((s, f) => s + f.pages, 0);
      await db.update(works).set({
        files: ordered, pageCount, ...(req.name?.trim() ? { articleName: req.name.trim() } : {}),
        // Fewer files is a different work: it must be checked again.
        ...(removed ? { state: 'unmatch' as const, checkResult: null, checkPassed: null } : {}),
      }).where(eq(works.uuid, work.uuid));
      return { state: 200 as const, message: { accessPath: work.filePath, workUuid: work.uuid, files: ordered, pageCount, removed: left.map((f) => f.filePath) } };
    },
  };
}
export type CheckService = ReturnType<typeof createCheckService>;
