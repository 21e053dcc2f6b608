/**
 * Runs at most `concurrency` tasks at once, taking the waiting ones from one FIFO queue per key (a
 * customer hub) in turn, so a key with a thousand tasks waiting delays another key's task by at most one
 * task of each other key, not by its thousand.
 *
 * Invariants:
 * - `queues` holds only keys with tasks waiting, in the order of their next turn: a Map keeps insertion
 *   order, so a key served is deleted and, with tasks left, set again at the end (round robin); a key
 *   that had none joins at the end.
 * - A task whose signal aborts before it starts is taken out of its queue and its promise rejects with
 *   the signal's reason; once started it runs to the end (its result may serve a later caller).
 */
export function createFairQueue(concurrency: number) {
  type Task = { run: () => void; key: string | number; cancel: () => void };
  const queues = new Map<string | number, Task[]>();
  let running = 0;

  function next() {
    while (running < concurrency && queues.size > 0) {
      const [key, queue] = queues.entries().next().value!;
      queues.delete(key);
      const task = queue.shift()!;
      if (queue.length > 0) queues.set(key, queue);
      task.run();
    }
  }

  return {
    run<T>(key: string | number, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => task.cancel();
        const task: Task = {
          key,
          run() {
            signal?.removeEventListener('abort', onAbort);
            running++;
            fn().then(resolve, reject).finally(() => {
              running--;
              next();
            });
          },
          cancel() {
            const queue = queues.get(key);
            const at = queue?.indexOf(task) ?? -1;
            if (at < 0) return;
            queue!.splice(at, 1);
            if (queue!.length === 0) queues.delete(key);
            reject(signal?.reason);
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const queue = queues.get(key);
        if (queue) queue.push(task);
        else queues.set(key, [task]);
        next();
      });
    },
    /** Tasks waiting (not started) of one key, or of all. */
    waiting(key?: string | number): number {
      if (key !== undefined) return queues.get(key)?.length ?? 0;
      let n = 0;
      for (const q of queues.values()) n += q.length;
      return n;
    },
    get running() {
      return running;
    },
  };
}
export type FairQueue = ReturnType<typeof createFairQueue>;
