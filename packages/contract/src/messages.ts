/** Every customer-facing message of product-spec.md, word for word. */
export const MSG = {
  networkError: '接口报错，请稍后重试！',
  regionFetchFailed: '数据获取失败，请稍后重试！',
  addressFetchFailed: '客户地址获取失败',
  checkFailedToast: '文件校验异常',
  checkFailedNetwork: '文件校验失败',
  parseFailed: '文件解析失败',
  checkSuccess: '文件校验成功',
  optionLocked: '当前sku不可切换',
  priceMissing: '暂无',
  notSaleable: '暂不销售，无法下单',
  cropFailed: '裁切失败',
  deleteFailed: '删除失败',
  deleteSuccess: '删除成功',
  deleteConfirm: '确定删除当前文件？',
  uploadFailed: '上传失败，请重试！',
  uploadSuccess: '上传成功',
  fileBroken: '文件破损',
  emptyFile: '文件为空，无法上传',
  pathTooLong: '文件路径过长，系统无法识别',
  /** A file path whose bytes were not UTF-8 (read as U+FFFD). */
  pathNotUtf8: '文件名含有无法识别的字符（不是UTF-8编码），请改名后重新上传',
  pathControlChars: '文件名含有控制字符或文字方向控制符，请改名后重新上传',
  wrongFileType: '只能上传.zip,.pdf,.png,.jpg',
  pendingCheckEntries: '有文件上传检查异常，请处理完再继续下单',
  uploading: '文件上传中',
  noFiles: '请上传文件',
  emptyWorkName: '作品名称不能为空',
  quantityBelowOne: '文件的订购数量必须大于0',
  quantityTooLarge: '文件的订购数量不能超过10000000',
  amountTooLarge: (name: string) => `${name}：订单金额超出上限，请减少订购数量`,
  totalTooLarge: '本批订单的总金额超出上限，请分批下单',
  batchKeyReused: '这次提交的编号已用于另一批订单，未重复下单：请刷新页面查看已提交的订单',
  confirmedTotalNotFen: '确认的合计金额最多两位小数',
  priceChanged: (confirmed: string, now: string) => `价格已变动：确认时合计¥${confirmed}，现在合计¥${now}，请核对新的金额后再提交`,
  linePriceChanged: (name: string, confirmed: string, now: string) => `价格已变动：「${name}」确认时¥${confirmed}，现在¥${now}，请核对新的金额后再提交`,
  confirmedAmountNotFen: (name: string) => `${name}：确认金额最多两位小数`,
  locationQuantities: (name: string, sum: number, quantity: number) => `${name}：各收货地址的数量之和（${sum}）与订购数量（${quantity}）不一致`,
  addressNotFound: '收货地址不存在',
  workCheckFailed: (name: string) => `${name}的文件校验失败`,
  emptyRecipient: (name: string) => `${name}的收件人不能为空`,
  emptyPhone: (name: string) => `${name}的联系电话不能为空`,
  badAddress: (name: string) => `${name}的收货地址不正确`,
  unresolvedDuplicates: '重复文件中还需操作，保留或删除',
  selectOrder: '请选择订单',
  selectProduct: '请选择商品',
  noDefaultAddress: '客户没有设置默认地址',
  pdfCannotSort: 'PDF文件不支持排序操作',
  undefinedStandard: '未定义',

  // --- issue #17: prices by what is printed, and the phone check (submit rule 7, after the empty phone)
  badPhone: (name: string) => `${name}的联系电话格式不正确`,
  noPrice: (name: string) => `${name}：该商品暂无价格，无法下单`,
  extraPages: '加页',

  // Parsing of zips and folders (issue #17, item 5): what is left out is said, never lost silently.
  zipNothingPrintable: '压缩包中没有可打印的文件',
  zipInZip: '压缩包内的压缩包不会被打开，请解压后上传其中的文件',
  zipInFolder: '文件夹内的压缩包不会被打开，请单独上传该压缩包',
  zipDuplicateName: '压缩包内有同名文件，只保留了第一个',
  zipNameUnreadable: '文件名含有无法识别的字符，请改名后重新打包上传',
  zipNameControlChars: '文件名含有控制字符或文字方向控制符，请改名后重新打包上传',
  zipDuplicateNormalisation: '压缩包内有同名文件（名称仅Unicode写法不同），只保留了第一个',

  // --- Names as long as the spec allows, in any script (issue #19 item 3): a name never answers 5xx.
  linkFilesRepeated: '同一文件在请求中出现了多次',
  parseItemsRepeated: '同一个文件或文件夹在请求中出现了多次',
  uploadPathTaken: (path: string) => `文件路径与已上传的文件或文件夹同名，请改名后重新上传：${path}`,
  /** The bytes of a file's earlier chunks are gone from the disk (another file sent to the same path at the same moment tidied them): sent again, it completes. */
  uploadBytesLost: '该文件已收到的分片已失效，请重新上传该文件',
  zipFileIsFolder: '压缩包内有与文件夹同名的文件，无法保留',

  // --- A file an order refers to is the press's: no call changes or removes its bytes (LAN probe, 2026-11-29).
  orderedFileDelete: '该文件已下单，不能删除',
  /** Addresses per work sent for a hub whose batch goes to one address. */
  /** A file whose upload stopped because the login ran out (401): the page asks for the login, 重试 then sends the rest. */
  uploadLoginEnded: '登录已过期，请重新登录后点击“重试”',
  perWorkAddressUnified: '该客户统一收货，不能为作品分别填写地址',
  /** A batch address sent for a hub whose works each have their own (it would be dropped). */
  unifiedAddressPartial: '该客户需为每个作品分别填写收货地址，不能统一填写',
  /** An order of the other way of delivery than its hub's (the shop switched the hub while the batch was open). */
  deliveryPerWorkNeeded: '该客户需为每个作品分别填写收货地址，请返回修改后重新提交',
  deliveryUnifiedNeeded: '该客户统一收货，不能为作品分别填写地址，请返回修改后重新提交',
  /** A line sent to several addresses, one of them without its number of copies (the ticket printed it without 份数). */
  locationQuantityMissing: (name: string) => `${name}：有多个收货地址时，每个地址都要填写数量`,
  /** A work never checked against the product and SKU it is ordered with (../shared/spec/decisions.md §7: unchecked). */
  workNotChecked: '尚未按所选产品校验，请重新选择产品并校验',
  /** The product or SKU of a line left the catalogue since it was chosen. */
  productGone: (name: string, reason: string) => `${name}：${reason}，请重新选择产品`,
  /** The SKU's toning is fixed (customToning false) and the line asks for the other. */
  toningFixed: (name: string, toning: 'Manual' | 'None') => `${name}：该商品的调色方式不能更改（${toning === 'Manual' ? '人工调色' : '不调色'}）`,
  orderedFileOverwrite: '该文件已下单，不能覆盖；修改后的文件请换一个文件夹上传',
  orderedFileChange: '该文件已下单，不能修改',

  // --- 调整尺寸 and 文件详情 (issue #17 items 4 and 5): the crop and the re-upload report the re-checked result.
  cropPixelsInsufficient: '图片像素不足，裁切后仍不符合尺寸要求',
  cropPassed: '裁切成功，文件校验通过',
  cropDpiWarning: (reason: string) => `裁切成功，但分辨率不符合要求：${reason}`,
  cropStillFails: (reason: string) => `裁切完成，但文件仍不符合要求：${reason}`,
  cropNotRechecked: '裁切成功，请重新校验',
  addFileRefused: '作品中的文件已变化，无法添加文件，请重新上传作品',
  /** 添加文件 of a name the work holds: the new file is added beside it under a free name, never over it. */
  addedUnderFreeName: (asked: string, stored: string) => `作品中已有同名文件「${asked}」，新文件已添加为「${stored}」；要替换原文件，请在该文件行点“重新上传”`,

  // --- The batch upload page (issue #17 item 5): 统一设置地址 over addresses typed by hand.
  addressOverwriteAsk: (count: number, names: string) => `${count}个作品已填写了其他收货地址（${names}），是否用默认地址覆盖？`,
} as const;

