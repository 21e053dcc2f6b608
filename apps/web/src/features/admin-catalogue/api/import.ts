import { useMutation } from '@tanstack/react-query';
import { isApiError, request } from '../../../lib/http.ts';

export type CatalogueProblem = { path: string; message: string };
export type ImportOutcome = { ok: true; imported: boolean; summary: string[] } | { ok: false; message: string; problems: CatalogueProblem[] };

/**
 * POST /api/admin/catalogue/import with the file's text as it is: the server checks it as
 * `npm run import-catalogue` does; a 422 lists every problem, which the page shows field by field.
 */
export async function importCatalogue(text: string, opts: { dryRun: boolean; prune: boolean }): Promise<ImportOutcome> {
  try {
    const { data } = await request<{ imported: boolean; summary: string[] }>('POST', '/api/admin/catalogue/import', {
      body: text, contentType: 'application/json', query: { dryRun: String(opts.dryRun), prune: String(opts.prune) },
    });
    return { ok: true, ...data };
  } catch (e) {
    if (isApiError(e) && e.status === 422) {
      const body = e.body as { message: string; problems?: CatalogueProblem[] };
      return { ok: false, message: body.message, problems: body.problems ?? [] };
    }
    throw e;
  }
}

export function useImportCatalogue() {
  return useMutation({ mutationFn: ({ text, ...opts }: { text: string; dryRun: boolean; prune: boolean }) => importCatalogue(text, opts) });
}
