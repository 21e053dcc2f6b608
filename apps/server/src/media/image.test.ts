import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from './errors.ts';
import { IMAGE_HEAD_BYTES, readImageMeta, verifyImageDecodes } from './image.ts';
import { readHead } from './magic.ts';
import { FIXTURES } from '../../test/helpers/corpus.ts';
import { corpusPath, row, rowsUnder } from './test-corpus.ts';

/** The density the MANIFEST gives a file, in dpi, or null when it states none. */
function manifestDpi(measured: string): number | null {
  const jfif = /JFIF_density=([\d.]+),[\d.]+ unit=(dpi|dpcm)/.exec(measured);
  if (jfif) return Number(jfif[1]) * (jfif[2] === 'dpcm' ? 2.54 : 1);
  const exif = /EXIF_XRes=([\d.]+) YRes=[\d.]+ ResolutionUnit=(inch|cm)/.exec(measured);
  if (exif) return Number(exif[1]) * (exif[2] === 'cm' ? 2.54 : 1);
  const phys = /pHYs=\d+,\d+ unit=metre \(=([\d.]+) x/.exec(measured);
  if (phys) return Number(phys[1]);
  return null;
}

/** Pillow's reading, for a second opinion: "(300, 300)", "(95.9866, 95.9866)" or "None". */
function pilDpi(measured: string): number | null {
  const m = /PIL_dpi=\(([\d.]+), [\d.]+\)/.exec(measured);
  return m ? Number(m[1]) : null;
}

function displayedSize(measured: string): [number, number] {
  const m = /displayed_WxH_after_orientation=(\d+)x(\d+)/.exec(measured) ?? /WxH=(\d+)x(\d+)/.exec(measured);
  if (!m) throw new Error(`no size in ${measured}`);
  return [Number(m[1]), Number(m[2])];
}

const readable = [...rowsUnder('images'), ...rowsUnder('orientation')];

describe('readImageMeta against MANIFEST', () => {
  for (const { localFile, measured } of readable) {
    it(`${localFile}`, async () => {
      const meta = await readImageMeta(corpusPath(localFile));
      const [w, h] = displayedSize(measured);
      expect([meta.width, meta.height]).toEqual([w, h]);
      expect(meta.format).toBe(measured.startsWith('magic=PNG') ? 'png' : 'jpeg');

      const stated = manifestDpi(measured);
      const disagree = localFile === 'images/imagesize_1x2-flipped-big-endian_jfif300_exif72.jpg';
      if (disagree) {
        // JFIF 300 and EXIF 72 disagree: EXIF wins, as libvips and ImageMagick read it (Pillow and
        // the MANIFEST's JFIF-first reading say 300).
        expect([meta.dpi, meta.dpiSource]).toEqual([72, 'exif']);
      } else if (stated === null) {
        expect(meta.dpiStated).toBe(false);
        expect(meta.dpi).toBe(72);
      } else {
        expect(meta.dpiStated).toBe(true);
        expect(Math.abs(meta.dpi - stated)).toBeLessThanOrEqual(0.03);
      }
      // Pillow agrees on whether a density is stated, and on its value.
      const pil = pilDpi(measured);
      expect(meta.dpiStated).toBe(pil !== null);
      if (pil !== null && !disagree) expect(Math.abs(meta.dpi - pil)).toBeLessThanOrEqual(0.03);

      const orientation = /EXIF_Orientation=(\d)/.exec(measured);
      const o = orientation ? Number(orientation[1]) : 1;
      expect(meta.orientation).toBe(o >= 1 && o <= 8 ? o : 1);
    });
  }

  it('reports the densities ../shared/spec/decisions.md §3 needs (table of the report)', async () => {
    const dpi = async (f: string) => {
      const m = await readImageMeta(corpusPath(f));
      return [m.dpi, m.dpiStated, m.dpiSource];
    };
    // JFIF and EXIF both say 300: EXIF is the one read.
    expect(await dpi('images/pillow_rgb_jfif300.jpg')).toEqual([300, true, 'exif']);
    expect(await dpi('images/pillow_iptc_exif300_only.jpg')).toEqual([300, true, 'exif']);
    expect(await dpi('images/pillow_exif-200dpcm.jpg')).toEqual([508, true, 'exif']);
    expect(await dpi('images/pillow_app13_no_density.jpg')).toEqual([72, false, 'none']);
    expect(await dpi('images/imagesize_optimized_jfif_units0.jpg')).toEqual([72, false, 'none']);
    expect(await dpi('images/pillow_hopper_phys96.png')).toEqual([96, true, 'phys']);
    expect(await dpi('images/pillow_g4-fillorder-test_phys300.png')).toEqual([300, true, 'phys']);
    expect(await dpi('images/pngsuite_cdun2c08_phys_metre.png')).toEqual([25.4, true, 'phys']);
    expect(await dpi('images/pngsuite_cdfn2c08_phys_unit_unknown.png')).toEqual([72, false, 'none']);
    expect(await dpi('images/sharp_blackbug_no_phys.png')).toEqual([72, false, 'none']);
    expect(await dpi('images/sharp_prophoto_icc_phys240.png')).toEqual([240, true, 'phys']);
    expect(await dpi('images/sharp_p3_icc.png')).toEqual([72, true, 'phys']);
  });

  it('swaps width and height for EXIF orientations 5-8', async () => {
    for (let o = 0; o <= 8; o++) {
      const land = await readImageMeta(corpusPath(`orientation/Landscape_${o}.jpg`));
      const port = await readImageMeta(corpusPath(`orientation/Portrait_${o}.jpg`));
      expect([land.width, land.height]).toEqual([1800, 1200]);
      expect([port.width, port.height]).toEqual([1200, 1800]);
    }
    const flipped = await readImageMeta(corpusPath('images/imagesize_1x2-flipped-big-endian_jfif300_exif72.jpg'));
    expect([flipped.width, flipped.height, flipped.orientation]).toEqual([2, 1, 8]);
  });

  it('reports colour space, channels and depth', async () => {
    const cmyk = await readImageMeta(corpusPath('images/pillow_pil_sample_cmyk.jpg'));
    expect([cmyk.colourSpace, cmyk.channels, cmyk.depth]).toEqual(['cmyk', 4, 8]);
    const grey16 = await readImageMeta(corpusPath('images/pngsuite_basn0g16_gray16.png'));
    expect([grey16.channels, grey16.depth]).toEqual([1, 16]);
    const rgb16 = await readImageMeta(corpusPath('images/sharp_Flag_of_the_Netherlands-16bit.png'));
    expect([rgb16.channels, rgb16.depth]).toEqual([3, 16]);
    const rgba = await readImageMeta(corpusPath('images/sharp_blackbug_no_phys.png'));
    expect(rgba.channels).toBe(4);
    const grey = await readImageMeta(corpusPath('images/sharp_concert_gray_icc.jpg'));
    expect([grey.colourSpace, grey.channels, grey.hasIccProfile]).toEqual(['b-w', 1, true]);
  });
});

describe('camera files whose JFIF says 72 dpi and EXIF their real figure', () => {
  // Real camera JPEGs (test/fixtures/camera, README there): JFIF 72 dpi beside EXIF 180 or 300 dpi, both in inches.
  it.each([
    ['Canon_PowerShot_S40.jpg', 480, 360, 180],
    ['nikon-e950.jpg', 800, 600, 300],
  ])('reads %s at its EXIF resolution, as libvips does', async (name, w, h, dpi) => {
    const file = path.join(FIXTURES, 'camera', name);
    const meta = await readImageMeta(file);
    expect(meta).toMatchObject({ width: w, height: h, dpi, dpiX: dpi, dpiY: dpi, dpiStated: true, dpiSource: 'exif' });
    expect((await sharp(file).metadata()).density).toBe(dpi);
  });

  it('agrees with libvips on every corpus JPEG that states a density in inches', async () => {
    for (const { localFile } of readable) {
      if (!localFile.endsWith('.jpg')) continue;
      const meta = await readImageMeta(corpusPath(localFile));
      const vips = await sharp(corpusPath(localFile)).metadata();
      if (meta.dpiStated && vips.resolutionUnit === 'inch') expect([localFile, meta.dpi]).toEqual([localFile, vips.density]);
    }
  });
});

describe('densities that the corpus lacks', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'media-image-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('converts JFIF dots per cm (units 2) to dpi', async () => {
    const bare = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer();
    expect(bare.indexOf('JFIF\0', 0, 'latin1')).toBe(-1);
    // APP0 "JFIF" 1.02, units 2 (dots per cm), 100 x 100, no thumbnail
    const app0 = Buffer.from('ffe000104a46494600010202006400640000', 'hex');
    const jpeg = Buffer.concat([bare.subarray(0, 2), app0, bare.subarray(2)]);
    const file = path.join(dir, 'dpcm.jpg');
    await writeFile(file, jpeg);
    const meta = await readImageMeta(file);
    expect([meta.dpi, meta.dpiStated, meta.dpiSource]).toEqual([254, true, 'jfif']);
  });

  it('reads headers that reach past the first bytes it reads (a large EXIF block) from the file', async () => {
    const jpeg = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#123456' } })
      .jpeg()
      .withMetadata({ density: 200, exif: { IFD0: { ImageDescription: 'x'.repeat(65_000) } } })
      .toBuffer();
    expect(jpeg.indexOf(Buffer.from([0xff, 0xda]), 2)).toBeGreaterThan(IMAGE_HEAD_BYTES);
    const file = path.join(dir, 'big-exif.jpg');
    await writeFile(file, jpeg);
    expect(await readImageMeta(file)).toMatchObject({ width: 64, height: 32, dpi: 200, dpiStated: true });
  });

  it('keeps horizontal and vertical density apart and swaps them with the orientation', async () => {
    const png = await sharp({ create: { width: 30, height: 10, channels: 3, background: '#000' } }).png().toBuffer();
    // Insert a pHYs of 300 x 150 dpi right after IHDR.
    const phys = Buffer.alloc(21);
    phys.writeUInt32BE(9, 0);
    phys.write('pHYs', 4, 'latin1');
    phys.writeUInt32BE(11811, 8);
    phys.writeUInt32BE(5906, 12);
    phys[16] = 1;
    const { crc32 } = await import('node:zlib');
    phys.writeUInt32BE(crc32(phys.subarray(4, 17)), 17);
    const file = path.join(dir, 'aniso.png');
    await writeFile(file, Buffer.concat([png.subarray(0, 33), phys, png.subarray(33)]));
    const meta = await readImageMeta(file);
    expect([meta.dpiX, meta.dpiY, meta.dpi]).toEqual([300, 150, 150]);
  });
});

