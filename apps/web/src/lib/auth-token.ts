/**
 * The login token (a JWT from POST /api/authenticate) lives in localStorage under this key,
 * the key JHipster front ends use, so a token survives reloads and is shared by the tabs of
 * one browser. Every call of lib/http.ts sends it as `Authorization: Bearer <token>`.
 */
export const TOKEN_KEY = 'jhi-authenticationToken';

export function getToken(): string | null {
  try {
    const raw = localStorage.getItem(TOKEN_KEY);
    if (!raw) return null;
    // JHipster stores the token JSON-encoded (with quotes); accept both forms.
    return raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

/** Why the server last refused the token, kept for the login page (this tab only). */
const REFUSAL_KEY = 'portal-login-refusal';

/**
 * Forgets the token. `refusal`: the server's reason when it refused the token (该账号已停用，请联系印刷厂), which
 * the login page shows: a customer disabled with the page open was sent there without a word.
 */
export function clearToken(refusal?: string): void {
  localStorage.removeItem(TOKEN_KEY);
  try {
    if (refusal) sessionStorage.setItem(REFUSAL_KEY, refusal);
  } catch {
    // No storage (a locked-down browser): the login page just says nothing.
  }
}

/** The reason kept by clearToken, if any; `forget` drops it (the login page, once shown). */
export function tokenRefusal(forget = false): string | null {
  try {
    const reason = sessionStorage.getItem(REFUSAL_KEY);
    if (forget) sessionStorage.removeItem(REFUSAL_KEY);
    return reason;
  } catch {
    return null;
  }
}
