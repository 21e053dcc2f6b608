import { z } from 'zod';
import { ErrorType, LIMITS, ORDER_STATUSES, TaskStatus, Toning, WorkState } from './enums.ts';
import { MSG } from './messages.ts';

/** Query numbers arrive as strings; a bad value must be a 400 with a message, never NaN. */
/** A row's id as the database holds it (PostgreSQL integer): a larger number is no row, refused as input. */
export const MAX_ID = 2_147_483_647;
export const zId = z.coerce.number().int().positive().max(MAX_ID);
/** YYYY-MM-DD naming a day that exists: 2026-02-30 and 2026-13-45 are refused, not rolled over (nor a 500). */
export const zDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD').refine((v) => {
  const [y, m, d] = v.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}, '日期不存在');
const zPage = z.coerce.number().int().min(0).default(0);
const zSize = z.coerce.number().int().min(1).max(100).default(20);
const zText = z.string().trim().max(200);

export const ErrorAnswer = z.object({ message: z.string(), code: z.string().optional() });

// --- login (../shared/spec/decisions.md §2)
export const AuthenticateBody = z.object({
  username: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(200),
  rememberMe: z.boolean().optional(),
});
export const AuthenticateAnswer = z.object({ id_token: z.string() });
/** An operator (authorities ROLE_OPERATOR) has no customer and no hub: both are null. */
export const Account = z.object({
  login: z.string(),
  customerId: z.number().int().nullable(),
  customerHubId: z.number().int().nullable(),
  authorities: z.array(z.string()),
});
export type Account = z.infer<typeof Account>;

// --- hubs, catalogue (../shared/spec/product-spec.md §7)
export const HubParams = z.object({ customerHubId: zId });
export const HubLite = z.object({ id: z.number().int(), name: z.string(), batchAddressParsing: z.boolean() });
export type HubLite = z.infer<typeof HubLite>;

export type Category = { id: number; name: string; parentId: number | null; categories: Category[] };
export const Category: z.ZodType<Category> = z.lazy(() =>
  z.object({ id: z.number().int(), name: z.string(), parentId: z.number().int().nullable(), categories: z.array(Category) }),
);
export const CategoryPageQuery = z.object({ client: z.enum(['true', 'false']).optional(), type: z.string().max(20).optional() });

export const ProductsPageQuery = z.object({
  page: zPage,
  size: zSize,
  productCategoryId: zId.optional(),
  productName: zText.optional(),
});
export const ProductSummary = z.object({
  id: z.number().int(),
  number: z.string(),
  name: z.string(),
  productImage: z.string().nullable(),
  productCategoryId: z.number().int(),
  productCategoryName: z.string(),
  pageCount: z.number().int(),
  minNumberOfPages: z.number().int().nullable(),
  maxNumberOfPages: z.number().int().nullable(),
});
export type ProductSummary = z.infer<typeof ProductSummary>;

export const ProductsQuery = z.object({
  dataType: z.string().max(20).optional(),
  keyword: zText.optional(),
  productCategoryId: zId.optional(),
});

export const CategoryProductsPageQuery = ProductsPageQuery.extend({ size: z.coerce.number().int().min(1).max(100).default(10) });
export const SkuRow = z.object({
  id: z.number().int(),
  number: z.string(),
  sku: z.string(),
  skuNumber: z.string(),
  productId: z.number().int(),
  productName: z.string(),
  productNumber: z.string(),
  saleable: z.boolean(),
});
export type SkuRow = z.infer<typeof SkuRow>;

export const ProductDetailsQuery = z.object({ productId: zId, customerId: zId.optional() });

