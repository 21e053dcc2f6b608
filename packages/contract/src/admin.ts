import { z } from 'zod';
import { zDay, zId } from './api.ts';
import { ORDER_STATUSES, TRACKING_LIMITS } from './enums.ts';

/**
 * The operator console's calls, all under /api/admin (operators only: a customer's token gets 403).
 * ../../docs/api.md lists them.
 */


// --- hubs
export const AdminHub = z.object({
  id: z.number().int(),
  name: z.string(),
  batchAddressParsing: z.boolean(),
  createdAt: z.string(),
  logins: z.number().int(),
  orders: z.number().int(),
  /** Its customers' names: prices are imported per customer name. */
  customerNames: z.array(z.string()),
  /** SKUs its customers have a price for: 0, and nothing can be ordered (a new hub has none until an import names it). */
  pricedSkus: z.number().int(),
  /** Its customers that have a login but no price at all: those logins see 暂无 for every product. */
  unpricedCustomers: z.array(z.string()),
  /** Whether it has a default address (a Unified hub's batches go there). */
  hasDefaultAddress: z.boolean(),
});
export type AdminHub = z.infer<typeof AdminHub>;

// --- orders (item 2, 3)
export const AdminOrdersQuery = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(ORDER_STATUSES).optional(),
  hubId: zId.optional(),
  productId: zId.optional(),
  /** Days in the shop's time (UTC+8), both included. */
  from: zDay.optional(),
  to: zDay.optional(),
  /** Part of a sales order number, of a work's name, or of a hub's or customer's name (any case). */
  q: z.string().trim().max(100).optional(),
});
export type AdminOrdersQuery = z.infer<typeof AdminOrdersQuery>;

export const AdminOrderRow = z.object({
  id: z.number().int(), salesOrderNumber: z.string(), hubId: z.number().int(), hubName: z.string(), customerName: z.string(),
  articleName: z.string(), productId: z.number().int(), productName: z.string(), sku: z.string(), quantity: z.number().int(),
  pageCount: z.number().int(), amount: z.number(), status: z.enum(ORDER_STATUSES), statusText: z.string(),
  carrier: z.string().nullable(), trackingNumber: z.string().nullable(), createdAt: z.string(),
  /** The batch the order was placed in (生产文件 按批次 takes it). */
  batchId: z.number().int(),
});
export type AdminOrderRow = z.infer<typeof AdminOrderRow>;

export const AdminOrderFile = z.object({
  fileName: z.string(), filePath: z.string(), component: z.string().nullable(),
  /** Signed links (they work in an <img> and a download link; they expire). */
  thumbnailUrl: z.string(), downloadUrl: z.string(),
});
export const AdminCheckRow = z.object({
  fileName: z.string(), itemPath: z.string(), page: z.number().int().nullable(), component: z.string().nullable(),
  width: z.number(), height: z.number(), standardWidth: z.number().nullable(), standardHeight: z.number().nullable(),
  /** An image's own dpi, which resolutionThreshold is held against (as in the customer's check); null for a PDF page. */
  dpi: z.number().nullable(), resolutionThreshold: z.number(), resolutionWarning: z.boolean(), pass: z.boolean(), reason: z.string().nullable(),
});
export const AdminCheckSummary = z.object({
  resolutionWarning: z.boolean(), pageCount: z.number().int(), addPageNum: z.number().int(), fileArea: z.number(),
  /** What the customer was warned of and ordered anyway. */
  warnings: z.array(z.string()),
  rows: z.array(AdminCheckRow),
});
export const AdminAddress = z.object({
  contact: z.string(), phone: z.string(), province: z.string(), city: z.string(), district: z.string(), address: z.string(),
  quantity: z.number().int().optional(),
});
export const AdminTimelineEntry = z.object({
  from: z.enum(ORDER_STATUSES).nullable(), to: z.enum(ORDER_STATUSES), toText: z.string(), at: z.string(),
  role: z.enum(['customer', 'operator']), by: z.string(), note: z.string().nullable(), carrier: z.string().nullable(), trackingNumber: z.string().nullable(),
});
export const AdminOrderDetail = AdminOrderRow.extend({
  addPageNum: z.number().int(), unitPrice: z.number(), toning: z.enum(['Manual', 'None']), customToning: z.string().nullable(),
  deliveryMethod: z.enum(['Unified', 'Partial']), addresses: z.array(AdminAddress),
  /** How the amount was made (null for orders placed before prices had a basis). */
  pricing: z.object({
    basis: z.enum(['print', 'copy', 'area']), unitName: z.string(), units: z.number(), unitPrice: z.number(), copies: z.number().int(),
    extraPages: z.number().int(), extraPagePrice: z.number().nullable(), amount: z.number(), text: z.string(),
  }).nullable(),
  basisText: z.string(),
  files: z.array(AdminOrderFile),
  /** The check the order passed when placed (null for orders placed before it was kept). */
  check: AdminCheckSummary.nullable(),
  timeline: z.array(AdminTimelineEntry),
  /** Where the operator may move it now. */
  nextStatuses: z.array(z.enum(ORDER_STATUSES)),
});
export type AdminOrderDetail = z.infer<typeof AdminOrderDetail>;
export const AdminOrderParams = z.object({ id: zId });
export const AdminStatusBody = z.object({
  to: z.enum(ORDER_STATUSES),
  note: z.string().max(500).nullish(),
  // The bounds of domain/order-status.ts: a number of 65-100 characters passed here and was refused there with 64 (LAN check).
  carrier: z.string().max(TRACKING_LIMITS.carrier).nullish(),
  trackingNumber: z.string().max(TRACKING_LIMITS.trackingNumber).nullish(),
});
export type AdminStatusBody = z.infer<typeof AdminStatusBody>;
/** A shipped order's carrier and tracking number corrected (the note goes into its timeline, which the customer reads). */
export const AdminTrackingBody = z.object({
  carrier: z.string().max(TRACKING_LIMITS.carrier),
  trackingNumber: z.string().max(TRACKING_LIMITS.trackingNumber),
  note: z.string().max(500).nullish(),
});
export type AdminTrackingBody = z.infer<typeof AdminTrackingBody>;
export const AdminProductOption = z.object({ id: z.number().int(), name: z.string() });

