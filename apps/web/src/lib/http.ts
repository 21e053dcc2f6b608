/**
 * The one HTTP client of the web app. Every call to /api goes through `request` (or its helpers
 * `get`, `post`, `postForm`), so these rules hold everywhere:
 * - the token of lib/auth-token.ts is sent as `Authorization: Bearer <token>`;
 * - a 401 on a call that carried a token clears the token and hands over to `onUnauthorized`
 *   (the router sends the customer to /login);
 * - no answer at all (network down, server gone) is toasted as MSG.networkError, and so is a 5xx
 *   (with the server's message when it sent one); such errors come back with `reported: true`
 *   so callers do not toast them a second time. Pass `silent: true` to handle them yourself;
 * - any other non-2xx answer is thrown as an `ApiError` carrying the server's `message`, which is
 *   written for the customer: 4xx messages are the caller's to show, where they make sense.
 * Answers with HTTP 200 and a `state` field in the body (the spec's `{state, message}` shape) are
 * returned as data: their meaning belongs to the feature that made the call.
 */
import { MSG } from '@portal/contract/messages';
import { clearToken, getToken } from './auth-token.ts';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when no answer arrived (network failure). */
  readonly status: number;
  /** The parsed answer body (JSON, text, or undefined when there was none). */
  readonly body: unknown;
  readonly headers: Headers | null;
  /** True when the client already showed this error to the customer. */
  reported: boolean;

  constructor(status: number, message: string, body: unknown, headers: Headers | null, reported = false) {
    super(message);
    this.status = status;
    this.body = body;
    this.headers = headers;
    this.reported = reported;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The customer-facing text of any error thrown by a call. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return MSG.networkError;
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  /** The answer's headers, e.g. `headers.get('x-total-count')` for paged lists. */
  headers: Headers;
}

type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

/** Anything with a zod-like `parse`, e.g. a schema from @portal/contract. */
export interface Parser<T> {
  parse(data: unknown): T;
}

export interface RequestOptions<T> {
  /** Appended as a query string; null and undefined values are left out, arrays repeat the key. */
  query?: Query;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Validates (and narrows) the answer body. */
  schema?: Parser<T>;
  /** Do not toast network failures and 5xx answers; the caller shows them. */
  silent?: boolean;
  /** false: send no token and skip the 401 → login handling (the login call itself). */
  auth?: boolean;
}

export interface HttpHooks {
  /** Called after a 401 on an authenticated call, once the token is cleared. */
  onUnauthorized: () => void;
  /** Shows a message to the customer (a toast). */
  notifyError: (message: string) => void;
}

const hooks: HttpHooks = {
  onUnauthorized: () => {
    if (window.location.pathname !== '/login') window.location.assign('/login');
  },
  notifyError: (message) => console.error(message),
};

/** Installed once by the app shell (router navigation, antd message). */
export function configureHttp(next: Partial<HttpHooks>): void {
  Object.assign(hooks, next);
}