export const ObjectPaper = z.object({ id: z.number().int(), paper: z.string(), img: z.string().nullable(), minPageCount: z.number().int().nullable(), maxPageCount: z.number().int().nullable() });
export const ObjectOperation = z.object({ id: z.number().int(), name: z.string(), combined: z.boolean(), img: z.string().nullable() });
export const Component = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  cancelled: z.boolean(),
  width: z.number(),
  height: z.number(),
  error: z.number(),
  errorType: ErrorType,
  autoOrientationDetection: z.boolean(),
  resolutionThreshold: z.number().int(),
  resolutionLimit: z.number().int().nullable(),
  objectPapers: z.array(ObjectPaper),
  objectOperations: z.array(ObjectOperation),
  templateFileUpload: z.boolean(),
  templateFileName: z.string().nullable(),
  templateFileUrl: z.string().nullable(),
  templateRelativeUrl: z.string().nullable(),
});
export type Component = z.infer<typeof Component>;
export const ItemValue = z.object({ id: z.number().int(), itemValue: z.string(), remark: z.string().nullable(), img: z.string().nullable() });
export const ObjectItem = z.object({ item: z.object({ id: z.number().int(), name: z.string() }), itemValues: z.array(ItemValue) });
export type ObjectItem = z.infer<typeof ObjectItem>;
export const PropertyConfig = z.object({
  id: z.number().int(),
  number: z.string(),
  sku: z.string(),
  skuNumber: z.string(),
  optionValueIds: z.array(z.number().int()),
  productId: z.number().int(),
  productName: z.string(),
  productNumber: z.string(),
  saleable: z.boolean(),
  cancelled: z.boolean(),
  jhiDefault: z.boolean(),
  minPageCount: z.number().int().nullable(),
  maxPageCount: z.number().int().nullable(),
  customToning: z.boolean(),
  toning: Toning,
});
export type PropertyConfig = z.infer<typeof PropertyConfig>;
/** What a product's price counts (../shared/spec/decisions.md §6): prints (pages × copies), copies (with extra pages) or m². */
export const PriceBasis = z.enum(['print', 'copy', 'area']);
export type PriceBasis = z.infer<typeof PriceBasis>;
export const ProductDetails = ProductSummary.extend({
  priceBasis: PriceBasis,
  /** The name of one counted unit: 张, 本, 盒…; ㎡ for area. */
  priceUnit: z.string(),
  components: z.array(Component),
  objectItems: z.array(ObjectItem),
  propertyConfigs: z.array(PropertyConfig),
});
export type ProductDetails = z.infer<typeof ProductDetails>;
export const ProductDetailsAnswer = z.object({ state: z.literal(200), message: ProductDetails });

export const PriceQuery = z.object({
  entityId: zId,
  priceType: z.literal('customer'),
  productId: zId,
  propertyConfigId: zId,
  quantity: z.coerce.number().int().min(1).default(1),
});
/**
 * amount is null when the SKU has no price for this customer (the page shows 暂无). It is the price of one
 * counted unit (`priceUnit` of `priceBasis`); extraPageAmount is a page above the base, per copy (copy basis).
 */
export const PriceAnswer = z.object({
  amount: z.number().nullable(), propertyConfigId: z.number().int(), quantity: z.number().int(), saleable: z.boolean(),
  priceBasis: PriceBasis, priceUnit: z.string(), extraPageAmount: z.number().nullable(),
  /** The quantity breaks of the unit price, lowest first: from this many counted units on, this price (none: one price). */
  breaks: z.array(z.object({ from: z.number().int(), amount: z.number() })),
});

// --- addresses and regions
export const ConditionItem = z.object({
  field: z.enum(['customerHubId', 'isDefault', 'customerId', 'id']),
  operator: z.literal('equals'),
  value: z.union([z.number(), z.boolean(), z.string().max(50)]),
});
export const ByConditionBody = z.object({
  items: z.array(ConditionItem).max(10).default([]),
  page: z.number().int().min(0).default(0),
  size: z.number().int().min(1).max(100).default(10),
  sort: z.string().regex(/^id,(asc|desc)$/).default('id,desc'),
});
export const CustomerLocation = z.object({
  id: z.number().int(),
  customerHubId: z.number().int(),
  customerId: z.number().int(),
  contact: z.string(),
  phone: z.string(),
  province: z.string(),
  city: z.string(),
  district: z.string(),
  address: z.string(),
  isDefault: z.boolean(),
});
export type CustomerLocation = z.infer<typeof CustomerLocation>;
export const Region = z.object({ id: z.number().int(), code: z.string(), name: z.string() });
export type Region = z.infer<typeof Region>;
export const CitiesQuery = z.object({ provinceId: zId });
export const DistrictsQuery = z.object({ cityId: zId });

