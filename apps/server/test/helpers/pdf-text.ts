/** A run of text pdf.js found on a page, where it is drawn (PDF points, origin at the page's bottom left). */
export type TextItem = { str: string; x: number; y: number; width: number; height: number };
export type PdfPage = { width: number; height: number; text: string; items: TextItem[] };

/** Every page of a PDF as pdf.js reads it (what a reader and a search find): its box and its text items. */
export async function pdfPages(bytes: Uint8Array): Promise<PdfPage[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  try {
    const pages: PdfPage[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const [x0, y0, x1, y1] = page.view as [number, number, number, number];
      const items = (await page.getTextContent()).items.flatMap((i) => ('str' in i
        ? [{ str: i.str, x: i.transform[4] as number, y: i.transform[5] as number, width: i.width, height: i.height }]
        : []));
      pages.push({ width: x1 - x0, height: y1 - y0, text: items.map((i) => i.str).join(''), items });
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

/** The text items of a page drawn (even in part) outside its box: a printer cuts them off. */
export function outsidePage(page: PdfPage): TextItem[] {
  return page.items.filter((i) => i.str.trim() && (i.x < 0 || i.y < 0 || i.x + i.width > page.width || i.y + i.height > page.height));
}