describe('PNG: pHYs, then EXIF', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'media-png-exif-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const { crc32 } = zlib;
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  /** The TIFF structure of an EXIF block stating `dpi` in inches, as sharp writes it into a JPEG. */
  const exifTiff = async (dpi: number) => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).jpeg().withMetadata({ density: dpi }).toBuffer();
    const at = jpeg.indexOf('Exif\0\0', 0, 'latin1');
    return jpeg.subarray(at + 6, at - 4 + jpeg.readUInt16BE(at - 2) + 2);
  };
  const phys = (dpi: number, unit = 1) => {
    const d = Buffer.alloc(9);
    d.writeUInt32BE(Math.round(dpi / 0.0254), 0);
    d.writeUInt32BE(Math.round(dpi / 0.0254), 4);
    d[8] = unit;
    return chunk('pHYs', d);
  };
  const png = async (name: string, ...extra: Buffer[]) => {
    const made = await sharp({ create: { width: 30, height: 10, channels: 3, background: '#000' } }).png().toBuffer();
    // sharp writes a pHYs of its own (72 dpi) after IHDR: cut it out.
    const at = made.indexOf('pHYs', 0, 'latin1') - 4;
    const bare = at < 0 ? made : Buffer.concat([made.subarray(0, at), made.subarray(at + 12 + made.readUInt32BE(at))]);
    expect(bare.indexOf('pHYs', 0, 'latin1')).toBe(-1);
    const file = path.join(dir, name);
    await writeFile(file, Buffer.concat([bare.subarray(0, 33), ...extra, bare.subarray(33)]));
    return readImageMeta(file);
  };

  it('reads an eXIf chunk when there is no pHYs', async () => {
    expect(await png('exif.png', chunk('eXIf', await exifTiff(300)))).toMatchObject({ dpi: 300, dpiStated: true, dpiSource: 'exif' });
  });
  it('takes pHYs in metres over EXIF', async () => {
    expect(await png('both.png', phys(96), chunk('eXIf', await exifTiff(300)))).toMatchObject({ dpi: 96, dpiSource: 'phys' });
  });
  it('takes EXIF when pHYs states no unit', async () => {
    expect(await png('aspect.png', phys(96, 0), chunk('eXIf', await exifTiff(300)))).toMatchObject({ dpi: 300, dpiSource: 'exif' });
  });
});

