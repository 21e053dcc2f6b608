import { z } from 'zod';
import { ParsedWorkFile } from './api.ts';
import { TaskStatus, WorkState } from './enums.ts';

/**
 * Fixing files in bulk (issue #20 item 2): the fixes a customer may apply to a selection of works or to
 * the files of a triage group, their sample, the long task that applies them and its undo.
 */

/** fill 裁切填充, fit 留白适配, rotate 旋转, accept 批量确认使用, delete 删除. */
export const FixKind = z.enum(['fill', 'fit', 'rotate', 'accept', 'delete']);
export type FixKind = z.infer<typeof FixKind>;
export const FIX_LABELS: Record<FixKind, string> = { fill: '裁切填充', fit: '留白适配', rotate: '旋转', accept: '批量确认使用', delete: '删除' };
/** Where 裁切填充 keeps the picture: its centre, or what sharp's attention strategy finds (photos). */
export const FillPosition = z.enum(['centre', 'attention']);
export type FillPosition = z.infer<typeof FillPosition>;
export const FILL_POSITION_LABELS: Record<FillPosition, string> = { centre: '居中裁切', attention: '智能裁切（照片）' };

/** The most files one request may fix: a batch's triage group of 2,000 works fits. */
export const MAX_FIX_ITEMS = 5000;

export const FixItem = z.object({
  workUuid: z.uuid(),
  /** The file as the work holds it (its stored path, the check's itemPath). */
  filePath: z.string().min(1).max(1024),
  kind: FixKind,
});
export type FixItem = z.infer<typeof FixItem>;
export const BulkFixBody = z.object({
  items: z.array(FixItem).min(1).max(MAX_FIX_ITEMS),
  position: FillPosition.default('centre'),
});
export type BulkFixBody = z.input<typeof BulkFixBody>;

const Size = z.object({ widthPx: z.number().int(), heightPx: z.number().int(), dpi: z.number(), widthMm: z.number(), heightMm: z.number() });
export type FixSize = z.infer<typeof Size>;

/** What a fix will do (or did) to one file; `reason` says why it cannot apply (then ok is false). */
export const FixPlanRow = z.object({
  workUuid: z.string(),
  articleName: z.string(),
  filePath: z.string(),
  fileName: z.string(),
  kind: FixKind,
  ok: z.boolean(),
  reason: z.string().nullable(),
  before: Size.nullable(),
  after: Size.nullable(),
  /** Share (0–1) of the picture 裁切填充 cuts away. */
  cutShare: z.number(),
  /** Share (0–1) of the result 留白适配 fills with white. */
  padShare: z.number(),
  /** The result's dpi stays below the component's threshold: the work stays 分辨率异常. */
  stillWarned: z.boolean(),
});
export type FixPlanRow = z.infer<typeof FixPlanRow>;

export const FixSample = z.object({
  filePath: z.string(),
  fileName: z.string(),
  kind: FixKind,
  /** The file as it is now (a signed preview link). */
  beforeUrl: z.string(),
  /** The result, small (a data: URL of a JPEG). */
  afterUrl: z.string(),
  cutShare: z.number(),
  padShare: z.number(),
});
export type FixSample = z.infer<typeof FixSample>;

export const BulkFixPreviewAnswer = z.object({
  state: z.literal(200),
  message: z.object({ rows: z.array(FixPlanRow), samples: z.array(FixSample) }),
});
export type BulkFixPreviewAnswer = z.infer<typeof BulkFixPreviewAnswer>;

export const BulkFixStarted = z.object({ state: z.literal(100), message: z.object({ taskId: z.uuid() }) });
export type BulkFixStarted = z.infer<typeof BulkFixStarted>;

/** One applied fix (undo it by its id), or why the file was left as it was. */
export const FixDone = FixPlanRow.extend({ fixId: z.string().nullable(), newPath: z.string().nullable() });
export type FixDone = z.infer<typeof FixDone>;
/** Where a fixed picture is stored: fixes/<fix id>/<file name> (the server writes it, the page reads the fix back from it). */
export const fixedPathOf = (fixId: string, fileName: string) => `fixes/${fixId}/${fileName}`;
/** The fix a stored path is the result of, or null for a file as uploaded. */
export const fixIdOfPath = (filePath: string): string | null => /^fixes\/([0-9a-f-]{36})\//.exec(filePath)?.[1] ?? null;

/**
 * A work after its fixes (or their undo), checked again on the server; `files`: the work's files now, in its
 * order (a fixed file is stored under fixes/<id>/), which the page's row takes.
 */
export const FixedWork = z.object({ uuid: z.string(), state: WorkState, checked: z.boolean(), files: z.array(ParsedWorkFile) });
export type FixedWork = z.infer<typeof FixedWork>;
export const BulkFixResult = z.object({ items: z.array(FixDone), works: z.array(FixedWork) });
export type BulkFixResult = z.infer<typeof BulkFixResult>;

export const BulkFixTaskAnswer = z.object({
  state: z.literal(200),
  message: z.object({
    status: TaskStatus,
    progress: z.object({ done: z.number().int(), total: z.number().int() }),
    result: BulkFixResult.nullable(),
    error: z.string().nullable(),
  }),
});
export type BulkFixTaskAnswer = z.infer<typeof BulkFixTaskAnswer>;

/** Undo single fixes (by id) or every fix of a task (a group's or a selection's). */
export const BulkFixUndoBody = z.object({
  fixIds: z.array(z.uuid()).max(MAX_FIX_ITEMS).optional(),
  taskId: z.uuid().optional(),
}).refine((b) => (b.fixIds?.length ?? 0) > 0 || b.taskId !== undefined, { message: '请指定要撤销的修复' });
export type BulkFixUndoBody = z.infer<typeof BulkFixUndoBody>;
export const BulkFixUndoAnswer = z.object({
  state: z.literal(200),
  message: z.object({ undone: z.array(z.object({ fixId: z.string(), workUuid: z.string(), filePath: z.string() })), works: z.array(FixedWork) }),
});
export type BulkFixUndoAnswer = z.infer<typeof BulkFixUndoAnswer>;

/** A resolution warning the customer accepted (批量确认使用), kept with the work and its order for the operator. */
export const ResolutionAcceptance = z.object({ filePath: z.string(), dpi: z.number().nullable(), threshold: z.number(), acceptedAt: z.string() });
export type ResolutionAcceptance = z.infer<typeof ResolutionAcceptance>;

/**
 * The dpi 裁切填充 and 留白适配 aim at: 300 (what photo printers print), at least the component's
 * threshold, at most its limit. A file that cannot give it keeps the dpi its pixels give (never upscaled).
 */
export function fixTargetDpi(c: { resolutionThreshold: number; resolutionLimit: number | null }): number {
  return Math.min(c.resolutionLimit ?? Infinity, Math.max(300, c.resolutionThreshold));
}

/** Why a fix does not apply to a file: the server's refusals, and the 批量修复 dialog's note on a file only 删除 can change. */
export const FIX_REASONS = {
  pdf: 'PDF文件不能自动调整，请修改后重新上传',
  broken: '文件破损，无法调整',
  noComponent: '没有匹配的部件，无法按部件尺寸调整',
  autoOrientation: '该部件允许横竖互换，方向无需旋转',
  notOrientationOnly: '不是仅方向不符，旋转不能修复',
  noWarning: '该文件没有分辨率警告，无需确认',
  stillFailing: '该文件尺寸或方向不符，确认使用不能解决，请先裁切填充或留白适配',
  alreadyFits: '该文件尺寸已符合，无需调整',
} as const;
