import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

const started = Date.now();
let app: FastifyInstance;
try {
  app = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  // A refusal the person starting the server can act on is said alone; anything else with its stack.
  const full = (err as { code?: unknown })?.code === 'ENOSPC';
  console.error(err instanceof DataDirInUseError ? err.message
    : full ? `数据目录所在的磁盘已满（${config.dataDir}）：请腾出空间后再启动` : err);
  process.exit(1);
}
app.log.info({ ms: Date.now() - started, dataDir: config.dataDir, database: config.databaseUrl ? 'postgres' : 'pglite' }, 'portal ready');

// SIGTERM lets running requests and tasks finish before the database is closed.
let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    app.close().then(() => process.exit(0), (err) => {
      app.log.error({ err }, 'error while closing');
      process.exit(1);
    });
  });
}
