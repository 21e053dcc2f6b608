// Preloaded into the server (NODE_OPTIONS=--import) when BENCH_CPU_PROF is set: V8 refuses
// --cpu-prof in NODE_OPTIONS, so the profiler is driven through the inspector instead. Plain
// JavaScript because it loads before tsx. Writes <dir>/server-<pid>.cpuprofile when the process exits.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  process.once('exit', () => {
    // The inspector answers synchronously on the main thread, so this completes before exit.
    session.post('Profiler.stop', (err, result) => {
      if (err || !result) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `server-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
