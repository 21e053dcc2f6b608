import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import pLimit from 'p-limit';
import { fixedPathOf, MSG, type BulkFixResult, type FillPosition, type FixDone, type FixedWork, type FixItem, type FixPlanRow, type FixSample, type ResolutionAcceptance } from '@portal/contract';
import type { Db } from '../db/client.ts';
import { fileFixes, storedFiles, works, type WorkFile } from '../db/schema/index.ts';
import type { FileCheckRow } from '../domain/check.ts';
import { planFix, type FixPlan } from '../domain/fix-plan.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { DENSITY_RULE } from '../media/image.ts';
import sharp from '../media/sharp.ts';
import { fixImage, fixSample, formatOf, type FixPixels } from '../media/transform.ts';
import type { TaskContext } from '../jobs/runner.ts';
import type { FileStore } from '../storage/file-store.ts';
import { cleanRelativePath } from '../storage/paths.ts';
import type { CheckService } from './check.ts';
import type { OrderedPaths } from './ordered-paths.ts';
import type { PreviewService } from './previews.ts';

export type BulkFixJob = { items: FixItem[]; position: FillPosition };

/**
 * Pictures made at once: as many as the cores hold pipelines of sharp's threads (sharp.concurrency, 1 with glibc's
 * allocator). More at once only share the same cores, hold more decoded pictures and take the libuv threads the
 * server's file calls need (sharp works on that pool too).
 */
const FIX_CONCURRENCY = Math.max(1, Math.floor(availableParallelism() / sharp.concurrency()));
/** Stored files inserted per statement. */
const ROWS_PER_INSERT = 500;
/** Works checked at once (as the check's own FILE_CONCURRENCY). */
const CHECK_CONCURRENCY = 4;
/** Samples shown before applying, and their long side in pixels. */
const SAMPLES = 3;
const SAMPLE_SIDE = 360;
const NEEDS_SKU = '请先选择产品并校验，再修复文件';
const NOT_IN_WORK = '文件不在作品中';
const LAST_FILE = '作品只剩这一个文件，请在订单列表中删除整个作品';

type Work = typeof works.$inferSelect;
type Planned = { item: FixItem; index: number; work: Work; file: WorkFile; row: FileCheckRow | null; plan: FixPlan };

