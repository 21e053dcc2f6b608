import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { SERVER_MSG } from '@portal/contract';
import type { Config } from './config.ts';
import { openDb, type DbHandle } from './db/client.ts';
import { seedDemo } from './db/seed/demo.ts';
import { catalogueStoreDirs } from './db/seed/import.ts';
import { seedRegions } from './db/seed/regions.ts';
import { authPlugin } from './plugins/auth.ts';
import { bodyFirstPlugin } from './plugins/body-first.ts';
import { connectionBoundPlugin } from './plugins/connection-bound.ts';
import { clientErrorHandler, errorHandlerPlugin, frameworkErrors } from './plugins/error-handler.ts';
import { adminRoutes } from './routes/admin/index.ts';
import { productionDownloadRoutes } from './routes/admin/production.ts';
import { authRoutes } from './routes/auth.ts';
import { customerHubRoutes } from './routes/customer-hubs.ts';
import { bulkFixRoutes } from './routes/bulk-fix.ts';
import { draftRoutes } from './routes/drafts.ts';
import { fileRoutes, fixRoutes, previewRoutes } from './routes/files.ts';
import { salesOrderRoutes } from './routes/sales-order.ts';
import { locationRoutes } from './routes/locations.ts';
import { suggestRoutes } from './routes/suggest.ts';
import { dedupeRoutes } from './routes/dedupe.ts';
import { closePdfJs } from './media/pdfjs.ts';
import { createServices } from './services/index.ts';

export type { Config };

/** The largest body an answer decided before it waits for (plugins/body-first.ts): README's proxy passes up to 64 MB. */
const BODY_FIRST_MAX_BYTES = 64 * 1024 * 1024;

export type BuildOptions = {
  /** An already open database (tests); otherwise opened from the config and closed with the app. */
  db?: DbHandle;
  logger?: boolean;
};

