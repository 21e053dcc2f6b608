import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

/**
 * Links that an <img> tag or a download can follow without an Authorization header. Each names one
 * resource and carries an expiry and an HMAC of both, so a link works only for what it was made for,
 * and only until it expires.
 */
/** Signatures kept for reuse within one second, at most (a listing of thousands of files signs each once). */
const SIGNED_PER_SECOND_MAX = 10_000;

export function createFileUrls(secret: string, ttlSeconds: number, now: () => number = Date.now) {
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const mac = (resource: string, exp: number) =>
    createHmac('sha256', key).update(`${resource}\n${exp}`).digest('base64url');

  // The links signed in the current second, by resource: a check answers a link per page of a PDF,
  // all for the same resource and expiry (the same signature), so one HMAC serves them all.
  let signedSecond = 0;
  const signed = new Map<string, string>();
  function signQuery(resource: string) {
    const second = Math.floor(now() / 1000);
    if (second !== signedSecond || signed.size >= SIGNED_PER_SECOND_MAX) {
      signedSecond = second;
      signed.clear();
    }
    let query = signed.get(resource);
    if (query === undefined) {
      const exp = second + ttlSeconds;
      query = `exp=${exp}&sig=${mac(resource, exp)}`;
      signed.set(resource, query);
    }
    return query;
  }

  return {
    signQuery,
    verify(resource: string, exp: unknown, sig: unknown): boolean {
      const e = Number(exp);
      if (!Number.isInteger(e) || typeof sig !== 'string' || e < now() / 1000) return false;
      const want = Buffer.from(mac(resource, e));
      const got = Buffer.from(sig);
      return want.length === got.length && timingSafeEqual(want, got);
    },
    /** Public catalogue pictures (product and option images) are served as static assets. */
    asset(p: string | null): string | null {
      if (!p) return null;
      return /^(https?:)?\/\//.test(p) || p.startsWith('/') ? p : `/catalogue-assets/${p}`;
    },
    template(componentId: number, fileName: string) {
      return `/api/templates/${componentId}/${encodeURIComponent(fileName)}?${signQuery(`tpl:${componentId}`)}`;
    },
    /** A stored file of a hub; `relPath` is relative to the hub's root. */
    hubFile(hubId: number, relPath: string) {
      return `/api/files/raw/${hubId}/${relPath.split('/').map(encodeURIComponent).join('/')}?${signQuery(`hub:${hubId}:${relPath}`)}`;
    },
  };
}
export type FileUrls = ReturnType<typeof createFileUrls>;