// --- upload, parse and long tasks (../shared/spec/decisions.md §3, §4)
/** What the server read from an image at upload: pixels after EXIF orientation, and dots per inch. */
export const ImageInfo = z.object({
  width: z.number(),
  height: z.number(),
  /** 72 when the file states none. */
  dpi: z.number(),
  /** Whether the file states its density; absent for files stored before it was recorded. */
  dpiStated: z.boolean().optional(),
});
/** What the server read from a PDF at upload: its pages, and page 1's size in mm. */
export const PdfInfo = z.object({ pages: z.number().int(), width: z.number(), height: z.number() });
/** A zip's info is empty: its files are read when it is parsed. */
export const UploadedInfo = z.union([ImageInfo, PdfInfo, z.strictObject({})]);
export type UploadedInfo = z.infer<typeof UploadedInfo>;
export const ChunkDone = z.object({ status: z.literal(300), filePath: z.string(), relativeUrl: z.string(), accessUrl: z.string(), info: UploadedInfo });
export type ChunkDone = z.infer<typeof ChunkDone>;
/** Each chunk's answer; the chunk that completed the file answers ChunkDone. */
export const ChunkAnswer = z.object({ state: z.literal(200), message: z.union([ChunkDone, z.object({ status: z.literal(200) })]) });
export type ChunkAnswer = z.infer<typeof ChunkAnswer>;
/**
 * The metadata stored with a file (the stored_files.meta column), read once at upload or parse so later
 * steps never re-read the file. One shape for images and PDFs, every field optional: a row written by an
 * older release may lack the newer ones, and the file check adds what it learns.
 */
export const StoredFileMeta = z.object({
  width: z.number().optional(),
  height: z.number().optional(),
  dpi: z.number().optional(),
  dpiStated: z.boolean().optional(),
  /** The density rule the image's dpi was read under (media/image.ts DENSITY_RULE); another one is read again. */
  dpiRule: z.number().int().optional(),
  /** Whether the image's bytes are whole (JPEG end marker, PNG chunk CRCs), learnt by the first check. */
  intact: z.boolean().optional(),
  brokenReason: z.string().nullable().optional(),
  pages: z.number().int().optional(),
  /** Every PDF page's [width, height] in mm. */
  pageSizes: z.array(z.tuple([z.number(), z.number()])).optional(),
  /** Bytes on disk of the PDF's preview copy with a balanced page tree (made for a flat, large tree; server's services/preview-copies.ts). */
  previewCopyBytes: z.number().int().optional(),
});
export type StoredFileMeta = z.infer<typeof StoredFileMeta>;

export const ParseQuery = z.object({ filePath: z.string().min(1).max(1024), customerHubId: zId.optional() });
export const ParsedWorkFile = z.object({
  fileName: z.string(), filePath: z.string(), component: z.string().nullable(),
  width: z.number(), height: z.number(), dpi: z.number().nullable(), pages: z.number().int(),
});
export type ParsedWorkFile = z.infer<typeof ParsedWorkFile>;
export const ParsedWork = z.object({
  uuid: z.string(), articleName: z.string(), filePath: z.string(), fileName: z.string(), files: z.array(ParsedWorkFile),
  pageCount: z.number().int(), quantity: z.literal(1), state: WorkState.extract(['unmatch']),
});
export type ParsedWork = z.infer<typeof ParsedWork>;
/** A file inside a folder or zip that is not a work's file, and why (../shared/spec/decisions.md §4). */
export const UnsupportedFile = z.object({ fileName: z.string(), filePath: z.string(), reason: z.string() });
export type UnsupportedFile = z.infer<typeof UnsupportedFile>;
export const ParseResult = z.object({ works: z.array(ParsedWork), unsupported: z.array(UnsupportedFile) });
export type ParseResult = z.infer<typeof ParseResult>;
/** Works at once (state 200), or a long task to poll (state 100: a zip, or a big folder). */
export const ParseAnswer = z.union([
  z.object({ state: z.literal(200), message: ParseResult }),
  z.object({ state: z.literal(100), message: z.object({ taskId: z.string() }) }),
]);
export type ParseAnswer = z.infer<typeof ParseAnswer>;

/** A stored item's path in a call about many (parseItems, checkFiles): one of blanks is refused, not looked up. */
export const zItemPath = z.string().min(1).max(1024).regex(/\S/, '文件路径不能为空');

/** Items one POST /api/sales_order/parseItems may name. */
export const PARSE_ITEMS_MAX = 50;
/**
 * POST /api/sales_order/parseItems: parseOrderInfo4BatchUp for many uploaded items in one call (a drop of
 * 300 folders makes 300 items). An item named twice is refused, as a work would be made of it twice.
 */