// --- administration (item 6)
export const AdminHubParams = z.object({ hubId: zId });
export const AdminHubCreate = z.object({
  name: z.string().trim().min(1, '请填写客户中心名称').max(100),
  batchAddressParsing: z.boolean().default(false),
  /** The customer of the hub (prices are per customer); the hub's name when not given. */
  customerName: z.string().trim().max(100).optional(),
});
export const AdminHubUpdate = z.object({
  name: z.string().trim().min(1, '请填写客户中心名称').max(100).optional(),
  batchAddressParsing: z.boolean().optional(),
});

export const AdminLogin = z.object({
  id: z.number().int(), login: z.string(), hubId: z.number().int(), customerId: z.number().int(), customerName: z.string(),
  disabled: z.boolean(), createdAt: z.string(),
});
export type AdminLogin = z.infer<typeof AdminLogin>;
export const AdminLoginCreate = z.object({
  login: z.string().max(50), password: z.string().max(200),
  /** A customer of the hub by name (created when new); the hub's only customer when not given. */
  customerName: z.string().trim().max(100).optional(),
});
export const AdminLoginParams = z.object({ loginId: zId });
export const AdminPasswordBody = z.object({ password: z.string().max(200) });
export const AdminDisableBody = z.object({ disabled: z.boolean() });

/** The shop's own staff logins (员工账号): listed, added, disabled and given a new password as a hub's logins are. */
export const AdminOperator = z.object({
  id: z.number().int(), login: z.string(), disabled: z.boolean(), createdAt: z.string(),
  /** The caller's own login: it cannot be disabled by itself. */
  self: z.boolean(),
});
export type AdminOperator = z.infer<typeof AdminOperator>;
export const AdminOperatorCreate = z.object({ login: z.string().max(50), password: z.string().max(200) });
export const AdminOperatorParams = z.object({ operatorId: zId });

export const AdminAddress2 = z.object({
  contact: z.string().trim().min(1, '请填写收件人').max(50),
  phone: z.string().trim().min(1, '请填写联系电话').max(30),
  province: z.string().trim().min(1, '请选择省份').max(50),
  city: z.string().trim().min(1, '请选择城市').max(50),
  district: z.string().trim().min(1, '请选择区县').max(50),
  address: z.string().trim().min(1, '请填写详细地址').max(200),
  isDefault: z.boolean().default(true),
});
export const AdminAddressRow = AdminAddress2.extend({ id: z.number().int(), hubId: z.number().int() });
export type AdminAddressRow = z.infer<typeof AdminAddressRow>;
export const AdminAddressParams = z.object({ addressId: zId });

export const CatalogueImportQuery = z.object({
  /** Only validate; import nothing. */
  dryRun: z.enum(['true', 'false']).optional(),
  /** Products missing from the file are marked cancelled. */
  prune: z.enum(['true', 'false']).optional(),
});
/** `item`: the product or SKU the problem is in, by its number (when the file says it). */
export const CatalogueProblem = z.object({ path: z.string(), message: z.string(), item: z.string().optional() });
export const CatalogueImportAnswer = z.object({
  imported: z.boolean(),
  /** The counts, as the command prints them (one line per kind). */
  summary: z.array(z.string()),
});
export const CatalogueImportRefusal = z.object({ message: z.string(), code: z.string(), problems: z.array(CatalogueProblem) });
/** The shop's catalogue in the file format of `npm run import-catalogue` (its fields: README, Catalogue import). */
export const CatalogueFile = z.object({
  name: z.string(), categories: z.array(z.unknown()), products: z.array(z.unknown()), prices: z.array(z.unknown()),
});
