import { loadConfig } from '../config.ts';
import { openDb } from '../db/client.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import type { CliDeps } from './commands.ts';

/** Runs a command with the server's configuration (DATA_DIR, DATABASE_URL) and exits with its code. */
export async function runCli(command: (argv: string[], deps: CliDeps) => Promise<number>): Promise<void> {
  try {
    const config = loadConfig(process.env);
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