/** Server-side messages the spec leaves open (decisions: a clear message for every refusal). */
export const SERVER_MSG = {
  badCredentials: '用户名或密码错误',
  tooManyLogins: '登录尝试过多，请稍后再试',
  unauthenticated: '请先登录',
  forbidden: '无权访问该资源',
  /** A disabled login at login, and its tokens afterwards. */
  loginDisabled: '该账号已停用，请联系印刷厂',
  /** The same for a login of the shop's staff: they are the shop (operators' walk). */
  operatorDisabled: '该账号已停用，请联系管理员',
  /** 员工账号: an operator disabling their own login, or the last enabled one (nobody could log in to the console). */
  operatorDisableSelf: '不能停用自己的账号',
  lastOperator: '至少要保留一个启用的员工账号，否则没有人能登录操作台',
  /** A token given out before the password was reset. */
  sessionExpired: '登录已失效，请重新登录',
  /** A customer's token on an operator route (/api/admin), or an operator's on a customer route. */
  operatorsOnly: '仅限印刷厂操作员访问',
  customersOnly: '操作员账号不能使用客户功能',
  notFound: '资源不存在',
  badRequest: '请求参数不正确',
  internal: '服务器内部错误，请稍后重试',
  unavailable: '服务暂时不可用，请稍后重试',
  /** The server's disk (or its database's) is full: the shop's problem, not the request's (507). */
  storageFull: '服务器存储空间不足，请联系印刷厂',
  bodyTooLarge: '请求内容过大',
  /** A request Node's HTTP parser could not read (a broken header), or whose headers are too large. */
  malformedRequest: '请求格式不正确',
  headersTooLarge: '请求头过大',
  /** A URL whose escapes are not UTF-8, or a part of it longer than the router takes. */
  badUrl: '请求地址不正确',
  urlTooLong: '请求地址过长',
  clientTimeout: '请求超时，请重试',
  previewCancelled: '预览请求已取消',
  /** A client address over its bound of open connections (MAX_CONNECTIONS_PER_ADDRESS). */
  tooManyConnections: '来自同一地址的连接过多，请稍后再试',
  /** A chunk size under MIN_CHUNK_BYTES (the last chunk of a file may be shorter). */
  chunkTooSmall: (min: number) => `分片过小，每个分片至少需要${min}字节（最后一个分片除外）`,
} as const;

