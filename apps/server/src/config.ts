import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { WEBHOOK_MSG, WEBHOOK_SECRET_PATTERN, WebhookUrl } from '@portal/contract';
import { serverFile } from './paths.ts';

const REPO_ROOT = serverFile('../../');

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Every setting of the server. process.env is read here and nowhere else. */
const EnvSchema = z.object({
  PORT: int(0, 65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL').optional(),
  DB_POOL_SIZE: int(1, 200).default(10),
  SEED_DEMO: bool.default(true),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  TOKEN_TTL_SECONDS: int(60, 30 * 24 * 3600).default(12 * 3600),
  FILE_URL_TTL_SECONDS: int(60, 7 * 24 * 3600).default(3600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOGIN_MAX_FAILURES: int(1, 1000).default(5),
  LOGIN_WINDOW_SECONDS: int(1, 24 * 3600).default(900),
  MAX_CHUNK_BYTES: int(1024, 64 * 1024 * 1024).default(4 * 1024 * 1024),
  MIN_CHUNK_BYTES: int(1024, 64 * 1024 * 1024).default(256 * 1024),
  CHUNK_BODY_TIMEOUT_SECONDS: int(1, 3600).default(30),
  MAX_CONNECTIONS_PER_ADDRESS: int(0, 100_000).optional(),
  MAX_FILE_BYTES: int(1, Number.MAX_SAFE_INTEGER).default(2 * 1024 ** 3),
  MAX_ZIP_ENTRIES: int(1, 1_000_000).default(10_000),
  MAX_ZIP_BYTES: int(1, Number.MAX_SAFE_INTEGER).default(4 * 1024 ** 3),
  MAX_ZIP_RATIO: int(2, 100_000).default(200),
  PARTIAL_UPLOAD_MAX_AGE_HOURS: z.coerce.number().positive().max(24 * 365).default(48),
  RUN_WORKER: bool.default(true),
  WEB_DIST: z.string().min(1).optional(),
  BODY_LIMIT_BYTES: int(1024, 64 * 1024 * 1024).default(1024 * 1024),
  WEBHOOK_URL: WebhookUrl.optional(),
  WEBHOOK_SECRET: z.string().regex(WEBHOOK_SECRET_PATTERN, WEBHOOK_MSG.badSecret).optional(),
  WEBHOOK_TIMEOUT_SECONDS: int(1, 300).default(10),
  WEBHOOK_MAX_ATTEMPTS: int(1, 50).default(8),
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().positive().max(3600).default(5),
  TICKET_FONT: z.string().min(1).optional(),
  DRAFT_MAX_BYTES: int(1024, 256 * 1024 * 1024).default(16 * 1024 * 1024),
  TRUST_PROXY: z.string().regex(/^(true|false|\d{1,2}|[0-9a-fA-F.:/,\s]+)$/, 'must be true, false, a hop count or a list of proxy addresses').default('false'),
}).superRefine((e, ctx) => {
  // One without the other would sign with nothing, or send to nowhere.
  if (e.WEBHOOK_URL && !e.WEBHOOK_SECRET) ctx.addIssue({ code: 'custom', path: ['WEBHOOK_SECRET'], message: 'must be set with WEBHOOK_URL (whsec_<base64>)' });
  if (e.WEBHOOK_SECRET && !e.WEBHOOK_URL) ctx.addIssue({ code: 'custom', path: ['WEBHOOK_URL'], message: 'must be set with WEBHOOK_SECRET' });
});

/** Where Debian's fonts-noto-cjk (and other distributions' packages of it) put Noto Sans CJK. */
const NOTO_CJK_PATHS = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/opentype/noto-cjk/NotoSansCJK-Regular.ttc',
];

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  dbPoolSize: number;
  seedDemo: boolean;
  jwtSecret: string;
  tokenTtlSeconds: number;
  fileUrlTtlSeconds: number;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  login: { maxFailures: number; windowSeconds: number };
  upload: {
    maxChunkBytes: number;
    /** The smallest chunk size a client may cut a file into (its last chunk may be shorter). */
    minChunkBytes: number;
    maxFileBytes: number;
    partialMaxAgeHours: number;
    /** A chunk's body that sends nothing for this long is cut and its connection closed. */
    bodyTimeoutMs: number;
  };
  /** Open connections one client address may hold; 0: no bound. */
  maxConnectionsPerAddress: number;
  zip: { maxEntries: number; maxTotalBytes: number; maxRatio: number };
  runWorker: boolean;
  webDist: string;
  bodyLimitBytes: number;
  /** Largest open batch draft (its JSON), issue #21 item 3. */
  draftMaxBytes: number;
  /** Fastify's trustProxy: false, true, a hop count, or the proxies' addresses. */
  trustProxy: boolean | number | string;
  webhook: {
    /** The endpoint of WEBHOOK_URL / WEBHOOK_SECRET; it takes the place of the one set in the console. */
    env: { url: string; secret: string } | null;
    timeoutMs: number;
    maxAttempts: number;
    /** The wait after the first failed attempt; each later wait is four times the one before (capped at 10 h). */
    retryBaseMs: number;
  };
  /** A Noto Sans CJK font file (.ttc or .otf) for the job tickets; null when none was found (tickets are refused). */
  ticketFont: string | null;
};