/** Builds the whole server: plugins → routes → one error handler. Used by server.ts and by the tests. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false ? false : {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.body.password'],
    },
    bodyLimit: config.bodyLimitBytes,
    // X-Forwarded-For is believed only from configured proxies; otherwise a client could pick its own address.
    trustProxy: config.trustProxy as string,
    // Large batches keep connections busy; let slow clients finish a chunk before timing out.
    requestTimeout: 120_000,
    routerOptions: { maxParamLength: 1000 },
    // A JSON body's __proto__ and constructor.prototype keys are dropped like any field a schema does not know:
    // refused, they were answered 请求内容不是有效的JSON, which they are (API probe, 2026-11-30).
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    clientErrorHandler,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const handle = options.db ?? (await openDb(config.databaseUrl
    ? { databaseUrl: config.databaseUrl, poolSize: config.dbPoolSize }
    : { dataDir: config.dataDir }));
  // Regions are reference data every shop needs, demo or not; both seeds do nothing once done.
  await seedRegions(handle.db);
  if (config.seedDemo) await seedDemo(handle.db, { dataDir: config.dataDir });

  const services = createServices(handle.db, config, app.log, handle.asyncCommitDb, handle.hubLock);
  app.decorate('services', services);
  // Files a killed process of this host was assembling are given back before the first chunk comes.
  await services.uploads.reclaimDead().then((n) => n && app.log.info({ uploads: n }, 'took back the uploads of dead processes'),
    (err: unknown) => app.log.warn({ err }, 'could not take back the uploads of dead processes'));
  if (config.runWorker) {
    services.runner.start();
    services.webhookRunner.start();
    app.addHook('onReady', async () => void services.hashes.start().catch((err: unknown) => app.log.warn({ err }, 'could not look for stored files without a hash')));
    const sweep = () => services.uploads.sweepAbandoned().catch((err) => app.log.warn({ err }, 'sweep of abandoned uploads failed'));
    const sweeper = setInterval(sweep, 10 * 60_000);
    sweeper.unref();
    app.addHook('onReady', async () => void sweep());
    app.addHook('onClose', async () => clearInterval(sweeper));
  }
  // An answer given while the server stops closes its connection: Node closes only the connections idle when the stop
  // begins, and a browser's kept-alive one, whose request was in flight then, held the stop until the 30 s limit
  // (restart walk: 提交订单, then SIGTERM).
  let stopping = false;
  app.addHook('preClose', async () => void (stopping = true));
  app.addHook('onSend', async (_request, reply) => void (stopping && reply.header('connection', 'close')));
  // Stop taking work and let running tasks finish before the database closes; then pdf.js's threads.
  app.addHook('onClose', async () => {
    await Promise.all([services.runner.stop(), services.webhookRunner.stop(), services.hashes.stop()]);
    await closePdfJs();
    if (!options.db) await handle.close();
  });

  await app.register(errorHandlerPlugin);
  await app.register(connectionBoundPlugin, { maxPerAddress: config.maxConnectionsPerAddress });
  await app.register(bodyFirstPlugin, { maxBytes: BODY_FIRST_MAX_BYTES, waitMs: config.upload.bodyTimeoutMs });
  // Security headers from helmet, its two policies built once (@fastify/helmet builds a helmet middleware,
  // directives parsed anew, on every request). A browser told to upgrade a page served over plain http
  // fetches its scripts over https and shows nothing; HSTS would lock the LAN address to https. Both go
  // only with a request that came over https, directly or through a trusted proxy (TRUST_PROXY,
  // X-Forwarded-Proto).
  const securityHeaders = (overHttps: boolean) => helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // wasm-unsafe-eval: WebAssembly (the hash of picked files, features/dedupe) and nothing else eval-like.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: overHttps ? [] : null,
      },
    },
    strictTransportSecurity: overHttps ? { maxAge: 15552000, includeSubDomains: true } : false,
    // A browser ignores COOP and Origin-Agent-Cluster from an origin it does not trust (a LAN address over
    // http) and says so in the console of every page: sent only where they apply.
    crossOriginOpenerPolicy: overHttps ? { policy: 'same-origin' } : false,
    originAgentCluster: overHttps,
    crossOriginEmbedderPolicy: false,
  });
  const overHttp = securityHeaders(false);
  const overHttps = securityHeaders(true);
  app.addHook('onRequest', (request, reply, done) => {
    (request.protocol === 'https' ? overHttps : overHttp)(request.raw, reply.raw, () => done());
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: '印刷门户 API', description: 'The customer portal of a print shop', version: '0.1.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true, uiConfig: { docExpansion: 'list' } });
  await app.register(authPlugin, { secret: config.jwtSecret, ttlSeconds: config.tokenTtlSeconds, checkSession: services.accounts.checkSession });

  await app.register(async (api) => {
    await api.register(authRoutes, { services });
    await api.register(customerHubRoutes, { services });
    await api.register(locationRoutes, { services });
    await api.register(fileRoutes, { services, config });
    await api.register(previewRoutes, { services });
    await api.register(fixRoutes, { services });
    await api.register(bulkFixRoutes, { services });
    await api.register(salesOrderRoutes, { services });
    await api.register(suggestRoutes, { services });
    await api.register(dedupeRoutes, { services });
    // Everything under /api/admin is for operators only: plugins/auth.ts refuses anyone else by this prefix.
    await api.register(adminRoutes, { services, prefix: '/admin' });
    await api.register(productionDownloadRoutes, { services });
    await api.register(draftRoutes, { services, config });
  }, { prefix: '/api' });

  // Product and option pictures of the imported catalogue (public: they are the shop's shop window).
  const { imagesDir } = catalogueStoreDirs(config.dataDir);
  await mkdir(imagesDir, { recursive: true });
  await app.register(fastifyStatic, { root: imagesDir, prefix: '/catalogue-assets/', decorateReply: false, maxAge: '1d' });
  const indexHtml = path.join(config.webDist, 'index.html');
  const spa = existsSync(indexHtml);
  if (spa) {
    // preCompressed: the build's .br or .gz copy (apps/web/precompress.ts) for a browser that accepts
    // it, with Content-Encoding and Vary: Accept-Encoding; the file itself otherwise. Also for the page
    // sent by the not-found handler below (reply.sendFile). wildcard: files are looked up when asked
    // for, not listed at start, so a build made while the server runs is served whole (its page and
    // its new scripts); a name that is not there goes on to the not-found handler.
    await app.register(fastifyStatic, { root: config.webDist, prefix: '/', wildcard: true, index: 'index.html', preCompressed: true,
      setHeaders: (res, file) => {
        res.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      } });
  } else {
    app.log.warn({ webDist: config.webDist }, 'the web app is not built: run `npm run build` to serve it');
  }
  app.setNotFoundHandler((request, reply) => {
    // Client-side routes (/login, /batch-upload …) all load the app's page; HEAD too (an uptime check's way to ask).
    if (spa && (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api') && !path.extname(request.url.split('?')[0] ?? '')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', config.webDist);
    }
    return reply.status(404).send({ message: SERVER_MSG.notFound, code: 'not-found' });
  });

  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: ReturnType<typeof createServices>;
  }
}
