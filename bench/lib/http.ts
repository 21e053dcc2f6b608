import http from 'node:http';

/**
 * One keep-alive agent for every request of a run, as a browser keeps its connections: both the
 * server and the baseline see reused connections, so neither pays for connects the other does not.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

export interface HttpAnswer {
  status: number;
  text: string;
}

/**
 * One request. A body given as pieces is written piece by piece, as a browser sends a FormData of a
 * Blob slice: the chunk's bytes are never copied into one buffer with the multipart framing.
 */
export function request(url: string, o: { method?: string; headers?: Record<string, string>; body?: Buffer | string | readonly Buffer[] } = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const pieces = o.body === undefined ? [] : typeof o.body === 'string' ? [Buffer.from(o.body)] : Buffer.isBuffer(o.body) ? [o.body] : o.body;
    const length = pieces.reduce((n, b) => n + b.length, 0);
    const req = http.request(url, {
      method: o.method ?? (o.body !== undefined ? 'POST' : 'GET'),
      agent,
      headers: { ...o.headers, ...(o.body !== undefined ? { 'content-length': String(length) } : {}) },
    }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    for (const piece of pieces) req.write(piece);
    req.end();
  });
}

/** A JSON call; anything but 200 is an error that quotes the answer. */
export async function json<T>(url: string, o: { method?: string; token?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  let body: string | undefined;
  if (o.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.body);
  }
  const res = await request(url, { method: o.method, headers, body });
  if (res.status !== 200) throw new Error(`${o.method ?? (body ? 'POST' : 'GET')} ${url} answered ${res.status}: ${res.text.slice(0, 500)}`);
  return JSON.parse(res.text) as T;
}

/** Drops idle connections so that a stopped server is not kept waiting on them. */
export function closeIdleConnections(): void {
  agent.destroy();
}
