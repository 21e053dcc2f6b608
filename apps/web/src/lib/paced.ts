/**
 * How often the page redraws what a burst of updates changes: the upload's progress of 2,000 files,
 * 300 folders parsed, check answers. Once per animation frame kept the main thread rendering for as
 * long as a batch uploaded (a drop of 300 folders: 14 of its 26 s in React, bench batch-triage), and
 * the uploads' own callbacks waited behind it; ten times a second reads as live progress.
 */
export const PACE_MS = 100;

/**
 * `flush` once for any number of requests: at the first animation frame at least PACE_MS after its
 * last run (the first request after a quiet spell is drawn at the next frame), or by a timer PACE_MS
 * after the request where no frame runs (a background tab, tests). Keep in mind: a request made
 * while a flush is pending joins it.
 */
export function paced(flush: () => void): () => void {
  let last = -Infinity;
  let frame: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = () => {
    if (frame !== null) cancelAnimationFrame(frame);
    if (timer !== null) clearTimeout(timer);
    frame = null;
    timer = null;
    last = performance.now();
    flush();
  };
  const onFrame = () => {
    frame = performance.now() - last >= PACE_MS ? null : requestAnimationFrame(onFrame);
    if (frame === null) run();
  };
  return () => {
    if (timer !== null) return;
    timer = setTimeout(run, PACE_MS);
    if (typeof requestAnimationFrame === 'function') frame = requestAnimationFrame(onFrame);
  };
}