export const ParseItemsBody = z.object({
  customerHubId: zId.optional(),
  filePaths: z.array(zItemPath)
    .min(1, '请至少提供一个文件或文件夹')
    .max(PARSE_ITEMS_MAX, `一次最多解析${PARSE_ITEMS_MAX}个文件或文件夹`)
    .refine((paths) => new Set(paths).size === paths.length, MSG.parseItemsRepeated),
});
export type ParseItemsBody = z.infer<typeof ParseItemsBody>;
/** One item's answer, in the order of the request: what parseOrderInfo4BatchUp answers for it, or why it could not be parsed (as its 4xx says it). */
export const ParseItemsResult = z.union([
  z.object({ filePath: z.string(), answer: ParseAnswer }),
  z.object({ filePath: z.string(), error: z.object({ status: z.number().int(), code: z.string(), message: z.string() }) }),
]);
export type ParseItemsResult = z.infer<typeof ParseItemsResult>;
export const ParseItemsAnswer = z.object({ state: z.literal(200), message: z.object({ results: z.array(ParseItemsResult) }) });
export type ParseItemsAnswer = z.infer<typeof ParseItemsAnswer>;
export const LongTask = z.object({
  status: TaskStatus,
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  jsonContent: ParseResult.nullable(),
  error: z.string().nullable(),
});
export type LongTask = z.infer<typeof LongTask>;
export const LongTaskAnswer = z.object({ state: z.literal(200), message: LongTask });
export type LongTaskAnswer = z.infer<typeof LongTaskAnswer>;
/**
 * An option of ours on the spec's poll: waitMs holds the answer until the task is no longer running or
 * waitMs has passed (at most LIMITS.taskPollMs), so the page's poll every 3 s hears of the end at once.
 */
export const LongTaskQuery = z.object({
  waitMs: z.coerce.number({ error: '等待时间不正确' }).int('等待时间不正确').min(0, '等待时间不正确').max(LIMITS.taskPollMs, `等待时间最多${LIMITS.taskPollMs}毫秒`).optional(),
});

// --- the file check, crop and sort (../shared/spec/product-spec.md §7, ../shared/spec/decisions.md §5)
export const CheckFileBody = z.object({
  propertyConfigId: zId,
  productId: zId,
  customerHubId: zId.optional(),
  filePath: z.string().min(1).max(1024),
  makeWay: z.string().max(20).optional(),
  checkNumberOfPages: z.boolean().optional(),
  /** Names the work exactly when several share a filePath. */
  workUuid: z.uuid().optional(),
});
export const FileCheckRow = z.object({
  filename: z.string(),
  itemPath: z.string(),
  type: z.enum(['image', 'pdf']),
  page: z.number().int().nullable(),
  width: z.number(),
  height: z.number(),
  component: z.object({
    componentId: z.number().int(), componentName: z.string(), width: z.number(), height: z.number(),
    error: z.number(), errorType: ErrorType, errorText: z.string(), autoOrientationDetection: z.boolean(),
  }).nullable(),
  resolutionDetect: z.number().nullable(),
  dpiStated: z.boolean().nullable(),
  resolutionThreshold: z.number(),
  resolutionLimit: z.number().nullable(),
  resolutionWarning: z.boolean(),
  effectiveDpi: z.number().nullable(),
  pass: z.boolean(),
  reason: z.string().nullable(),
  /** The customer accepted this file's resolution warning at this dpi (批量确认使用): the warning stays, the triage leaves it out. */
  resolutionAccepted: z.literal(true).optional(),
  previewUrl: z.string(),
  previewRelativeUrl: z.string(),
});
export type FileCheckRow = z.infer<typeof FileCheckRow>;
export const CheckComponentCount = z.object({ componentId: z.number().int(), componentName: z.string(), width: z.number(), height: z.number(), count: z.number().int() });
export const CheckFileAnswer = z.union([
  z.object({ state: z.literal(200), message: z.object({
    workUuid: z.string(), resolutionWarning: z.boolean(), addPageNum: z.number().int(), pageCount: z.number().int(), fileArea: z.number(),
    components: z.array(CheckComponentCount), fileCheckResult: z.array(FileCheckRow),
    /** What the product's price counts: the page shows 加页数 only for "copy". */
    priceBasis: PriceBasis.optional(),
    /** Every resolution warning of the work was accepted (批量确认使用): the work is 已匹配. */
    resolutionAccepted: z.boolean().optional(),
  }) }),
  z.object({ state: z.literal(400), message: z.object({
    workUuid: z.string(), fileName: z.string(), status: z.literal('error'),
    message: z.object({ fileCheckResult: z.array(FileCheckRow), pageCountWarning: z.boolean(), error: z.literal(true) }),
    messages: z.array(z.object({ message: z.string() })),
  }) }),
]);
export type CheckFileAnswer = z.infer<typeof CheckFileAnswer>;

