/**
 * Another PC on the shop's network: a network namespace joined to the host by a veth pair, a /30 link
 * of its own in 10.231.0.0/16 (the host's end .1, the PC's .2). A browser started through `chromium`
 * (a wrapper doing `ip netns exec`) runs inside it and reaches the host only over that link, by its
 * address: no localhost, so no secure context, as on a real LAN. Needs root (ip netns, ip link).
 *
 * Names carry the owning process's id (`portal-lan-<pid>`, links `pl<pid>h` / `pl<pid>p`), so parallel
 * runs never meet, and a run removes what a crashed earlier run (its process gone) left behind.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CHROMIUM_PATH } from './browser.ts';

const exec = promisify(execFile);
const NS_PREFIX = 'portal-lan-';

export interface OtherPc {
  /** The namespace's name. */
  ns: string;
  /** The host's address on the link: where the server listens. */
  hostAddress: string;
  /** The PC's own address on the link. */
  pcAddress: string;
  /** An executable that runs /usr/bin/chromium inside the namespace (for launchBrowser). */
  chromium: string;
  /** Ids of the processes running in the namespace. */
  pids(): Promise<number[]>;
  /** Removes the namespace, the link and the wrapper; safe to call twice. */
  remove(): Promise<void>;
}

/** Why this machine cannot make one, or null when it can (only root can). */
export function otherPcUnavailable(): string | null {
  return process.getuid?.() === 0 ? null : 'a network namespace (ip netns) needs root; CI runs as root';
}

async function ip(...args: string[]): Promise<string> {
  try {
    return (await exec('ip', args)).stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`\`ip ${args.join(' ')}\` failed: ${stderr.trim() || String(error)}`, { cause: error });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Namespaces and host-side links of runs whose process is gone. Either end of a pair is listed, and
 * deleting one deletes the other (as may another run cleaning up at the same time): gone is gone.
 */
async function removeLeftovers(): Promise<void> {
  const gone = () => undefined;
  for (const line of (await ip('netns', 'list')).split('\n')) {
    const pid = Number(/^portal-lan-(\d+)\b/.exec(line)?.[1]);
    if (pid && !alive(pid)) await ip('netns', 'del', `${NS_PREFIX}${pid}`).catch(gone);
  }
  // A link is left on the host when a run stopped between making it and moving its peer.
  for (const line of (await ip('-o', 'link', 'show')).split('\n')) {
    const match = /^\d+: (pl(\d+)[hp])[@:]/.exec(line);
    if (match && !alive(Number(match[2]))) await ip('link', 'del', match[1] as string).catch(gone);
  }
}

/** A /30 of 10.231.0.0/16 that no address of the host is in, starting from one picked by `seed`. */
async function freeLink(seed: number): Promise<{ hostAddress: string; pcAddress: string }> {
  const used = new Set([...(await ip('-o', '-4', 'addr', 'show')).matchAll(/inet (10\.231\.\d+\.\d+)/g)].map((m) => m[1]));
  for (let i = 0; i < 16384; i += 1) {
    const block = (seed + i) % 16384;
    const base = `10.231.${block >> 6}.`;
    const last = (block & 63) * 4;
    if (!used.has(`${base}${last + 1}`) && !used.has(`${base}${last + 2}`)) {
      return { hostAddress: `${base}${last + 1}`, pcAddress: `${base}${last + 2}` };
    }
  }
  throw new Error('no free /30 left in 10.231.0.0/16');
}

export async function makeOtherPc(): Promise<OtherPc> {
  const unavailable = otherPcUnavailable();
  if (unavailable) throw new Error(unavailable);
  await removeLeftovers();
  const pid = process.pid;
  const ns = `${NS_PREFIX}${pid}`;
  const hostIf = `pl${pid}h`;
  const pcIf = `pl${pid}p`;
  const { hostAddress, pcAddress } = await freeLink(pid);
  const dir = await mkdtemp(join(tmpdir(), 'portal-other-pc-'));
  const chromium = join(dir, 'chromium');

  let removed = false;
  const remove = async () => {
    if (removed) return;
    removed = true;
    // Deleting the namespace deletes the peer inside it, and with it the host's end.
    await ip('netns', 'del', ns).catch(() => undefined);
    await ip('link', 'del', hostIf).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await ip('netns', 'add', ns);
    await ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', pcIf);
    await ip('link', 'set', pcIf, 'netns', ns);
    await ip('addr', 'add', `${hostAddress}/30`, 'dev', hostIf);
    await ip('link', 'set', hostIf, 'up');
    await ip('netns', 'exec', ns, 'ip', 'addr', 'add', `${pcAddress}/30`, 'dev', pcIf);
    await ip('netns', 'exec', ns, 'ip', 'link', 'set', pcIf, 'up');
    await ip('netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up');
    // `ip netns exec` execs the browser in place: the process playwright started is the browser,
    // and the pipes it talks over are inherited.
    await writeFile(chromium, `#!/bin/sh\nexec ip netns exec ${ns} ${CHROMIUM_PATH} "$@"\n`);
    await chmod(chromium, 0o755);
  } catch (error) {
    await remove();
    throw error;
  }
  const pids = async () => (await ip('netns', 'pids', ns)).split('\n').filter(Boolean).map(Number);
  return { ns, hostAddress, pcAddress, chromium, pids, remove };
}
