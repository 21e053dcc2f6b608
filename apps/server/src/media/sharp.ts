/**
 * sharp, set up once for the server. libvips keeps an operation cache keyed by file name (up to
 * 50 MB and 100 files by default): a file replaced under the same name (a crop, the same path
 * uploaded again) would be read from the cache as it was. Every server read of a file goes to the
 * file, and the memory stays free for uploads.
 */
import sharp from 'sharp';

sharp.cache(false);

export default sharp;
export type { Metadata, OutputInfo, Sharp } from 'sharp';