describe('damaged and disguised files', () => {
  it('reads the header of damaged files or refuses them as damaged, never crashing', async () => {
    for (const { localFile } of rowsUnder('damaged')) {
      if (!/\.(png|jpe?g)$/.test(localFile)) continue;
      try {
        const meta = await readImageMeta(corpusPath(localFile));
        expect(meta.width).toBeGreaterThan(0);
      } catch (e) {
        expect(e).toBeInstanceOf(MediaError);
        expect((e as MediaError).code).toMatch(/^(damaged|wrong-type)$/);
      }
    }
  });

  it('refuses a PNG signature with a broken IHDR as damaged', async () => {
    await expect(readImageMeta(corpusPath('damaged/imagesize_invalid_sample.png'))).rejects.toMatchObject({
      code: 'damaged',
      message: '文件破损，无法读取',
    });
  });

  it('refuses a PDF or a text file named .jpg as the wrong type', async () => {
    await expect(readImageMeta(corpusPath('damaged/pdf_disguised_as.jpg'))).rejects.toMatchObject({ code: 'wrong-type' });
    await expect(readImageMeta(corpusPath('damaged/text_disguised_as.jpg'))).rejects.toMatchObject({ code: 'wrong-type' });
    await expect(verifyImageDecodes(corpusPath('damaged/text_disguised_as.jpg'))).rejects.toMatchObject({ code: 'wrong-type' });
  });

  it('still reads the size of truncated files from their headers (metadata does not decode)', async () => {
    const jpeg = await readImageMeta(corpusPath('damaged/pillow_truncated_jpeg.jpg'));
    expect([jpeg.width, jpeg.height]).toEqual([100, 100]);
    const png = await readImageMeta(corpusPath('damaged/pillow_truncated_image.png'));
    expect([png.width, png.height]).toEqual([640, 480]);
  });
});

