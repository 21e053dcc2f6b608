import { z } from 'zod';
import { zDay, zId } from './api.ts';

/** What one production zip holds: one order, one batch (orders placed together), or the 待处理 orders of a day. */
export const ProductionSelection = z.union([
  z.object({ salesOrderNumber: z.string().trim().min(1).max(40) }),
  z.object({ batchId: zId }),
  /** A day of the shop (China Standard Time, UTC+8), YYYY-MM-DD. */
  z.object({ day: zDay }),
]);
export type ProductionSelection = z.infer<typeof ProductionSelection>;

export const ProductionLinkQuery = z.object({
  salesOrderNumber: z.string().trim().min(1).max(40).optional(),
  batchId: zId.optional(),
  day: zDay.optional(),
});

/** A signed download link (a browser's download sends no Authorization header) and what it will hold. */
export const ProductionLinkAnswer = z.object({
  url: z.string(),
  fileName: z.string(),
  orders: z.array(z.object({ salesOrderNumber: z.string(), articleName: z.string(), files: z.number().int() })),
});
export type ProductionLinkAnswer = z.infer<typeof ProductionLinkAnswer>;

export const ProductionZipQuery = z.object({
  /** The selection as signed: `so:<SO>`, `batch:<id>` or `day:<YYYY-MM-DD>`. */
  sel: z.string().min(1).max(80),
  exp: z.string().max(20),
  sig: z.string().max(100),
});

export const PRODUCTION_MSG = {
  pickOne: '请选择一个订单、一个批次或一天',
  nothing: '没有可下载的订单',
  orderNotFound: '订单不存在',
  orderCancelled: (so: string) => `订单 ${so} 已取消，不能下载生产文件`,
  badLink: '下载链接无效或已过期，请重新下载',
  noFont: '服务器缺少中文字体（fonts-noto-cjk），无法生成生产单',
} as const;

/** The columns of manifest.csv, one row per file of the zip. */
export const MANIFEST_COLUMNS = ['SO', '作品', '组件', '文件', '页数', '大小', 'sha256'] as const;