/** A uuid made from a seed, so a task re-run after a restart makes the same fixes, not new ones. */
function stableUuid(seed: string) {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Fixing files in bulk (issue #20 item 2). Keep in mind:
 * - what a fix does is decided by the work's own check (the file's component, verdict and warnings), run
 *   again just before: domain/fix-plan.ts turns it into sizes, media/transform.ts into pixels;
 * - a fixed picture is a new stored file under `fixes/<fix id>/`; the work points to it and the file it
 *   replaced stays where it was, so undo only points the work back (and removes the fixed file);
 * - the task is idempotent: fix ids come from the task id and the item's place, and a fix already
 *   recorded is not made again;
 * - every work touched is checked again on the server, so its state (已匹配, 分辨率异常, 异常) is the
 *   check's, never the fix's claim.
 */
export function createBulkFixService(deps: {
  db: Db; store: FileStore; check: CheckService; previews: PreviewService; ordered: OrderedPaths;
  enqueue: (hubId: number, name: 'bulk-fix', payload: BulkFixJob) => Promise<string>;
  getTask: (hubId: number, id: string) => Promise<{ name: string; status: string; progressDone: number; progressTotal: number; result: Record<string, unknown> | null; error: string | null } | undefined>;
}) {
  const { db, store } = deps;

  /** The works of the items, of this hub only (another hub's work is not found), and each item's file in its work. */
  async function resolve(hubId: number, items: FixItem[]) {
    const keys = new Set(items.map((i) => `${i.workUuid}\n${i.filePath}`));
    if (keys.size < items.length) throw badRequest('同一个文件只能选择一种修复', 'duplicate-fix');
    const uuids = [...new Set(items.map((i) => i.workUuid))];
    const found = new Map<string, Work>();
    for (let i = 0; i < uuids.length; i += 500) {
      for (const w of await db.select().from(works).where(and(eq(works.hubId, hubId), inArray(works.uuid, uuids.slice(i, i + 500))))) found.set(w.uuid, w);
    }
    return items.map((item, index) => {
      const work = found.get(item.workUuid);
      if (!work) throw notFound('作品不存在，请重新上传');
      const path = cleanRelativePath(item.filePath);
      const file = work.files.find((f) => f.filePath === path);
      if (!file) throw badRequest(`${NOT_IN_WORK}：${item.filePath}`, 'not-in-work');
      return { item: { ...item, filePath: path }, index, work, file };
    });
  }

  /** Each item's plan, from a fresh check of its work against the work's SKU (not stored: a dry run). */
  async function planAll(hubId: number, items: FixItem[]): Promise<Planned[]> {
    const resolved = await resolve(hubId, items);
    const byWork = new Map(resolved.map((r) => [r.work.uuid, r.work]));
    const rowsOf = new Map<string, FileCheckRow[] | null>();
    await pLimit(CHECK_CONCURRENCY).map([...byWork.values()], async (w) => {
      if (w.productId === null || w.propertyConfigId === null) return void rowsOf.set(w.uuid, null);
      const { outcome } = await deps.check.check(hubId, { workUuid: w.uuid, filePath: '', productId: w.productId, propertyConfigId: w.propertyConfigId }, { dryRun: true });
      rowsOf.set(w.uuid, outcome.rows);
    });
    const paths = [...new Set(resolved.map((r) => r.item.filePath))];
    const metas = new Map<string, { width: number; height: number; dpi: number }>();
    for (let i = 0; i < paths.length; i += 500) {
      const part = await db.select({ path: storedFiles.path, meta: storedFiles.meta }).from(storedFiles).where(and(eq(storedFiles.hubId, hubId), inArray(storedFiles.path, paths.slice(i, i + 500))));
      // A damaged picture (found by the check) has no pixels to fix: no size at all.
      for (const f of part) {
        const whole = f.meta?.intact !== false;
        metas.set(f.path, { width: whole ? Number(f.meta?.width) || 0 : 0, height: whole ? Number(f.meta?.height) || 0 : 0, dpi: Number(f.meta?.dpi) || 72 });
      }
    }
    return resolved.map((r) => {
      const rows = rowsOf.get(r.work.uuid);
      const row = rows?.find((x) => x.itemPath === r.item.filePath) ?? null;
      const m = metas.get(r.item.filePath) ?? { width: 0, height: 0, dpi: 72 };
      let plan: FixPlan;
      if (r.item.kind === 'delete') plan = planFix('delete', { widthPx: m.width, heightPx: m.height, dpi: m.dpi, row: row! });
      else if (!row) plan = { ok: false, reason: NEEDS_SKU, pixels: null, before: null, after: null, cutShare: 0, padShare: 0, stillWarned: false };
      else plan = planFix(r.item.kind, { widthPx: m.width, heightPx: m.height, dpi: m.dpi, row });
      return { ...r, row, plan };
    });
  }

  const planRow = (p: Planned): FixPlanRow => ({
    workUuid: p.work.uuid, articleName: p.work.articleName, filePath: p.item.filePath, fileName: p.file.fileName, kind: p.item.kind,
    ok: p.plan.ok, reason: p.plan.reason, before: p.plan.before, after: p.plan.after, cutShare: p.plan.cutShare, padShare: p.plan.padShare, stillWarned: p.plan.stillWarned,
  });

  /** The row of an item whose fix a run before a restart recorded: what the record says it did. */
  const doneRow = (item: FixItem, fix: typeof fileFixes.$inferSelect, articleName: string): FixDone => {
    const d = (fix.detail ?? {}) as { before?: FixPlanRow['before']; after?: FixPlanRow['after']; cutShare?: number; padShare?: number; file?: WorkFile };
    return {
      workUuid: fix.workUuid, articleName, filePath: fix.filePath, fileName: d.file?.fileName ?? fix.filePath.slice(fix.filePath.lastIndexOf('/') + 1),
      kind: item.kind, ok: true, reason: null, before: d.before ?? null, after: d.after ?? null, cutShare: d.cutShare ?? 0, padShare: d.padShare ?? 0,
      stillWarned: false, fixId: fix.id, newPath: fix.fixedPath,
    };
  };

  const pixelsOf = (p: FixPlan, position: FillPosition): FixPixels | null =>
    !p.pixels ? null : p.pixels.kind === 'rotate' || p.pixels.kind === 'pad' ? p.pixels : p.pixels.kind === 'fill' ? { ...p.pixels, kind: 'fill', position } : { ...p.pixels, kind: 'fit' };

  /**
   * Writes one fixed picture as a new file; what it is (its pixels as sharp wrote them, the density stated)
   * comes back for the stored file's row, which the work's transaction inserts with the work's other fixes.
   */
  async function makeFixed(hubId: number, p: Planned, fixId: string, position: FillPosition) {
    const newPath = fixedPathOf(fixId, p.file.fileName);
    const dpi = p.plan.after!.dpi;
    let fixed: Awaited<ReturnType<typeof fixImage>>;
    try {
      fixed = await fixImage(store.localPath(hubId, p.item.filePath), pixelsOf(p.plan, position)!, formatOf(p.item.filePath), dpi);
    } catch {
      // sharp could not read the picture (damaged past its header): the file is left as it is.
      return null;
    }
    const size = await store.write(hubId, newPath, fixed.bytes);
    return { newPath, width: fixed.width, height: fixed.height, dpi, size };
  }

  /** Checks works again against their SKUs and stores the outcome; a work without a SKU stays as it is. */
  async function recheck(hubId: number, uuids: string[]): Promise<FixedWork[]> {
    return pLimit(CHECK_CONCURRENCY).map(uuids, async (uuid): Promise<FixedWork> => {
      const [w] = await db.select({ state: works.state, productId: works.productId, propertyConfigId: works.propertyConfigId, files: works.files }).from(works).where(and(eq(works.hubId, hubId), eq(works.uuid, uuid)));
      if (!w || w.productId === null || w.propertyConfigId === null) return { uuid, state: w?.state ?? 'unmatch', checked: false, files: w?.files ?? [] };
      await deps.check.check(hubId, { workUuid: uuid, filePath: '', productId: w.productId, propertyConfigId: w.propertyConfigId });
      const [after] = await db.select({ state: works.state }).from(works).where(eq(works.uuid, uuid));
      return { uuid, state: after!.state, checked: true, files: w.files };
    });
  }

  return {
    /** What each fix would do, and a few samples (before and after pictures) to look at before applying. */
    async preview(hubId: number, body: { items: FixItem[]; position: FillPosition }) {
      const planned = await planAll(hubId, body.items);
      // One sample of each kind first, then more of the kinds there are, up to SAMPLES.
      const candidates = planned.filter((p) => p.plan.ok && p.plan.pixels);
      const chosen: Planned[] = [];
      for (const kind of ['fill', 'fit', 'rotate'] as const) {
        const first = candidates.find((p) => p.item.kind === kind);
        if (first && chosen.length < SAMPLES) chosen.push(first);
      }
      for (const p of candidates) if (chosen.length < SAMPLES && !chosen.includes(p)) chosen.push(p);
      const samples: FixSample[] = [];
      for (const p of chosen) {
        try {
          const after = await fixSample(store.localPath(hubId, p.item.filePath), pixelsOf(p.plan, body.position)!, SAMPLE_SIDE);
          samples.push({
            filePath: p.item.filePath, fileName: p.file.fileName, kind: p.item.kind, beforeUrl: deps.previews.link(hubId, p.item.filePath, null).url,
            afterUrl: `data:image/jpeg;base64,${after.toString('base64')}`, cutShare: p.plan.cutShare, padShare: p.plan.padShare,
          });
        } catch {
          // A file that cannot be read shows no sample; the task says 文件破损 for it.
        }
      }
      return { state: 200 as const, message: { rows: planned.map(planRow), samples } };
    },

    /** Checks the request (scope, paths) at once, then applies it as a long task. */
    async start(hubId: number, body: { items: FixItem[]; position: FillPosition }) {
      await resolve(hubId, body.items);
      const taskId = await deps.enqueue(hubId, 'bulk-fix', { items: body.items, position: body.position });
      return { state: 100 as const, message: { taskId } };
    },

    async status(hubId: number, taskId: string) {
      const t = await deps.getTask(hubId, taskId);
      if (!t || t.name !== 'bulk-fix') throw notFound('任务不存在');
      const status = t.status === 'queued' ? 'running' as const : t.status as 'running' | 'finished' | 'failed';
      return {
        state: 200 as const,
        message: { status, progress: { done: t.progressDone, total: t.progressTotal }, result: status === 'finished' ? (t.result as BulkFixResult) : null, error: t.error },
      };
    },

    /** The task's handler: the pictures in parallel (bounded), then each work's pointers, then each work's check. */
    async runJob(payload: BulkFixJob, ctx: TaskContext): Promise<BulkFixResult & Record<string, unknown>> {
      const { hubId } = ctx;
      const idAt = (index: number) => stableUuid(`${ctx.taskId}:${index}`);
      const fixIdOf = (p: Planned) => idAt(p.index);
      const already = new Map((await db.select().from(fileFixes).where(and(eq(fileFixes.hubId, hubId), eq(fileFixes.taskId, ctx.taskId)))).map((f) => [f.id, f]));
      // A run after a restart plans only the items whose fix is not recorded yet: a recorded one's work points to
      // its fixed file already, and planned again it was 文件不在作品中, which failed the whole task (crash probe).
      const todo: Array<{ item: FixItem; index: number }> = [];
      const recorded: Array<{ item: FixItem; index: number; fix: typeof fileFixes.$inferSelect }> = [];
      payload.items.forEach((item, index) => {
        const fix = already.get(idAt(index));
        if (fix) recorded.push({ item, index, fix });
        else todo.push({ item, index });
      });
      const planned = (await planAll(hubId, todo.map((t) => t.item))).map((p, i) => ({ ...p, index: todo[i]!.index }));
      const workIds = [...new Set([...planned.map((p) => p.work.uuid), ...recorded.map((r) => r.fix.workUuid)])];
      const total = payload.items.length + workIds.length;
      let done = recorded.length;
      ctx.progress(done, total);

      // Every index is filled below: by its plan, or by its record.
      const out: FixDone[] = [];
      for (const p of planned) out[p.index] = { ...planRow(p), fixId: null, newPath: null };
      const names = new Map(recorded.length
        ? (await db.select({ uuid: works.uuid, name: works.articleName }).from(works).where(and(eq(works.hubId, hubId), inArray(works.uuid, [...new Set(recorded.map((r) => r.fix.workUuid))])))).map((w) => [w.uuid, w.name])
        : []);
      for (const { index, item, fix } of recorded) out[index] = doneRow(item, fix, names.get(fix.workUuid) ?? '');
      const made = new Map<number, NonNullable<Awaited<ReturnType<typeof makeFixed>>>>();
      await pLimit(FIX_CONCURRENCY).map(planned, async (p) => {
        const before = already.get(fixIdOf(p));
        if (p.plan.ok && p.plan.pixels && !before) {
          const m = await makeFixed(hubId, p, fixIdOf(p), payload.position);
          if (m) made.set(p.index, m);
          else out[p.index] = { ...out[p.index]!, ok: false, reason: MSG.fileBroken };
        }
        ctx.progress(++done, total);
      });

      // Each work's files, changed in one statement per work, with the fixed files' rows and the fixes' records.
      for (const uuid of workIds) {
        const mine = planned.filter((p) => p.work.uuid === uuid && out[p.index]!.ok);
        if (mine.length === 0) continue;
        await db.transaction(async (tx) => {
          const [w] = await tx.select().from(works).where(and(eq(works.hubId, hubId), eq(works.uuid, uuid))).for('update');
          if (!w) return;
          const files = [...w.files];
          let accepted = [...(w.resolutionAccepted ?? [])];
          const records: Array<typeof fileFixes.$inferInsert> = [];
          const newFiles: Array<typeof storedFiles.$inferInsert> = [];
          for (const p of mine) {
            const fixId = fixIdOf(p);
            const prior = already.get(fixId);
            if (prior) {
              out[p.index] = { ...out[p.index]!, fixId, newPath: prior.fixedPath };
              continue;
            }
            const at = files.findIndex((f) => f.filePath === p.item.filePath);
            if (at < 0) {
              out[p.index] = { ...out[p.index]!, ok: false, reason: NOT_IN_WORK };
              continue;
            }
            const detail: Record<string, unknown> = { before: p.plan.before, after: p.plan.after, cutShare: p.plan.cutShare, padShare: p.plan.padShare, file: files[at], index: at };
            let fixedPath: string | null = null;
            if (p.item.kind === 'delete') {
              if (files.length === 1) {
                out[p.index] = { ...out[p.index]!, ok: false, reason: LAST_FILE };
                continue;
              }
              files.splice(at, 1);
            } else if (p.item.kind === 'accept') {
              const a: ResolutionAcceptance = { filePath: p.item.filePath, dpi: p.row?.resolutionDetect ?? null, threshold: p.row?.resolutionThreshold ?? 0, acceptedAt: new Date().toISOString() };
              accepted = [...accepted.filter((x) => x.filePath !== a.filePath), a];
            } else {
              const m = made.get(p.index)!;
              fixedPath = m.newPath;
              files[at] = { ...files[at]!, filePath: m.newPath, width: m.width, height: m.height, dpi: m.dpi };
              newFiles.push({ hubId, path: m.newPath, kind: 'image', size: m.size,
                meta: { width: m.width, height: m.height, dpi: m.dpi, dpiStated: true, dpiRule: DENSITY_RULE, intact: true } });
            }
            records.push({ id: fixId, hubId, taskId: ctx.taskId, workUuid: uuid, kind: p.item.kind, filePath: p.item.filePath, fixedPath, detail });
            out[p.index] = { ...out[p.index]!, fixId, newPath: fixedPath };
          }
          for (let i = 0; i < newFiles.length; i += ROWS_PER_INSERT) {
            await tx.insert(storedFiles).values(newFiles.slice(i, i + ROWS_PER_INSERT))
              .onConflictDoUpdate({ target: [storedFiles.hubId, storedFiles.path], set: { size: sql`excluded.size`, meta: sql`excluded.meta` } });
          }
          if (records.length) await tx.insert(fileFixes).values(records).onConflictDoNothing();
          await tx.update(works).set({ files, pageCount: files.reduce((s, f) => s + f.pages, 0), resolutionAccepted: accepted.length ? accepted : null }).where(eq(works.uuid, uuid));
        });
      }

      const checked: FixedWork[] = [];
      await pLimit(CHECK_CONCURRENCY).map(workIds, async (uuid) => {
        checked.push(...(await recheck(hubId, [uuid])));
        ctx.progress(++done, total);
      });
      return { items: out, works: workIds.map((u) => checked.find((c) => c.uuid === u)!) };
    },

    /**
     * Undoes fixes (by id, or every fix of a task), newest first: the work points to the file it had
     * again (a deleted file goes back to its place, an acceptance is withdrawn), the fixed file is
     * removed, and the works are checked again.
     */
    async undo(hubId: number, body: { fixIds?: string[]; taskId?: string }) {
      const which = [
        ...(body.fixIds?.length ? [inArray(fileFixes.id, body.fixIds)] : []),
        ...(body.taskId ? [eq(fileFixes.taskId, body.taskId)] : []),
      ];
      const fixes = await db.select().from(fileFixes)
        .where(and(eq(fileFixes.hubId, hubId), eq(fileFixes.status, 'applied'), or(...which)))
        .orderBy(desc(fileFixes.createdAt));
      if (fixes.length === 0) throw notFound('没有可撤销的修复');
      const workIds = [...new Set(fixes.map((f) => f.workUuid))];
      const undone: Array<{ fixId: string; workUuid: string; filePath: string }> = [];
      const removable: string[] = [];
      for (const uuid of workIds) {
        await db.transaction(async (tx) => {
          const [w] = await tx.select().from(works).where(and(eq(works.hubId, hubId), eq(works.uuid, uuid))).for('update');
          const mine = fixes.filter((f) => f.workUuid === uuid);
          if (!w) {
            // The work is gone: nothing to point back; the records are closed.
            for (const f of mine) await tx.update(fileFixes).set({ status: 'undone', undoneAt: new Date() }).where(eq(fileFixes.id, f.id));
            return;
          }
          const files = [...w.files];
          let accepted = [...(w.resolutionAccepted ?? [])];
          // Newest first; within one task (same time) the later item first.
          for (const f of [...mine].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || Number((b.detail.index as number) ?? 0) - Number((a.detail.index as number) ?? 0))) {
            if (f.kind === 'accept') {
              accepted = accepted.filter((a) => a.filePath !== f.filePath);
            } else if (f.kind === 'delete') {
              const file = f.detail.file as WorkFile;
              if (!files.some((x) => x.filePath === file.filePath)) files.splice(Math.min(Number(f.detail.index) || 0, files.length), 0, file);
            } else {
              const at = files.findIndex((x) => x.filePath === f.fixedPath);
              if (at < 0) throw conflict(`“${(f.detail.file as WorkFile | undefined)?.fileName ?? f.filePath}”之后又被修改过，请先撤销之后的修复`, 'fixed-since');
              const before = f.detail.before as { widthPx: number; heightPx: number; dpi: number } | null;
              files[at] = { ...files[at]!, filePath: f.filePath, ...(before ? { width: before.widthPx, height: before.heightPx, dpi: before.dpi } : {}) };
              if (f.fixedPath) removable.push(f.fixedPath);
            }
            await tx.update(fileFixes).set({ status: 'undone', undoneAt: new Date() }).where(eq(fileFixes.id, f.id));
            undone.push({ fixId: f.id, workUuid: uuid, filePath: f.filePath });
          }
          await tx.update(works).set({ files, pageCount: files.reduce((s, x) => s + x.pages, 0), resolutionAccepted: accepted.length ? accepted : null }).where(eq(works.uuid, uuid));
        });
      }
      // The fixed pictures nothing points to any more; one an order took stays for the press.
      if (removable.length > 0) await deps.ordered.serialize(hubId, async () => {
        const ordered = await deps.ordered.orderedFiles(hubId, removable);
        for (const p of removable) {
          if (ordered.has(p)) continue;
          await db.delete(storedFiles).where(and(eq(storedFiles.hubId, hubId), eq(storedFiles.path, p)));
          await store.remove(hubId, p.slice(0, p.lastIndexOf('/'))).catch(() => {});
          await deps.previews.forget(hubId, p).catch(() => {});
        }
      });
      return { state: 200 as const, message: { undone, works: await recheck(hubId, workIds) } };
    },
  };
}
export type BulkFixService = ReturnType<typeof createBulkFixService>;
