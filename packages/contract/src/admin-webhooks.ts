import { z } from 'zod';

/** The events the shop's ERP can receive (Standard Webhooks `type`). */
export const WEBHOOK_EVENT_TYPES = ['order.created', 'order.status_changed', 'order.cancelled', 'order.tracking_changed'] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
/** How the console names each event (the type itself is shown beside it: the ERP's developer reads that). */
export const WEBHOOK_EVENT_TEXT: Record<string, string> = {
  'order.created': '新订单',
  'order.status_changed': '状态变更',
  'order.cancelled': '订单取消',
  'order.tracking_changed': '快递信息更正',
  'webhook.test': '测试消息',
};
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** A Standard Webhooks secret: `whsec_` and the base64 of 24 to 64 random bytes. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;

export const WEBHOOK_MSG = {
  badUrl: 'Webhook 地址必须是 http:// 或 https:// 开头的完整网址',
  credentialsInUrl: '接收地址不能包含用户名或密码，请在接收方改用签名密钥验证',
  badSecret: '签名密钥格式不正确：应为 whsec_ 加 Base64 编码的密钥（至少 24 字节）',
  fromEnv: 'Webhook 地址由服务器环境变量 WEBHOOK_URL 设置，不能在控制台修改',
  noEndpoint: '尚未设置 Webhook 地址',
  deliveryNotFound: '投递记录不存在',
  timeout: (s: number) => `接收方 ${s} 秒内没有应答`,
  redirect: (status: number) => `接收方要求重定向（${status}），已拒绝跟随`,
  httpStatus: (status: number, excerpt: string) => `接收方返回 HTTP ${status}${excerpt ? `：${excerpt}` : ''}`,
  /** A connection that failed, with the network's own code (ECONNREFUSED, …) for whoever fixes the receiver. */
  unreachable: (why: string, code: string) => `无法连接接收方：${why}（${code}）`,
} as const;

/** Why a connection failed, by the code Node or undici gives; others are named by their code alone. */
export const NETWORK_ERROR_TEXT: Readonly<Record<string, string>> = {
  ECONNREFUSED: '连接被拒绝',
  ENOTFOUND: '域名无法解析',
  EAI_AGAIN: '域名无法解析',
  ECONNRESET: '连接被对方中断',
  UND_ERR_SOCKET: '连接被对方中断',
  ETIMEDOUT: '连接超时',
  UND_ERR_CONNECT_TIMEOUT: '连接超时',
  EHOSTUNREACH: '主机不可达',
  ENETUNREACH: '网络不可达',
  'bad port': '该端口禁止连接，请换一个端口',
  CERT_HAS_EXPIRED: 'HTTPS 证书已过期',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'HTTPS 证书不受信任',
  SELF_SIGNED_CERT_IN_CHAIN: 'HTTPS 证书不受信任',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'HTTPS 证书不受信任',
  ERR_TLS_CERT_ALTNAME_INVALID: 'HTTPS 证书与域名不符',
};

export const WebhookUrl = z.string().trim().max(2000).refine((v) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && Boolean(u.hostname);
  } catch {
    return false;
  }
}, WEBHOOK_MSG.badUrl).refine((v) => {
  // fetch refuses a URL with credentials (and its error echoed them): an ERP that wants them takes a header or a secret path.
  try {
    const u = new URL(v);
    return !u.username && !u.password;
  } catch {
    return true;
  }
}, WEBHOOK_MSG.credentialsInUrl);

export const WebhookEndpoint = z.object({
  url: z.string(),
  /** The secret in full: the operator copies it into the ERP's verifier. */
  secret: z.string(),
  /** 'env': WEBHOOK_URL and WEBHOOK_SECRET, read-only here; 'console': set on this page. */
  source: z.enum(['env', 'console']),
  updatedAt: z.string().nullable(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;
export const WebhookEndpointAnswer = z.object({ endpoint: WebhookEndpoint.nullable() });
export type WebhookEndpointAnswer = z.infer<typeof WebhookEndpointAnswer>;

export const WebhookEndpointBody = z.object({
  url: WebhookUrl,
  /**
   * The secret to sign with. Left out or empty: the current one is kept (a first endpoint gets a new one);
   * saving a new URL must not change what the ERP verifies with.
   */
  secret: z.string().trim().regex(WEBHOOK_SECRET_PATTERN, WEBHOOK_MSG.badSecret).optional().or(z.literal('')),
  /** true: a new `whsec_` secret is generated (the console's 重新生成密钥), unless `secret` is given. */
  newSecret: z.boolean().optional(),
});
export type WebhookEndpointBody = z.infer<typeof WebhookEndpointBody>;

export const WebhookTestAnswer = z.object({
  ok: z.boolean(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
  webhookId: z.string(),
});
export type WebhookTestAnswer = z.infer<typeof WebhookTestAnswer>;

export const WebhookAttempt = z.object({
  at: z.string(),
  url: z.string(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookDelivery = z.object({
  id: z.number().int(),
  /** The webhook-id header: the same for every attempt and every resend of one event. */
  webhookId: z.string(),
  eventType: z.string(),
  salesOrderNumber: z.string().nullable(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  attemptLog: z.array(WebhookAttempt),
  /** The JSON body as sent. */
  body: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveriesQuery = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(['pending', 'succeeded', 'failed']).optional(),
  salesOrderNumber: z.string().trim().max(40).optional(),
});
export const WebhookDeliveriesAnswer = z.object({ items: z.array(WebhookDelivery), total: z.number().int() });
export type WebhookDeliveriesAnswer = z.infer<typeof WebhookDeliveriesAnswer>;
export const WebhookResendAnswer = z.object({ delivery: WebhookDelivery });
