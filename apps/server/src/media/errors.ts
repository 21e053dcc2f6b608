export type MediaErrorCode =
  | 'damaged'
  | 'encrypted'
  | 'unsupported'
  | 'wrong-type'
  | 'too-large'
  | 'timeout'
  | 'zip-slip'
  | 'zip-symlink'
  | 'zip-too-many-entries'
  | 'zip-too-large'
  | 'zip-ratio'
  | 'zip-encrypted';

/** Customer-facing texts: they end up verbatim in the upload/parse answers. */
export const MEDIA_ERROR_MESSAGES: Record<MediaErrorCode, string> = {
  damaged: '文件破损，无法读取',
  encrypted: 'PDF文件已加密，请去除密码后重新上传',
  unsupported: '不支持的文件格式',
  'wrong-type': '文件内容与扩展名不符',
  'too-large': '文件过大，无法处理',
  timeout: '文件处理超时，请检查文件后重新上传',
  'zip-slip': '压缩包内含有非法路径',
  'zip-symlink': '压缩包内含有链接文件，无法解压',
  'zip-too-many-entries': '压缩包内文件数量过多',
  'zip-too-large': '压缩包解压后过大',
  'zip-ratio': '压缩包压缩比异常，无法解压',
  'zip-encrypted': '压缩包已加密，请解密后重新上传',
};

export class MediaError extends Error {
  override readonly name = 'MediaError';

  constructor(
    public readonly code: MediaErrorCode,
    message: string = MEDIA_ERROR_MESSAGES[code],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The most pixels an image may have: sharp's own default (`limitInputPixels`, 0x3FFF × 0x3FFF), which
 * every server read of an image keeps. A bigger image is refused with its size and this limit: a
 * smaller copy of it can be uploaded (issue #19 item 6: a valid 900-megapixel PNG was called damaged).
 */
export const IMAGE_PIXEL_LIMIT = 268_402_689;

/** The refusal of an image over IMAGE_PIXEL_LIMIT, when sharp says so (its message names the pixel limit). */
export function tooManyPixels(e: unknown, size?: { width: number; height: number }): MediaError | undefined {
  if (!(e instanceof Error) || !/pixel limit/i.test(e.message)) return undefined;
  const px = (n: number) => `${(n / 1e8).toFixed(2)}亿`;
  const what = size ? `（${size.width}×${size.height}，共${px(size.width * size.height)}像素）` : '';
  return new MediaError('too-large', `图片像素过多${what}，超过上限${px(IMAGE_PIXEL_LIMIT)}像素，请缩小后重新上传`, { cause: e });
}

export function isMediaError(e: unknown): e is MediaError {
  return e instanceof MediaError;
}
