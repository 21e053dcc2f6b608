import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

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
const app = await buildApp(config);
await app.listen({ port: config.port, host: config.host });
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