export function buildUrl(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values: readonly QueryValue[] = Array.isArray(value) ? value : [value as QueryValue];
    for (const v of values) {
      if (v !== null && v !== undefined) params.append(key, String(v));
    }
  }
  const qs = params.toString();
  if (!qs) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${qs}`;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 205) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) return JSON.parse(text) as unknown;
  return text;
}

/** The server's `message` (or `message.error` of upload answers), when it sent one. */
function serverMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const message = (body as { message?: unknown }).message;
  if (typeof message === 'string' && message) return message;
  if (message && typeof message === 'object') {
    const inner = (message as { error?: unknown }).error;
    if (typeof inner === 'string' && inner) return inner;
  }
  return undefined;
}

export async function request<T>(
  method: string,
  path: string,
  options: RequestOptions<T> & { body?: BodyInit; contentType?: string } = {},
): Promise<ApiResponse<T>> {
  const { query, signal, schema, silent = false, auth = true } = options;
  const headers = new Headers(options.headers);
  headers.set('Accept', 'application/json');
  if (options.contentType) headers.set('Content-Type', options.contentType);
  const token = auth ? getToken() : null;
  if (token) headers.set('Authorization', `Bearer ${token}`);

  const fail = (error: ApiError): never => {
    if (!silent && !error.reported) {
      hooks.notifyError(error.message);
      error.reported = true;
    }
    throw error;
  };

  let res: Response;
  try {
    res = await fetch(buildUrl(path, query), { method, headers, body: options.body, signal });
  } catch (error) {
    // A cancelled call (react-query, unmounted page) is not a failure to show.
    if (signal?.aborted) throw error;
    return fail(new ApiError(0, MSG.networkError, undefined, null));
  }

  let body: unknown;
  try {
    body = await readBody(res);
  } catch {
    if (signal?.aborted) throw new DOMException('Aborted', 'AbortError');
    return fail(new ApiError(res.status, MSG.networkError, undefined, res.headers));
  }

  if (!res.ok) {
    const message = serverMessage(body) ?? MSG.networkError;
    if (res.status === 401 && token) {
      clearToken(message);
      hooks.onUnauthorized();
      throw new ApiError(401, message, body, res.headers, true);
    }
    if (res.status >= 500) return fail(new ApiError(res.status, message, body, res.headers));
    throw new ApiError(res.status, message, body, res.headers);
  }

  let data: T;
  try {
    data = schema ? schema.parse(body) : (body as T);
  } catch {
    // The answer does not have the agreed shape: for the customer that is a server fault.
    return fail(new ApiError(res.status, MSG.networkError, body, res.headers));
  }
  return { data, status: res.status, headers: res.headers };
}

export function get<T>(path: string, options?: RequestOptions<T>): Promise<ApiResponse<T>> {
  return request<T>('GET', path, options);
}

/** POST with a JSON body. */
export function post<T>(path: string, body?: unknown, options?: RequestOptions<T>): Promise<ApiResponse<T>> {
  return request<T>('POST', path, {
    ...options,
    body: body === undefined ? undefined : JSON.stringify(body),
    contentType: body === undefined ? undefined : 'application/json',
  });
}

/** POST multipart/form-data; the browser sets the boundary. */
export function postForm<T>(path: string, form: FormData, options?: RequestOptions<T>): Promise<ApiResponse<T>> {
  return request<T>('POST', path, { ...options, body: form });
}

export interface UploadOptions<T> extends Omit<RequestOptions<T>, 'query' | 'headers'> {
  /** Bytes of the request body sent so far, and the body's whole length (XMLHttpRequest's upload progress). */
  onUploadProgress?: (loaded: number, total: number) => void;
}

/**
 * POST multipart/form-data through XMLHttpRequest, for the one thing fetch cannot tell: how much
 * of the request body has been sent (`onUploadProgress`). The rules of `request` hold here too:
 * the token, 401 → login, network failures and 5xx toasted unless `silent`, other non-2xx thrown
 * as ApiError with the server's message.
 */
export function postFormWithProgress<T>(path: string, form: FormData, options: UploadOptions<T> = {}): Promise<ApiResponse<T>> {
  const { signal, schema, silent = false, auth = true, onUploadProgress } = options;
  const fail = (error: ApiError): ApiError => {
    if (!silent && !error.reported) {
      hooks.notifyError(error.message);
      error.reported = true;
    }
    return error;
  };
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('Accept', 'application/json');
    const token = auth ? getToken() : null;
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);
    if (onUploadProgress) xhr.upload.onprogress = (e) => onUploadProgress(e.loaded, e.lengthComputable ? e.total : 0);
    xhr.onabort = () => {
      settle();
      reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
    };
    xhr.onerror = () => {
      settle();
      reject(fail(new ApiError(0, MSG.networkError, undefined, null)));
    };
    xhr.onload = () => {
      settle();
      const headers = new Headers();
      for (const line of xhr.getAllResponseHeaders().trim().split(/[\r\n]+/)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      let body: unknown;
      try {
        const text = xhr.responseText;
        body = !text ? undefined : (headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text) as unknown) : text;
      } catch {
        reject(fail(new ApiError(xhr.status, MSG.networkError, undefined, headers)));
        return;
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        const message = serverMessage(body) ?? MSG.networkError;
        if (xhr.status === 401 && token) {
          clearToken(message);
          hooks.onUnauthorized();
          reject(new ApiError(401, message, body, headers, true));
        } else if (xhr.status >= 500) reject(fail(new ApiError(xhr.status, message, body, headers)));
        else reject(new ApiError(xhr.status, message, body, headers));
        return;
      }
      try {
        resolve({ data: schema ? schema.parse(body) : (body as T), status: xhr.status, headers });
      } catch {
        reject(fail(new ApiError(xhr.status, MSG.networkError, body, headers)));
      }
    };
    xhr.send(form);
  });
}
