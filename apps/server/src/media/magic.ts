import { open } from 'node:fs/promises';

export type SniffedType = 'png' | 'jpeg' | 'pdf' | 'zip';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PDF_MARKER = Buffer.from('%PDF-', 'latin1');
/** Readers (Acrobat, pdf.js) accept junk before the header as long as it is within the first KiB. */
export const PDF_HEADER_WINDOW = 1024;
/** Enough bytes for every check in sniffType. */
export const SNIFF_BYTES = PDF_HEADER_WINDOW + PDF_MARKER.length;

function startsWith(head: Buffer, bytes: readonly number[]): boolean {
  if (head.length < bytes.length) return false;
  return bytes.every((b, i) => head[i] === b);
}

export function sniffType(head: Buffer): SniffedType | null {
  if (head.length >= PNG_SIGNATURE.length && head.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) {
    return 'png';
  }
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  // Local file header, or the end-of-central-directory record that is all an empty zip holds.
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  const pdfAt = head.subarray(0, SNIFF_BYTES).indexOf(PDF_MARKER);
  if (pdfAt >= 0 && pdfAt < PDF_HEADER_WINDOW) return 'pdf';
  return null;
}

export async function readHead(filePath: string, length = SNIFF_BYTES): Promise<Buffer> {
  const fh = await open(filePath, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

export async function sniffFile(filePath: string): Promise<SniffedType | null> {
  return sniffType(await readHead(filePath));
}

const EXTENSIONS: Record<SniffedType, readonly string[]> = {
  png: ['png'],
  jpeg: ['jpg', 'jpeg'],
  pdf: ['pdf'],
  zip: ['zip'],
};

/** `ext` may come with or without its dot and in any case ('.JPG', 'jpeg'). */
export function extensionMatches(ext: string, type: SniffedType | null): boolean {
  if (type === null) return false;
  const normalised = ext.trim().replace(/^\./, '').toLowerCase();
  return EXTENSIONS[type].includes(normalised);
}
