import { useMutation } from '@tanstack/react-query';
import { get, isApiError, request } from '../../../lib/http.ts';
import { saveFile } from '../../../lib/save-file.ts';

export type CatalogueProblem = { path: string; message: string };
export type ImportOutcome = { ok: true; imported: boolean; summary: string[] } | { ok: false; message: string; problems: CatalogueProblem[] };

/**
 * POST /api/admin/catalogue/import with the file's bytes as they are: the server checks them as
 * `npm run import-catalogue` does (UTF-8 first: read as text here, a GBK file came as ���, and the server saw
 * only duplicates of garbled names: LAN walk); a 422 lists every problem, which the page shows field by field.
 */
export async function importCatalogue(file: Blob, opts: { dryRun: boolean; prune: boolean }): Promise<ImportOutcome> {
  try {
    const { data } = await request<{ imported: boolean; summary: string[] }>('POST', '/api/admin/catalogue/import', {
      body: file, contentType: 'application/json', query: { dryRun: String(opts.dryRun), prune: String(opts.prune) },
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
  return useMutation({ mutationFn: ({ file, ...opts }: { file: Blob; dryRun: boolean; prune: boolean }) => importCatalogue(file, opts) });
}

/**
 * GET /api/admin/catalogue/export, saved as the server names it (catalogue-<date>.json): the catalogue as it is, in the
 * import's format, to edit and import again (indented, for an editor).
 */
export async function downloadCatalogue(): Promise<void> {
  const { data, headers } = await get<unknown>('/api/admin/catalogue/export');
  const name = /filename="([^"]+)"/.exec(headers.get('content-disposition') ?? '')?.[1] ?? 'catalogue.json';
  saveFile(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }), name);
}
