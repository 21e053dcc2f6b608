import path from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { createTaskRunner } from '../jobs/runner.ts';
import { createLocalFileStore } from '../storage/file-store.ts';
import { createTemplateStore } from '../storage/templates.ts';
import { createAccountService } from './accounts.ts';
import { createCatalogueService } from './catalogue.ts';
import { createCheckService } from './check.ts';
import { createCropService } from './crop.ts';
import { createDraftService } from './drafts.ts';
import { createFileUrls } from './file-urls.ts';
import { createFileService } from './files.ts';
import { createLocationService } from './locations.ts';
import { createOrderService } from './orders.ts';
import { createLoginGuard } from './login-guard.ts';
import { createParseService, type ParseJob, type ParseResult } from './parse.ts';
import { createPreviewService } from './previews.ts';
import { createTaskService } from './tasks.ts';
import { createUploadService } from './uploads.ts';

/** The long tasks of this server, by name. */
type Jobs = { parse: { payload: ParseJob; result: ParseResult & Record<string, unknown> } };
const JOB_NAMES = ['parse'] as const satisfies ReadonlyArray<keyof Jobs>;

type Log = { info: (o: object, m: string) => void; warn: (o: object, m: string) => void; error: (o: object, m: string) => void };

/** Everything the routes call, built once per app from explicit dependencies. */
export function createServices(db: Db, config: Config, log: Log) {
  const urls = createFileUrls(config.jwtSecret, config.fileUrlTtlSeconds);
  const store = createLocalFileStore(path.join(config.dataDir, 'files'));
  const runner = createTaskRunner<Jobs>({ db, log, names: JOB_NAMES });
  const parse = createParseService({ db, store, config, enqueue: (hubId, name, payload) => runner.enqueue(hubId, name, payload) });
  // Every job's handler, each once: the runner refuses to start with one missing (assertComplete).
  runner.register('parse', (payload, ctx) => parse.runJob(payload, ctx) as Promise<ParseResult & Record<string, unknown>>);
  runner.assertComplete();
  const catalogue = createCatalogueService(db, urls);
  const previews = createPreviewService(db, store, urls);
  const accounts = createAccountService(db);
  const check = createCheckService({ db, store, catalogue, previews });
  const orders = createOrderService({ db, check, catalogue, accounts });
  return {
    urls,
    store,
    runner,
    parse,
    accounts,
    catalogue,
    locations: createLocationService(db),
    loginGuard: createLoginGuard(db, config.login),
    templates: createTemplateStore(path.join(config.dataDir, 'templates')),
    uploads: createUploadService({ db, store, urls, config, log }),
    files: createFileService(db, store, orders.isOrdered),
    previews,
    check,
    orders,
    crop: createCropService({ db, store, previews }),
    tasks: createTaskService(runner),
    drafts: createDraftService({ db, maxBytes: config.draftMaxBytes }),
  };
}
export type Services = ReturnType<typeof createServices>;