/**
 * The fields of the API's bodies and queries in the customer's words, for the refusal of a field (`请求参数不正确：…`):
 * the paths read `trackingNumber: 不能超过100个字符` to the shop's staff (console walk, 2026-11-30). A field not listed
 * keeps its own name.
 */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  works: '作品', articleName: '作品名称', quantity: '数量', productId: '产品', propertyConfigId: '规格', toning: '调色',
  orderLocations: '收货地址', location: '收货地址', contact: '收件人', phone: '联系电话', province: '省份', city: '城市',
  district: '区县', address: '详细地址', addressId: '地址', uploads: '上传', folderId: '文件夹', filePath: '文件路径',
  fileNames: '文件', items: '条目', size: '大小', idempotencyKey: '提交编号', expectedTotalAmount: '确认的合计金额', expectedAmount: '确认金额',
  trackingNumber: '快递单号', carrier: '快递公司', note: '备注', url: '接收地址', secret: '签名密钥', name: '名称',
  login: '登录名', password: '密码', customerName: '客户名称', status: '状态', hubId: '客户中心', q: '搜索内容', page: '页码', dpi: '分辨率', scale: '缩放比例', rotation: '旋转角度',
  x: '裁切区域', y: '裁切区域', width: '裁切区域', height: '裁切区域', isDefault: '默认地址', disabled: '停用',
  document: '草稿', fileName: '文件名', files: '文件', state: '状态', version: '版本', uuid: '作品编号', workUuid: '作品编号',
  customerHubId: '客户中心', pageCount: '页数', components: '部件', choice: '所选产品',
  // Every other field of a request (apps/server/test/api/contract.test.ts lists them from the OpenAPI document).
  username: '用户名', loginId: '登录名', operatorId: '员工账号', rememberMe: '记住登录', newSecret: '新密钥', id: '编号', taskId: '任务编号', batchId: '批次编号',
  waitMs: '等待时间', exp: '链接有效期', sig: '链接签名', sel: '所选订单', t: '时间戳', day: '日期', download: '下载',
  path: '文件路径', filePaths: '文件路径', relativePath: '相对路径', accessPath: '访问路径', chunkTotal: '分片总数', chunks: '分片',
  hashes: '文件指纹', sha256: '文件指纹', workUuids: '作品编号', fixIds: '修复编号', kind: '类型', type: '类型', dataType: '数据类型',
  position: '位置', format: '格式', limit: '数量上限', keyword: '关键词', client: '客户端', field: '查询字段', operator: '比较方式',
  value: '查询内容', sort: '排序', provinceId: '省份', cityId: '城市', customerId: '客户', entityId: '客户', deliveryMethod: '配送方式',
  salesOrderNumber: '订单号', product: '产品', productName: '产品名称', productCategoryId: '产品分类', sku: '规格', priceType: '价格类型',
  priceBasis: '计价方式', component: '部件', componentId: '部件', componentName: '部件名称', customToning: '自定义调色',
  checkNumberOfPages: '校验页数', resolutionLimit: '分辨率下限', resolutionThreshold: '分辨率阈值', makeWay: '制作方式',
  addPageNum: '加页数', fileNum: '文件数', fileArea: '文件面积', autoOrientationDetection: '自动识别方向', batchAddressParsing: '批量地址解析',
  acceptFolder: '按文件夹排序', prune: '取消未列出的产品', dryRun: '试运行', selectedKeys: '所选项', base: '基准版本', check: '校验结果',
  count: '个数', done: '已完成', error: '错误信息', errorType: '错误类型', isFolder: '是否文件夹', itemIndex: '序号', key: '标识',
  lastModified: '修改时间', max: '最大值', min: '最小值', pages: '页数', parsed: '已解析', refused: '已拒绝',
};

/** Names that mean one thing in a query and another in a body: the order list's days, a status change's new status. */
const PLACED_LABELS: Readonly<Record<string, string>> = {
  'querystring:from': '开始日期', 'querystring:to': '结束日期', 'body:to': '新状态',
};

/** A field's path (`works.0.quantity`) in words: 第1个作品的数量. `where`: the part of the request (body, querystring, params). */
export function fieldPathText(path: string, where?: string): string {
  const parts: string[] = [];
  for (const segment of path.split('.').filter(Boolean)) {
    if (/^\d+$/.test(segment) && parts.length > 0) parts[parts.length - 1] = `第${Number(segment) + 1}个${parts[parts.length - 1]}`;
    else parts.push((parts.length === 0 ? PLACED_LABELS[`${where}:${segment}`] : undefined) ?? FIELD_LABELS[segment] ?? segment);
  }
  return parts.join('的');
}