export class ConfigError extends Error {}

/**
 * Parses the environment once. A wrong value stops the server with a message that names the setting.
 * The JWT secret, when not given, is generated once and kept in DATA_DIR so tokens survive restarts.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    dbPoolSize: e.DB_POOL_SIZE,
    seedDemo: e.SEED_DEMO,
    jwtSecret: e.JWT_SECRET ?? persistedSecret(dataDir),
    tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
    fileUrlTtlSeconds: e.FILE_URL_TTL_SECONDS,
    logLevel: e.LOG_LEVEL,
    login: { maxFailures: e.LOGIN_MAX_FAILURES, windowSeconds: e.LOGIN_WINDOW_SECONDS },
    upload: {
      maxChunkBytes: e.MAX_CHUNK_BYTES, minChunkBytes: e.MIN_CHUNK_BYTES, maxFileBytes: e.MAX_FILE_BYTES,
      partialMaxAgeHours: e.PARTIAL_UPLOAD_MAX_AGE_HOURS, bodyTimeoutMs: e.CHUNK_BODY_TIMEOUT_SECONDS * 1000,
    },
    // Behind a trusted proxy every connection is the proxy's: bounding them per address would bound the shop.
    maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS ?? (e.TRUST_PROXY === 'false' ? 64 : 0),
    zip: { maxEntries: e.MAX_ZIP_ENTRIES, maxTotalBytes: e.MAX_ZIP_BYTES, maxRatio: e.MAX_ZIP_RATIO },
    runWorker: e.RUN_WORKER,
    webDist: path.resolve(e.WEB_DIST ?? path.join(REPO_ROOT, 'apps/web/dist')),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    webhook: {
      env: e.WEBHOOK_URL && e.WEBHOOK_SECRET ? { url: e.WEBHOOK_URL, secret: e.WEBHOOK_SECRET } : null,
      timeoutMs: e.WEBHOOK_TIMEOUT_SECONDS * 1000,
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_SECONDS * 1000,
    },
    ticketFont: e.TICKET_FONT ? (existsSync(e.TICKET_FONT) ? path.resolve(e.TICKET_FONT) : missingFont(e.TICKET_FONT)) : NOTO_CJK_PATHS.find((p) => existsSync(p)) ?? null,
    draftMaxBytes: e.DRAFT_MAX_BYTES,
    trustProxy: e.TRUST_PROXY === 'true' ? true : e.TRUST_PROXY === 'false' ? false : /^\d+$/.test(e.TRUST_PROXY) ? Number(e.TRUST_PROXY) : e.TRUST_PROXY,
  };
}

function missingFont(p: string): never {
  throw new ConfigError(`Invalid configuration:\n  TICKET_FONT: no such file: ${p}`);
}

function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    const s = readFileSync(file, 'utf8').trim();
    if (s.length >= 32) return s;
  } catch {
    // first start: generate below
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    // wx: when two processes start on one DATA_DIR at once, the first secret written wins for both.
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch {
    return readFileSync(file, 'utf8').trim();
  }
}