export const CropBody = z.object({
  path: z.string().min(1).max(1024),
  x: z.number().finite(),
  y: z.number().finite(),
  width: z.number().finite().positive(),
  height: z.number().finite().positive(),
  scale: z.number().finite().positive().max(10000).default(100),
  rotation: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]).default(0),
  /**
   * The density to state in the cropped file, in dpi: the box's pixels over the component's size, so the crop prints
   * at that size (the crop dialog sends it when a component matched). Without it the file's density is kept.
   */
  dpi: z.number().int().min(1).max(65535).optional(),
});
export const CropAnswer = z.object({
  success: z.literal(true),
  data: z.object({ width: z.number(), height: z.number(), widthPx: z.number().int(), heightPx: z.number().int(), dpi: z.number(), previewUrl: z.string(), previewRelativeUrl: z.string() }),
});
export const SortWorkFilesBody = z.object({
  accessPath: z.string().min(1).max(1024),
  fileNames: z.array(z.string().min(1).max(1024)).max(10000),
  name: z.string().max(255).optional(),
  acceptFolder: z.union([z.boolean(), z.string().max(10)]).optional(),
  workUuid: z.uuid().optional(),
});
/** The work's files in their new order; `removed`: files that left the work (still stored), which must be checked again. */
export const SortWorkFilesAnswer = z.object({
  state: z.literal(200),
  message: z.object({ accessPath: z.string(), workUuid: z.string(), files: z.array(ParsedWorkFile), pageCount: z.number().int(), removed: z.array(z.string()) }),
});
export type SortWorkFilesAnswer = z.infer<typeof SortWorkFilesAnswer>;

