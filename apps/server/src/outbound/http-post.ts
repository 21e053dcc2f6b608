import { NETWORK_ERROR_TEXT, WEBHOOK_MSG } from '@portal/contract';

export type PostResult = { statusCode: number | null; error: string | null; durationMs: number };

/** The answer's bytes kept for the log; the rest is never read (a huge answer costs nothing). */
const EXCERPT_BYTES = 512;

/**
 * The answer as text a log can keep: control characters (NUL among them, which PostgreSQL's text refuses) become
 * spaces. An ERP's binary or UTF-16 error page failed the attempt's log, and its delivery was sent again every
 * 2 s, forever (API probe, 2026-11-30).
 */
const printable = (text: string) => text.replace(/[^\P{Cc}\t\n\r]+/gu, ' ');

/**
 * POSTs a body to a URL the shop configured, bounded so that a hostile or broken receiver cannot hold a
 * delivery: one deadline for connecting, the answer's head and the excerpt read; redirects are not followed
 * (a 3xx is a failed attempt: a receiver must not steer our signed request at another address, such as
 * this server's own admin API); at most EXCERPT_BYTES of the answer are read, then the stream is dropped.
 * Never throws: what went wrong is the result's error.
 */
export async function postBounded(url: string, body: string, headers: Record<string, string>, o: { timeoutMs: number; signal?: AbortSignal }): Promise<PostResult> {
  const started = performance.now();
  const deadline = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([deadline, o.signal]) : deadline;
  const took = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(url, { method: 'POST', body, headers, redirect: 'manual', signal });
    let excerpt = '';
    if (res.body) {
      const reader = res.body.getReader();
      const parts: Uint8Array[] = [];
      let n = 0;
      while (n < EXCERPT_BYTES) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        n += value.length;
      }
      await reader.cancel().catch(() => {});
      excerpt = printable(Buffer.concat(parts).subarray(0, EXCERPT_BYTES).toString('utf8'));
    }
    if (res.status >= 300 && res.status < 400) return { statusCode: res.status, error: WEBHOOK_MSG.redirect(res.status), durationMs: took() };
    const ok = res.status >= 200 && res.status < 300;
    return { statusCode: res.status, error: ok ? null : WEBHOOK_MSG.httpStatus(res.status, excerpt.slice(0, 200)), durationMs: took() };
  } catch (err) {
    if (deadline.aborted) return { statusCode: null, error: WEBHOOK_MSG.timeout(Math.round(o.timeoutMs / 1000)), durationMs: took() };
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const code = cause?.code ?? cause?.message ?? (err as Error).message;
    return { statusCode: null, error: WEBHOOK_MSG.unreachable(NETWORK_ERROR_TEXT[code] ?? '网络错误', code), durationMs: took() };
  }
}
