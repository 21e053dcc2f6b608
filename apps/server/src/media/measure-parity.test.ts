/**
 * The browser's preflight (@portal/measure on the bytes of a picked file) and the server's reader
 * (readImageMeta: sharp's size and orientation, the same package's density rules) give the same
 * answers for every image of the shared corpus and of our fixtures, the camera photos included.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IMAGE_HEAD_BYTES, measureImage, type ByteSource } from '@portal/measure';
import { FIXTURES } from '../../test/helpers/corpus.ts';
import { readImageMeta } from './image.ts';
import { CORPUS_DIR } from './test-corpus.ts';

function imagesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => /\.(jpe?g|png)$/i.test(f) && statSync(f).isFile())
    .sort();
}

/** As the browser's worker reads a File: the first IMAGE_HEAD_BYTES, the rest only when asked for. */
function headFirst(bytes: Uint8Array): { src: ByteSource; beyondHead: () => number } {
  let beyond = 0;
  return {
    src: {
      head: bytes.subarray(0, IMAGE_HEAD_BYTES),
      at: async (position, length) => {
        if (position + length > IMAGE_HEAD_BYTES) beyond++;
        return bytes.subarray(position, position + length);
      },
    },
    beyondHead: () => beyond,
  };
}

const images = [...imagesUnder(CORPUS_DIR), ...imagesUnder(FIXTURES)];

describe('@portal/measure against the server reader', () => {
  it('finds the corpus and the camera photos', () => {
    expect(images.length).toBeGreaterThan(40);
    expect(images.some((f) => f.includes(`${path.sep}camera${path.sep}`))).toBe(true);
  });

  for (const file of images) {
    it(path.relative(path.dirname(CORPUS_DIR), file), async () => {
      const server = await readImageMeta(file).catch(() => null);
      const browser = await measureImage(headFirst(readFileSync(file)).src);
      if (!server) {
        // A file the server refuses (not an image, broken IHDR) is refused by the preflight or left for the server
        // to judge; it is never given a different size.
        if (browser) expect(file).toMatch(/damaged/);
        return;
      }
      expect(browser).toEqual({
        format: server.format,
        width: server.width,
        height: server.height,
        orientation: server.orientation,
        dpi: server.dpi,
        dpiX: server.dpiX,
        dpiY: server.dpiY,
        dpiStated: server.dpiStated,
        dpiSource: server.dpiSource,
      });
    });
  }

  it('reads past the head only for what lies beyond it (a large EXIF block)', async () => {
    const counts = images.map((f) => {
      const h = headFirst(readFileSync(f));
      return measureImage(h.src).then(() => h.beyondHead());
    });
    const beyond = await Promise.all(counts);
    expect(beyond.filter((n) => n > 0).length).toBeLessThan(images.length / 4);
  });
});
