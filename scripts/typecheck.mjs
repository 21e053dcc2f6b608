// `npm run typecheck`: every TypeScript project checked (no emit), as many at a time as the machine has cores.
// The projects are independent (each reads the others' sources), and tsc uses one core: one after another they
// took 59 s on 2 cores, two at a time 33 s (docs/decisions.md "Tests"). Each project's output is printed whole
// when it ends; the run fails when one does.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import pLimit from 'p-limit';

const PROJECTS = ['packages/contract', 'packages/measure', 'apps/server', 'apps/web', 'e2e', 'bench'];
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b) => { out += b; });
    child.stderr.on('data', (b) => { out += b; });
    child.on('close', (code) => {
      process.stdout.write(`tsc -p ${project}: ${code === 0 ? 'ok' : `failed (${code})`}\n${out}`);
      resolve(code === 0);
    });
  });
}

const limit = pLimit(Math.max(1, availableParallelism()));
const results = await Promise.all(PROJECTS.map((p) => limit(() => check(p))));
process.exitCode = results.every(Boolean) ? 0 : 1;
