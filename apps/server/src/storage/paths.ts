import path from 'node:path';
import { badRequest } from '../errors.ts';

export const BAD_PATH_MESSAGE = '文件路径不合法';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Control characters (C0 but NUL, which cleanRelativePath refuses as a bad path; DEL; C1) and the bidirectional
 * overrides and isolates, which show a name other than it is (`a\u202egpj.exe` reads a.exe.jpg): a new file's
 * name may not hold them (uploads, zip entries). Names already stored are still read.
 */
const CONTROL = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;
export const hasControlChars = (name: string) => CONTROL.test(name.replaceAll('\0', ''));

/**
 * Checks a path relative to a root sent by a client: no absolute paths, no `..`, no backslashes, no NUL,
 * no empty segments, no lone surrogates; then proves the resolved path stays under the root. Returns the normalised path.
 */
export function cleanRelativePath(rel: string): string {
  if (typeof rel !== 'string' || rel.length === 0 || rel.length > 1024) throw badRequest(BAD_PATH_MESSAGE, 'bad-path');
  if (rel.includes('\0') || rel.includes('\\') || rel.startsWith('/') || /^[a-zA-Z]:/.test(rel)) throw badRequest(BAD_PATH_MESSAGE, 'bad-path');
  // A lone UTF-16 surrogate names nothing: it has no UTF-8 bytes of its own (two such names would be one file).
  if (LONE_SURROGATE.test(rel)) throw badRequest(BAD_PATH_MESSAGE, 'bad-path');
  const segments = rel.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) throw badRequest(BAD_PATH_MESSAGE, 'bad-path');
  return segments.join('/');
}

/** The absolute path of `rel` under `root`; `onDisk` maps the checked path to the names it has on disk. */
export function resolveUnder(root: string, rel: string, onDisk: (clean: string) => string = (clean) => clean): string {
  const clean = onDisk(cleanRelativePath(rel));
  const abs = path.resolve(root, clean);
  if (abs !== root && !abs.startsWith(root + path.sep)) throw badRequest(BAD_PATH_MESSAGE, 'bad-path');
  return abs;
}
