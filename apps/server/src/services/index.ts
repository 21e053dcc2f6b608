import path from 'node:path';
import type { BulkFixResult } from '@portal/contract';
import type { Config } from '../config.ts';
import { catalogueStoreDirs } from '../db/seed/import.ts';
import type { Db } from '../db/client.ts';
import type { HubLock } from '../db/hub-lock.ts';
import { createTaskRunner } from '../jobs/runner.ts';
import { createLocalFileStore } from '../storage/file-store.ts';
import { createTemplateStore } from '../storage/templates.ts';
import { createAccountService } from './accounts.ts';
import { createAdminCatalogueService } from './admin-catalogue.ts';
import { createAdminHubService } from './admin-hubs.ts';
import { createAdminOperatorService } from './admin-operators.ts';
import { createAdminOrderService } from './admin-orders.ts';
import { createCatalogueService } from './catalogue.ts';
import { createBulkFixService, type BulkFixJob } from './bulk-fix.ts';
import { createCheckService } from './check.ts';
import { createContentHashes } from './content-hashes.ts';
import { createCropService } from './crop.ts';
import { createOrderedPaths } from './ordered-paths.ts';
import { createDedupeService } from './dedupe.ts';
import { createDraftService } from './drafts.ts';
import { createFileUrls } from './file-urls.ts';
import { createFileService } from './files.ts';
import { createLocationService } from './locations.ts';
import { createOrderService } from './orders.ts';
import { createOrderEvents } from './order-events.ts';
import { createOrderStatusService } from './order-status.ts';
import { createLoginGuard } from './login-guard.ts';
import { createParseService, type ParseJob, type ParseResult } from './parse.ts';
import { createPreviewService } from './previews.ts';
import { createSuggestService } from './suggest.ts';
import { createProductionService } from './production.ts';
import { createTaskService } from './tasks.ts';
import { createUploadService } from './uploads.ts';
import { createWebhookService, type WebhookJob, type WebhookJobResult } from './webhooks.ts';

/** The long tasks of this server, by name. */
type Jobs = {
  parse: { payload: ParseJob; result: ParseResult & Record<string, unknown> };
  'bulk-fix': { payload: BulkFixJob; result: BulkFixResult & Record<string, unknown> };
};
const JOB_NAMES = ['parse', 'bulk-fix'] as const satisfies ReadonlyArray<keyof Jobs>;
/** The webhook lane: a runner of its own, so a slow receiver never holds up a customer's parse. */
type WebhookJobs = { webhook: { payload: WebhookJob; result: WebhookJobResult } };

type Log = { info: (o: object, m: string) => void; warn: (o: object, m: string) => void; error: (o: object, m: string) => void };

/** Everything the routes call, built once per app from explicit dependencies (`asyncCommitDb`, `hubLock`: db/client.ts). */
export function createServices(db: Db, config: Config, log: Log, asyncCommitDb: Db, hubLock: HubLock) {
  const urls = createFileUrls(config.jwtSecret, config.fileUrlTtlSeconds);
  const store = createLocalFileStore(path.join(config.dataDir, 'files'));
  const runner = createTaskRunner<Jobs>({ db, log, names: JOB_NAMES });
  const ordered = createOrderedPaths(db, hubLock);
  const parse = createParseService({ db, store, config, ordered, enqueue: (hubId, name, payload) => runner.enqueue(hubId, name, payload) });
  // Every job's handler, each once: the runner refuses to start with one missing (assertComplete).
  runner.register('parse', (payload, ctx) => parse.runJob(payload, ctx) as Promise<ParseResult & Record<string, unknown>>);
  // Attempts are bounded by the delivery (WEBHOOK_MAX_ATTEMPTS), not by the runner: a re-run after a crash
  // is not the receiver's failure.
  const webhookRunner = createTaskRunner<WebhookJobs>({ db, log, names: ['webhook'], concurrency: 4, maxAttempts: Infinity, pollMs: 500 });
  const webhooks = createWebhookService({ db, config, insertTasks: (tx, tasks) => webhookRunner.insertIn(tx, tasks), poke: webhookRunner.poke });
  webhookRunner.register('webhook', (payload, ctx) => webhooks.deliver(payload, ctx));
  webhookRunner.assertComplete();
  const catalogue = createCatalogueService(db, urls);
  const previews = createPreviewService(db, store, urls);
  const accounts = createAccountService(db);
  const check = createCheckService({ db, store, catalogue, previews });
  const orderEvents = createOrderEvents();
  const orderStatus = createOrderStatusService({ db, events: orderEvents });
  const bulkFix = createBulkFixService({
    db, store, check, previews, ordered,
    enqueue: (hubId, name, payload) => runner.enqueue(hubId, name, payload),
    getTask: (hubId, id) => runner.get(hubId, id),
  });
  runner.register('bulk-fix', (payload, ctx) => bulkFix.runJob(payload, ctx));
  runner.assertComplete();
  const orders = createOrderService({ db, check, catalogue, accounts, status: orderStatus, ordered, previews });
  const hashes = createContentHashes({ db, store, log });
  // Every order event becomes a webhook message (and, with an endpoint set, a delivery) in the transaction of its change.
  orderEvents.on((tx, event) => webhooks.onOrderEvent(tx, event));
  return {
    urls,
    store,
    runner,
    webhookRunner,
    webhooks,
    parse,
    accounts,
    adminHubs: createAdminHubService(db, accounts),
    adminOperators: createAdminOperatorService(db, accounts),
    adminCatalogue: createAdminCatalogueService(db, catalogueStoreDirs(config.dataDir)),
    catalogue,
    locations: createLocationService(db),
    loginGuard: createLoginGuard(db, config.login),
    templates: createTemplateStore(path.join(config.dataDir, 'templates')),
    hashes,
    uploads: createUploadService({ db, asyncCommitDb, store, urls, config, ordered, hashes, log }),
    files: createFileService(db, store, ordered),
    previews,
    check,
    orders,
    orderEvents,
    orderStatus,
    adminOrders: createAdminOrderService({ db, status: orderStatus, previews, urls }),
    crop: createCropService({ db, store, previews, ordered }),
    bulkFix,
    production: createProductionService({ db, store, catalogue, urls, ticketFont: config.ticketFont }),
    tasks: createTaskService(runner),
    suggest: createSuggestService({ db, check }),
    dedupe: createDedupeService({ db, store, urls, config, orders, ordered, hashes }),
    drafts: createDraftService({ db, maxBytes: config.draftMaxBytes }),
  };
}
export type Services = ReturnType<typeof createServices>;
