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
 * (product-spec §7: the preview is fetched with a time parameter).
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
