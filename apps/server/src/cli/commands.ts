import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { DbHandle } from '../db/client.ts';
import { AddCustomerError, addCustomer, type AddCustomerInput } from '../db/seed/customers.ts';
import { addOperator, resetOperator } from '../db/seed/operators.ts';
import {
  CatalogueImportError, catalogueStoreDirs, formatProblem, formatSummary, importCatalogue, parseCatalogueFile,
} from '../db/seed/import.ts';

/**
 * The work of the command-line tools, apart from reading the environment, so tests can run them against
 * a database they opened themselves. Each returns the process exit code: 0 done, 1 refused, 2 wrong usage.
 */
export type CliDeps = {
  dataDir: string;
  /** Relative paths in the arguments are taken from here. */
  cwd: string;
  open: () => Promise<DbHandle>;
  out: (line: string) => void;
  err: (line: string) => void;
};

export const IMPORT_USAGE = `用法: npm run import-catalogue -- <catalogue.json> [--templates <dir>] [--images <dir>] [--prune]
  --templates  模板文件所在目录（默认: JSON 文件旁的 templates/）
  --images     图片路径的根目录（默认: JSON 文件所在目录）
  --prune      文件中没有的产品标记为已取消（文件即完整目录）
使用内嵌数据库（未设置 DATABASE_URL）时，请先停止服务器再导入。`;

export const ADD_CUSTOMER_USAGE = `用法: npm run add-customer -- --hub <id> --login <登录名> --password <密码> [--customer <客户名>]
       npm run add-customer -- --hub new --hub-name <名称> [--batch-address] --login <登录名> --password <密码> [--customer <客户名>]
  --hub            已有客户中心的 id，或 new 新建
  --hub-name       新客户中心的名称
  --batch-address  新客户中心按行填写收货地址（batchAddressParsing）
  --customer       登录所属客户；客户中心里没有同名客户时新建（默认: 客户中心唯一的客户，或客户中心名称）
使用内嵌数据库（未设置 DATABASE_URL）时，请先停止服务器再执行。`;


export async function runImportCatalogue(argv: string[], deps: CliDeps): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv, allowPositionals: true, strict: true,
      options: { templates: { type: 'string' }, images: { type: 'string' }, prune: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (e) {
    deps.err(`${e instanceof Error ? e.message : String(e)}\n${IMPORT_USAGE}`);
    return 2;
  }
  if (args.values.help) {
    deps.out(IMPORT_USAGE);
    return 0;
  }
  const [file, ...extra] = args.positionals;
  if (!file || extra.length) {
    deps.err(IMPORT_USAGE);
    return 2;
  }
  const jsonPath = path.resolve(deps.cwd, file);
  let text: Buffer;
  try {
    text = await readFile(jsonPath);
  } catch (e) {
    deps.err(`无法读取 ${jsonPath}: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  const parsed = parseCatalogueFile(text);
  if (!parsed.ok) {
    deps.err(`${jsonPath} 有 ${parsed.problems.length} 个问题，未导入:`);
    for (const p of parsed.problems) deps.err(`  ${formatProblem(p)}`);
    return 1;
  }

  const base = path.dirname(jsonPath);
  const handle = await deps.open();
  try {
    const summary = await importCatalogue(handle.db, parsed.catalogue, {
      templatesSourceDir: args.values.templates ? path.resolve(deps.cwd, args.values.templates) : path.join(base, 'templates'),
      imagesSourceDir: args.values.images ? path.resolve(deps.cwd, args.values.images) : base,
      ...catalogueStoreDirs(deps.dataDir),
      source: path.basename(jsonPath),
      prune: args.values.prune ?? false,
    });
    deps.out(`已导入 ${jsonPath}:`);
    for (const l of formatSummary(summary)) deps.out(l);
    return 0;
  } catch (e) {
    if (e instanceof CatalogueImportError) {
      deps.err(`${jsonPath} 有 ${e.problems.length} 个问题，未导入:`);
      for (const p of e.problems) deps.err(`  ${formatProblem(p)}`);
      return 1;
    }
    throw e;
  } finally {
    await handle.close();
  }
}

export async function runAddCustomer(argv: string[], deps: CliDeps): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv, strict: true, allowPositionals: false,
      options: {
        hub: { type: 'string' }, 'hub-name': { type: 'string' }, 'batch-address': { type: 'boolean' },
        login: { type: 'string' }, password: { type: 'string' }, customer: { type: 'string' }, help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    deps.err(`${e instanceof Error ? e.message : String(e)}\n${ADD_CUSTOMER_USAGE}`);
    return 2;
  }
  if (values.help) {
    deps.out(ADD_CUSTOMER_USAGE);
    return 0;
  }
  const hub = values.hub === 'new' ? 'new' : /^[1-9]\d*$/.test(values.hub ?? '') ? Number(values.hub) : null;
  if (hub === null || values.login === undefined || values.password === undefined) {
    deps.err(ADD_CUSTOMER_USAGE);
    return 2;
  }
  const input: AddCustomerInput = { hub, hubName: values['hub-name'], batchAddress: values['batch-address'], login: values.login, password: values.password, customer: values.customer };
  return addLogin(deps, async (db) => {
    const r = await addCustomer(db, input);
    return `已添加登录 ${r.login}（用户 ${r.userId}）: 客户中心 ${r.hubId}${r.hubCreated ? '（新建）' : ''}，客户 ${r.customerName}（${r.customerId}${r.customerCreated ? '，新建' : ''}）`;
  });
}

/** Runs one login's addition (or an operator's reset) on the database: its line on success, its refusal (exit 1) when the input is refused. */
async function addLogin(deps: CliDeps, add: (db: Awaited<ReturnType<CliDeps['open']>>['db']) => Promise<string>): Promise<number> {
  const handle = await deps.open();
  try {
    deps.out(await add(handle.db));
    return 0;
  } catch (e) {
    if (e instanceof AddCustomerError) {
      deps.err(e.message);
      return 1;
    }
    throw e;
  } finally {
    await handle.close();
  }
}

export const ADD_OPERATOR_USAGE = `用法: npm run add-operator -- <登录名> <密码>
       npm run add-operator -- <登录名> <新密码> --reset
  添加印刷厂操作员登录（使用 /admin 操作台，可查看所有客户中心）。
  --reset  为已有的操作员设置新密码并启用该账号（忘记了所有操作员的密码，或账号都已停用时）；已登录的会话随之失效
使用内嵌数据库（未设置 DATABASE_URL）时，请先停止服务器再执行。`;

export async function runAddOperator(argv: string[], deps: CliDeps): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: argv, strict: true, allowPositionals: true, options: { reset: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  } catch (e) {
    deps.err(`${e instanceof Error ? e.message : String(e)}\n${ADD_OPERATOR_USAGE}`);
    return 2;
  }
  if (args.values.help) {
    deps.out(ADD_OPERATOR_USAGE);
    return 0;
  }
  const [login, password, ...extra] = args.positionals;
  if (login === undefined || password === undefined || extra.length) {
    deps.err(ADD_OPERATOR_USAGE);
    return 2;
  }
  if (args.values.reset) {
    return addLogin(deps, async (db) => {
      const r = await resetOperator(db, { login, password });
      return `已重置操作员 ${r.login}（${r.id}）的密码，账号已启用`;
    });
  }
  return addLogin(deps, async (db) => {
    const r = await addOperator(db, { login, password });
    return `已添加操作员 ${r.login}（${r.id}）`;
  });
}
