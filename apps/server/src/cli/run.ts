import path from 'node:path';
import { loadConfig } from '../config.ts';
import { openDb } from '../db/client.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { serverFile } from '../paths.ts';
import type { CliDeps } from './commands.ts';

/** The repository's root: where `npm start` runs the server, so where a relative DATA_DIR (./data by default) is. */
const REPO_ROOT = serverFile('../..');

/** Runs a command with the server's configuration (DATA_DIR, DATABASE_URL) and exits with its code. */
export async function runCli(command: (argv: string[], deps: CliDeps) => Promise<number>): Promise<void> {
  try {
    // `npm run … -w` runs a command in apps/server: a relative DATA_DIR is taken from the root, as the server takes it
    // (the commands wrote to apps/server/data, a database of their own, and said they had added the login: README walk).
    const config = loadConfig({ ...process.env, DATA_DIR: path.resolve(REPO_ROOT, process.env.DATA_DIR || './data') });
    const code = await command(process.argv.slice(2), {
      dataDir: config.dataDir,
      // `npm run … -w` runs in the workspace folder; INIT_CWD is where the user typed the command, so a
      // relative file name means what they expect. It is not configuration, hence not in loadConfig.
      cwd: process.env.INIT_CWD ?? process.cwd(),
      // A command needs one connection; a small pool leaves the server's connections alone.
      open: () => (config.databaseUrl ? openDb({ databaseUrl: config.databaseUrl, poolSize: 2 }) : openDb({ dataDir: config.dataDir })),
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
    });
    process.exitCode = code;
  } catch (e) {
    // A server running on the same PGlite DATA_DIR: the message says what to do, a stack would not.
    process.stderr.write(`${e instanceof DataDirInUseError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  }
}
