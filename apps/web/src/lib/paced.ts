/**
 * How often the page redraws what a burst of updates changes: the upload's progress of 2,000 files,
 * 300 folders parsed, check answers. Once per animation frame kept the main thread rendering for as
 * long as a batch uploaded (a drop of 300 folders: 14 of its 26 s in React, bench batch-triage), and
 * the uploads' own callbacks waited behind it. Five times a second still reads as live progress, and
 * halved the drop's renders against ten (bench batch-triage, bench/HISTORY.md 2026-11-29 09:20).
 */
export const PACE_MS = 200;

/**
 * A clock: `clock(flush)` gives a request function that has `flush` called once for any number of
 * requests, at the first animation frame at least PACE_MS after the clock's last run (the first
 * request after a quiet spell is drawn at the next frame), or by a timer PACE_MS after the request
 * where no frame runs (a background tab, tests). Every flush requested of one clock runs in the same
 * task, so React renders what all of them changed once: the upload, check-entry and preflight stores
 * each on a clock of their own rendered up to four times a pace. Keep in mind: a request
 * made while a flush is pending joins it, and one made by a flush runs right after it.
 */
export function pacer(): (flush: () => void) => () => void {
  const due = new Set<() => void>();
  let last = -Infinity;
  let frame: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const cancel = () => {
    if (frame !== null) cancelAnimationFrame(frame);
    if (timer !== null) clearTimeout(timer);
    frame = null;
    timer = null;
  };
  const run = () => {
    cancel();
    last = performance.now();
    // A flush may ask for another (works landing remove their preflight rows): it runs now, in the same
    // task, not a pace later; a few rounds at most, then the clock's next run.
    for (let round = 0; round < 3 && due.size > 0; round++) {
      const flushes = [...due];
      due.clear();
      for (const flush of flushes) flush();
    }
    if (due.size === 0) cancel();
  };
  const onFrame = () => {
    frame = performance.now() - last >= PACE_MS ? null : requestAnimationFrame(onFrame);
    if (frame === null) run();
  };
  return (flush) => () => {
    due.add(flush);
    if (timer !== null) return;
    timer = setTimeout(run, PACE_MS);
    if (typeof requestAnimationFrame === 'function') frame = requestAnimationFrame(onFrame);
  };
}

/** The page's clock: the paced stores (lib/external-store.ts) and the parsed works landing (features/upload). */
export const paced = pacer();