// --- orders (../shared/spec/decisions.md §7)
export const OrderLocation = z.object({
  contact: z.string().trim().max(50),
  phone: z.string().trim().max(30),
  province: z.string().trim().max(50),
  city: z.string().trim().max(50),
  district: z.string().trim().max(50),
  address: z.string().trim().max(200),
  quantity: z.number({ error: '该地址的数量必须是整数' }).int({ error: '该地址的数量必须是整数' }).min(1, { error: '该地址的数量必须大于0' }).optional(),
  addressId: z.number().int().positive().max(MAX_ID).optional(),
});
export type OrderLocation = z.infer<typeof OrderLocation>;
export const OrderWork = z.object({
  uuid: z.uuid(),
  // A work's name comes from the parse of a path of up to 255 characters (spec §9): one of 250 could not be ordered (API probe).
  articleName: z.string().max(255),
  filePath: z.string().max(1024).optional(),
  quantity: z.number({ error: '订购数量必须是整数' }).int({ error: '订购数量必须是整数' }),
  productId: zId,
  propertyConfigId: zId,
  toning: Toning.default('None'),
  customToning: z.union([z.string().max(500), z.boolean()]).nullable().optional(),
  orderLocations: z.array(OrderLocation).max(50).optional(),
  /**
   * The line's 金额 the customer confirmed (its amount in the quote /payment1 showed). When given and the line comes
   * to another amount now, nothing is placed: 409 price-changed naming the work. The total alone misses a price
   * raised on one line and lowered on another (money probe, 2026-12-01).
   */
  expectedAmount: z.number().min(0).max(LIMITS.maxAmountFen / 100).optional(),
});
export const BatchOrderBody = z.object({
  idempotencyKey: z.string().min(8).max(100),
  deliveryMethod: z.enum(['Unified', 'Partial']),
  location: OrderLocation.optional(),
  works: z.array(OrderWork).min(1).max(5000),
  /**
   * The 合计金额 the customer confirmed (the quote's totalAmount on /payment1). When given and the order
   * comes to another total now (the shop changed a price meanwhile), nothing is placed: 409 price-changed
   * with both totals. Without it the order is priced as it stands.
   */
  expectedTotalAmount: z.number().min(0).max(LIMITS.maxAmountFen / 100).optional(),
});
export type BatchOrderBody = z.infer<typeof BatchOrderBody>;
/** What an order line's amount is made of (domain/pricing.ts); `text` is what the customer reads, `100张 × ¥0.68`. */
export const Pricing = z.object({
  basis: PriceBasis,
  unitName: z.string(),
  /** Counted units: prints, copies or m². */
  units: z.number(),
  unitPrice: z.number(),
  copies: z.number().int(),
  extraPages: z.number().int(),
  extraPagePrice: z.number().nullable(),
  amount: z.number(),
  text: z.string(),
});
export type Pricing = z.infer<typeof Pricing>;
/** basisText: absent in answers stored before prices had a basis (a repeated submit answers the first answer). */
export const PlacedOrder = z.object({ salesOrderNumber: z.string(), articleName: z.string(), quantity: z.number().int(), amount: z.number(), basisText: z.string().nullable().optional() });
export const BatchOrderAnswer = z.object({ state: z.literal(200), message: z.object({ orders: z.array(PlacedOrder), totalAmount: z.number() }) });
export const QuoteBody = z.object({ works: z.array(OrderWork.pick({ uuid: true, articleName: true, quantity: true, productId: true, propertyConfigId: true })).min(1).max(5000) });
export const QuoteLine = z.object({
  uuid: z.string(), articleName: z.string(), productName: z.string(), sku: z.string(), quantity: z.number().int(),
  pageCount: z.number().int(), addPageNum: z.number().int(), unitPrice: z.number().nullable(), amount: z.number().nullable(),
  saleable: z.boolean(), problem: z.string().nullable(),
  /** The product's basis (null when the product or SKU left the catalogue), and how the amount is made (null without a price). */
  priceBasis: PriceBasis.nullable(), pricing: Pricing.nullable(),
});
/** problem: why the batch as a whole cannot be ordered though each line can (its total over the bound), else null. */
export const QuoteAnswer = z.object({ state: z.literal(200), message: z.object({ lines: z.array(QuoteLine), totalAmount: z.number(), problem: z.string().nullable() }) });
export const OrderStatusEnum = z.enum(ORDER_STATUSES);
export const OrderTimelineEntry = z.object({
  from: OrderStatusEnum.nullable(), to: OrderStatusEnum, toText: z.string(), at: z.string(),
  /** Customer view: 您 or 印刷厂; operator view: the login. */
  by: z.string(), note: z.string().nullable(), carrier: z.string().nullable(), trackingNumber: z.string().nullable(),
});
export type OrderTimelineEntry = z.infer<typeof OrderTimelineEntry>;
export const SalesOrder = z.object({
  salesOrderNumber: z.string(), articleName: z.string(), fileName: z.string(), filePath: z.string(),
  /** thumbnailUrl: a signed link (it works in an <img>; it expires), page 1 of a PDF. */
  files: z.array(z.object({ fileName: z.string(), filePath: z.string(), component: z.string().nullable(), thumbnailUrl: z.string() })),
  productId: z.number().int(), productName: z.string(), sku: z.string(), quantity: z.number().int(), pageCount: z.number().int(),
  addPageNum: z.number().int(), unitPrice: z.number(), amount: z.number(), toning: Toning, deliveryMethod: z.enum(['Unified', 'Partial']),
  orderLocations: z.array(OrderLocation).nullable(), createdAt: z.string(),
  /** How the amount was made; null for orders placed before prices had a basis (they keep their amount). */
  pricing: Pricing.nullable(),
  /** pricing.text, or for an older order `数量 × 单价`. */
  basisText: z.string(),
  status: OrderStatusEnum, statusText: z.string(), carrier: z.string().nullable(), trackingNumber: z.string().nullable(),
  /** Every change of status, oldest first (the placing is the first, with from null). */
  timeline: z.array(OrderTimelineEntry),
});
export type SalesOrder = z.infer<typeof SalesOrder>;
export const CancelOrderParams = z.object({ salesOrderNumber: z.string().min(1).max(40) });
export const CancelOrderBody = z.object({ note: z.string().max(500).nullish() }).nullish();
export const StatusChangeAnswer = z.object({ salesOrderNumber: z.string(), from: OrderStatusEnum, to: OrderStatusEnum, statusText: z.string() });
/** A corrected carrier and tracking number (POST /api/admin/orders/{id}/tracking). */
export const TrackingAnswer = z.object({ salesOrderNumber: z.string(), carrier: z.string(), trackingNumber: z.string() });
export const OrdersQuery = z.object({ page: zPage, size: zSize });
export const RepeatCheckBody = z.object({
  customerHubId: zId.optional(),
  files: z.array(z.string().max(300)).max(10000),
  /** Works whose content (not only name) is looked for in the hub's orders (issue #21 item 2). */
  workUuids: z.array(z.uuid()).max(10000).optional(),
});
/** A name's row; or, with workUuid and sameContent, a work whose every file's bytes are already in the order salesOrderNumber. */
export const RepeatCheckRow = z.object({
  fileName: z.string(), duplicated: z.boolean(), salesOrderNumber: z.string().nullable(),
  workUuid: z.string().optional(), sameContent: z.boolean().optional(),
});
