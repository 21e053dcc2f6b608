import { cp, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';

/**
 * A new DATA_DIR whose PGlite database is migrated and empty: a copy of the one the global setup made
 * once, as a first start would leave it (initdb and the migrations take seconds of CPU each time).
 */
export async function emptyDataDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await cp(inject('pgliteEmptyDataDir'), dir, { recursive: true });
  return dir;
}
