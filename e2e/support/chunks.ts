/**
 * The page's chunk requests (POST /api/files/updateFile, multipart) as a test or a benchmark counts them:
 * their fields read where they are routed, their bytes as they went on the wire.
 * Support code the bench imports too: no vitest here.
 */
import type { CDPSession } from 'playwright-core';

/** The multipart field `name` of a chunk request's body (the fields come before the file's bytes). */
export function formField(body: Buffer | null, name: string): string | undefined {
  if (!body) return undefined;
  return new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r]*)\\r\\n`).exec(body.subarray(0, 4096).toString('utf8'))?.[1];
}

/** What the page put on the wire since the watch began or was last reset. */
export interface WireCount {
  /** Body bytes of the chunk requests. */
  bytes: number;
  /** Chunk requests sent. */
  chunks: number;
  /** Files asked to be linked from bytes the hub has: one a POST /api/files/linkFile, each of a POST /api/files/linkFiles. */
  links: number;
  /** POST /api/files/linkFile and /api/files/linkFiles calls. */
  linkCalls: number;
  /** performance.now() of the first and the last POST /api/files/knownHashes, and of the last link answered (0: none). */
  firstAskAt: number;
  lastAskAt: number;
  lastLinkAt: number;
}

/**
 * Watches the page of `cdp` from the DevTools protocol's network events. A chunk's body bytes are the
 * Content-Length of the headers the browser's network layer put on the wire
 * (Network.requestWillBeSentExtraInfo): playwright does not hand out a body that holds a blob.
 */
export async function watchWire(cdp: CDPSession): Promise<{ read(): WireCount; reset(): void }> {
  const zero = (): WireCount => ({ bytes: 0, chunks: 0, links: 0, linkCalls: 0, firstAskAt: 0, lastAskAt: 0, lastLinkAt: 0 });
  const sum = zero();
  const chunkIds = new Set<string>();
  const linkIds = new Set<string>();
  const lengths = new Map<string, number>();
  const settle = (id: string) => {
    const n = lengths.get(id);
    if (n === undefined || !chunkIds.has(id)) return;
    chunkIds.delete(id);
    lengths.delete(id);
    sum.bytes += n;
  };
  cdp.on('Network.requestWillBeSent', (e: { requestId: string; request: { url: string; method: string; postData?: string } }) => {
    if (e.request.method !== 'POST') return;
    const path = new URL(e.request.url).pathname;
    if (path === '/api/files/linkFile' || path === '/api/files/linkFiles') {
      sum.linkCalls++;
      sum.links += path === '/api/files/linkFile' ? 1 : ((JSON.parse(e.request.postData ?? '{}') as { files?: unknown[] }).files?.length ?? 0);
      linkIds.add(e.requestId);
    }
    if (path === '/api/files/knownHashes') {
      sum.firstAskAt ||= performance.now();
      sum.lastAskAt = performance.now();
    }
    if (path !== '/api/files/updateFile') return;
    sum.chunks++;
    chunkIds.add(e.requestId);
    settle(e.requestId);
  });
  cdp.on('Network.loadingFinished', (e: { requestId: string }) => {
    if (linkIds.delete(e.requestId)) sum.lastLinkAt = performance.now();
  });
  cdp.on('Network.requestWillBeSentExtraInfo', (e: { requestId: string; headers: Record<string, string> }) => {
    const length = Object.entries(e.headers).find(([k]) => k.toLowerCase() === 'content-length')?.[1];
    if (length === undefined) return;
    lengths.set(e.requestId, Number(length));
    settle(e.requestId);
  });
  // Bodies up to 1 MB come with requestWillBeSent: a linkFiles call names its files there.
  await cdp.send('Network.enable', { maxPostDataSize: 1_000_000 });
  return { read: () => ({ ...sum }), reset: () => Object.assign(sum, zero()) };
}
