import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processAlive } from '../process-alive.ts';

/**
 * One process per PGlite DATA_DIR. PGlite has no postmaster to turn a second server away: two processes
 * on its files write over each other, and every later start aborts inside PGlite. The process that opens
 * it keeps its pid in DATA_DIR/pglite.pid, as PostgreSQL keeps postmaster.pid.
 *
 * Keep in mind:
 * - a lock whose process is gone (kill -9, power loss) or a zombie is taken over: nothing else would
 *   ever remove it;
 * - a lock naming this process is from an earlier process of the same pid (a container restarted), unless
 *   this process holds it now;
 * - the file appears with its pid in it (written beside, then hard-linked into place), so one that names
 *   no pid is a remnant, never a process halfway through taking it;
 * - whether a pid lives is asked of this host: processes of two hosts or containers sharing a DATA_DIR
 *   cannot see each other.
 */
export class DataDirInUseError extends Error {
  constructor(readonly dataDir: string, readonly pid: number) {
    super(`数据目录 ${dataDir} 正由另一个门户进程（pid ${pid}）使用；请先停止它，或为本进程设置另一个 DATA_DIR。`
      + ` / DATA_DIR ${dataDir} is in use by another portal process (pid ${pid}): stop it or give this one another DATA_DIR.`);
    this.name = 'DataDirInUseError';
  }
}

export const lockFileOf = (dataDir: string) => path.join(dataDir, 'pglite.pid');

/** Lock files this process holds, removed at exit too: a process can end without closing its database. */
const held = new Set<string>();
let removeAtExit = false;

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code;

/** The pid in a lock file; null when it names none; undefined when the file is gone. */
function holderOf(file: string): number | null | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (codeOf(err) === 'ENOENT') return undefined;
    throw err;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function removeIfOurs(file: string, mine: string) {
  try {
    if (readFileSync(file, 'utf8') === mine) unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/**
 * Takes the lock of a PGlite DATA_DIR (which must exist) or throws DataDirInUseError naming the process
 * that holds it. Answers the function that lets go of it.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = lockFileOf(dataDir);
  const mine = `${process.pid}\n`;
  const draft = `${file}.${process.pid}`;
  try {
    // Inside the try: on a full disk the write fails after creating the file, which must not stay (crash probe).
    writeFileSync(draft, mine);
    for (;;) {
      try {
        linkSync(draft, file);
        break;
      } catch (err) {
        if (codeOf(err) !== 'EEXIST') throw err;
      }
      const pid = holderOf(file);
      // Let go of meanwhile: try again.
      if (pid === undefined) continue;
      if (pid !== null && (pid === process.pid ? held.has(file) : processAlive(pid))) throw new DataDirInUseError(dataDir, pid);
      // A remnant: taken over.
      try {
        unlinkSync(file);
      } catch (err) {
        if (codeOf(err) !== 'ENOENT') throw err;
      }
    }
  } finally {
    rmSync(draft, { force: true });
  }
  held.add(file);
  if (!removeAtExit) {
    removeAtExit = true;
    process.once('exit', () => {
      for (const f of held) removeIfOurs(f, `${process.pid}\n`);
    });
  }
  return () => {
    if (!held.delete(file)) return;
    removeIfOurs(file, mine);
  };
}
