import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Goal, Quantity } from './types.ts';

export interface Machine {
  os: string;
  cpus: string;
  memoryGb: number;
  node: string;
  commit: string;
}

export interface Row {
  benchmark: string;
  metric: string;
  goal: Goal;
  figure?: Quantity;
  baseline?: Quantity;
  ratio?: number;
  held?: boolean;
  extra?: Record<string, number | string>;
  /** Set when the benchmark crashed: no figure then. */
  error?: string;
  seconds: number;
}

export interface RunRecord {
  startedAt: string;
  seconds: number;
  quick: boolean;
  benchmarks: string[];
  machine: Machine;
  rows: Row[];
}

function git(repoRoot: string, args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

export function machine(repoRoot: string): Machine {
  const cpus = os.cpus();
  const commit = git(repoRoot, ['rev-parse', '--short=12', 'HEAD']) || 'unknown';
  const dirty = git(repoRoot, ['status', '--porcelain', '--untracked-files=no']) !== '';
  return {
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpus: `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
    memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    commit: dirty ? `${commit} (with uncommitted changes)` : commit,
  };
}

export const machineLine = (m: Machine) => `${m.os}; ${m.cpus}; ${m.memoryGb} GiB; node ${m.node}; commit ${m.commit}`;

/** Writes results/<timestamp>.json and results/latest.json; answers the first path. */
export async function writeRecord(dir: string, record: RunRecord): Promise<string> {
  await mkdir(dir, { recursive: true });
  // ':' is not allowed in Windows file names: the ISO timestamp with '-' in its place.
  const file = path.join(dir, `${record.startedAt.replace(/:/g, '-')}.json`);
  const text = `${JSON.stringify(record, null, 2)}\n`;
  await writeFile(file, text);
  await writeFile(path.join(dir, 'latest.json'), text);
  return file;
}
