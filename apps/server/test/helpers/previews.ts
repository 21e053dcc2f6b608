import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import { uploadFile } from './upload.ts';

export type PreviewLink = { name: string; url: string };

/** A PDF of `pages` pages (A4 by default), each with a frame and its number; made once per size (10,000 pages take pdf-lib seconds). */
export function makePdf(pages: number, size: [number, number] = [595, 842]): Promise<Buffer> {
  const key = `${pages}:${size.join('x')}`;
  if (!made.has(key)) made.set(key, buildPdf(pages, size));
  return made.get(key)!;
}

const made = new Map<string, Promise<Buffer>>();

async function buildPdf(pages: number, size: [number, number]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage(size);
    page.drawRectangle({ x: 40, y: 40, width: 515, height: 762, borderColor: rgb(0.2, 0.3, 0.6), borderWidth: 4, color: rgb(0.93, 0.95, 1) });
    page.drawText(`Page ${i}`, { x: 60, y: 700, size: 48, font, color: rgb(0.1, 0.1, 0.1) });
  }
  return Buffer.from(await doc.save());
}

/** Uploads a file in a new folder and answers its path (`upload/<folder>/<name>`); the upload must succeed. */
export async function uploadOk(t: TestApp, token: string, bytes: Buffer, name: string): Promise<string> {
  const r = await uploadFile(t, token, bytes, name);
  expect(r.done, `upload of ${name}: ${JSON.stringify(r.last.body)}`).toBeDefined();
  return `upload/${r.folderId}/${name}`;
}

/** getPreviewImg's links of a file or a work. */
export async function previewLinks(t: TestApp, token: string, filePath: string): Promise<PreviewLink[]> {
  const res = await t.call('GET', `/api/sales_order/getPreviewImg?filePath=${encodeURIComponent(filePath)}`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as PreviewLink[];
}
