import { get } from '../../../lib/http.ts';

/** GET /api/health: whether the server answers again (public, no token); false on no answer or an error. */
export async function serverAnswers(signal?: AbortSignal): Promise<boolean> {
  try {
    await get('/api/health', { signal, silent: true, auth: false });
    return true;
  } catch {
    return false;
  }
}
