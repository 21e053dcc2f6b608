/** localStorage key of the shop's own default product picture (../shared/spec/product-spec.md §7). */
export const DEFAULT_PRODUCT_IMAGE_KEY = 'defaultProductImage';

/** A neutral picture frame, for products without an image when the shop set none of its own. */
export const PLACEHOLDER_PRODUCT_IMAGE = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160">' +
    '<rect width="160" height="160" fill="#f0f2f5"/>' +
    '<rect x="44" y="50" width="72" height="60" rx="6" fill="none" stroke="#bfc4cc" stroke-width="4"/>' +
    '<circle cx="66" cy="70" r="7" fill="#bfc4cc"/>' +
    '<path d="M50 104l22-22 14 14 10-10 18 18z" fill="#bfc4cc"/></svg>',
)}`;

/** The picture to show when a product (or option) has none. */
export function defaultProductImage(): string {
  try {
    const raw = localStorage.getItem(DEFAULT_PRODUCT_IMAGE_KEY);
    if (!raw) return PLACEHOLDER_PRODUCT_IMAGE;
    // Some admin tools store the value JSON-quoted.
    const value = raw.startsWith('"') ? (JSON.parse(raw) as unknown) : raw;
    return typeof value === 'string' && value.trim() ? value.trim() : PLACEHOLDER_PRODUCT_IMAGE;
  } catch {
    return PLACEHOLDER_PRODUCT_IMAGE;
  }
}

export function productImageOf(src: string | null | undefined): string {
  return src && src.trim() ? src : defaultProductImage();
}
