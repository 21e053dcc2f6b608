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

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}
