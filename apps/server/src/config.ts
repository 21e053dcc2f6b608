import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

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
  DRAFT_MAX_BYTES: int(1024, 256 * 1024 * 1024).default(16 * 1024 * 1024),
  TRUST_PROXY: z.string().regex(/^(true|false|\d{1,2}|[0-9a-fA-F.:/,\s]+)$/, 'must be true, false, a hop count or a list of proxy addresses').default('false'),
});

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
    draftMaxBytes: e.DRAFT_MAX_BYTES,
    trustProxy: e.TRUST_PROXY === 'true' ? true : e.TRUST_PROXY === 'false' ? false : /^\d+$/.test(e.TRUST_PROXY) ? Number(e.TRUST_PROXY) : e.TRUST_PROXY,
  };
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
