/** Calls to a running server over HTTP, as a client makes them: the in-process test app's and the drills' child servers'. */

export type Remote = {
  url: string;
  /** fetch with a JSON body when one is given. */
  call: (method: string, p: string, opts?: { token?: string; body?: unknown; headers?: Record<string, string> }) => Promise<Response>;
  login: (username: string, password: string) => Promise<string>;
};

/** The calls to the server at `url`; with `timeoutMs`, a call that has not answered by then is aborted. */
export function remote(url: string, { timeoutMs }: { timeoutMs?: number } = {}): Remote {
  const call: Remote['call'] = (method, p, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    }
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = body;
    if (timeoutMs !== undefined) init.signal = AbortSignal.timeout(timeoutMs);
    return fetch(url + p, init);
  };
  return {
    url,
    call,
    async login(username, password) {
      const res = await call('POST', '/api/authenticate', { body: { username, password } });
      if (res.status !== 200) throw new Error(`login ${username} on ${url} failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id_token: string }).id_token;
    },
  };
}