describe('verifyImageDecodes', () => {
  it('accepts every readable corpus image', async () => {
    for (const { localFile } of readable) await verifyImageDecodes(corpusPath(localFile));
  });

  // Measured: sharp's metadata() accepts all four; decoding with failOn 'error' flags all four.
  for (const f of [
    'damaged/pillow_truncated_jpeg.jpg',
    'damaged/pillow_truncated_image.png',
    'damaged/pngsuite_xcsn0g01_bad_idat_crc.png',
    'damaged/pngsuite_xhdn0g08_bad_ihdr_crc.png',
    'damaged/imagesize_invalid_sample.png',
  ]) {
    it(`flags ${f} as damaged`, async () => {
      expect(row(f).localFile).toBe(f);
      await expect(verifyImageDecodes(corpusPath(f))).rejects.toMatchObject({ code: 'damaged' });
    });
  }

  it('flags a JPEG cut in half', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'media-cut-'));
    try {
      const whole = await readFile(corpusPath('orientation/Landscape_1.jpg'));
      const file = path.join(dir, 'half.jpg');
      await writeFile(file, whole.subarray(0, whole.length >> 1));
      await expect(readImageMeta(file)).resolves.toMatchObject({ width: 1800, height: 1200 });
      await expect(verifyImageDecodes(file)).rejects.toMatchObject({ code: 'damaged' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('readImageMeta with the head already read', () => {
  it('answers exactly what it reads from the file alone', async () => {
    for (const { localFile } of readable) {
      const file = corpusPath(localFile);
      const head = await readHead(file, IMAGE_HEAD_BYTES);
      expect(await readImageMeta(file, { head })).toEqual(await readImageMeta(file));
    }
  });
});
