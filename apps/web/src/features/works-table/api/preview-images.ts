import { useQuery } from '@tanstack/react-query';
import { get } from '../../../lib/http.ts';

export interface PreviewImage {
  name: string;
  relativeUrl: string;
  /** Signed: usable in an <img> without the Authorization header. */
  url: string;
}

/**
 * GET /api/sales_order/getPreviewImg: one image per picture and per PDF page of a work. The
 * time parameter `t` keeps a browser or proxy cache from answering with an older list
 * (../shared/spec/product-spec.md §7: the preview is fetched with a time parameter).
 */
export async function getPreviewImages(filePath: string, signal?: AbortSignal): Promise<PreviewImage[]> {
  const { data } = await get<PreviewImage[]>('/api/sales_order/getPreviewImg', {
    query: { filePath, t: Date.now() },
    signal,
  });
  return Array.isArray(data) ? data : [];
}

/** Fetched afresh each time the dialog opens: the files of a work can change (crop, re-upload). */
export function usePreviewImages(filePath: string | undefined) {
  return useQuery({
    queryKey: ['preview-images', filePath],
    queryFn: ({ signal }) => getPreviewImages(filePath as string, signal),
    enabled: filePath !== undefined,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/** The stored path a preview link names (/api/files/preview/<hub>/<path>?…), or undefined. */
export function pathOfPreview(url: string): string | undefined {
  const m = /\/api\/files\/preview\/\d+\/([^?]+)/.exec(url);
  if (!m?.[1]) return undefined;
  try {
    return m[1].split('/').map(decodeURIComponent).join('/');
  } catch {
    return undefined;
  }
}

/**
 * The previews of a work's own files, in the work's order (each PDF's pages as the server lists
 * them). The server lists whatever is stored under the work's folder, in natural order: after a
 * sort that is the old order, and a photo the sort left out is still stored there.
 */
export function previewsInWorkOrder(images: readonly PreviewImage[], files: readonly { filePath: string }[]): PreviewImage[] {
  const byPath = new Map<string, PreviewImage[]>();
  for (const img of images) {
    const path = pathOfPreview(img.relativeUrl || img.url);
    if (path === undefined) continue;
    const list = byPath.get(path);
    if (list) list.push(img);
    else byPath.set(path, [img]);
  }
  // Links of another shape: nothing to match them with, show them as they came.
  if (byPath.size === 0 || files.length === 0) return [...images];
  return files.flatMap((f) => byPath.get(f.filePath) ?? []);
}
