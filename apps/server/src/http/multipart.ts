import type { Readable } from 'node:stream';

/**
 * A multipart/form-data reader for the one body shape the chunk upload takes: some fields, then one
 * file part (the order in which our web client, simple-uploader.js and any FormData send them).
 * A general parser (busboy) scans and re-emits every byte of the file through a stream of its own;
 * here the file's bytes are the request's own buffers, cut with Buffer#indexOf and kept as they are,
 * which matters when hundreds of 2 MB chunks come in a minute. Keep in mind:
 * - `fields` settles when the file part begins: the caller checks the fields before any file byte
 *   is kept, and calls `discard()` to refuse (the rest of the body is then read and dropped);
 * - the file's bytes end at the first `\r\n--boundary`, which may be split across any two buffers;
 * - at most `limits.fileBytes` bytes are kept; past them the reader counts and says `truncated`;
 * - parts after the file are read (their fields are dropped); a second file is refused;
 * - a body that is not multipart, is cut short or has no file rejects with a MultipartError.
 */

export type MultipartLimits = {
  /** Fields before the file, at most. */
  fields: number;
  /** Bytes of one field's value. */
  fieldBytes: number;
  /** Bytes of the preamble plus one part's headers (or one field), before anything is refused as malformed. */
  headBytes: number;
  /** File bytes kept; beyond this they are counted only. */
  fileBytes: number;
};

export type MultipartFile = {
  /** The file part's filename, as sent. */
  filename: string;
  /** Its bytes, in order: pieces of the request's buffers, not copies. Empty when truncated. */
  pieces: Buffer[];
  /** How many bytes the part held. */
  bytes: number;
  /** More than `limits.fileBytes` came. */
  truncated: boolean;
};

export type MultipartBody = {
  /** The fields sent before the file part: settles when that part begins. */
  fields: Promise<Record<string, string>>;
  /** The file part, once the body has ended. */
  file: Promise<MultipartFile>;
  /** Keeps nothing more: the body is read to its end and dropped. */
  discard(): void;
  /**
   * Says how many bytes the file should hold: that many are then taken without looking for the
   * delimiter in them (scanning every byte was most of the reader's time), and it is looked for
   * right after them. A file that ends sooner is found out once the body has ended.
   */
  expect(fileBytes: number): void;
};

export class MultipartError extends Error {
  /** 'malformed': not multipart or cut short; 'no-file': no file part; 'limit': too many or too long fields, or two files. */
  constructor(readonly kind: 'malformed' | 'no-file' | 'limit', message: string) {
    super(message);
    this.name = 'MultipartError';
  }
}

/** The boundary of a `multipart/form-data` content type, or null. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]{1,200})"|([^\s;]{1,200}))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

const CRLF = Buffer.from('\r\n');
const DASHES = Buffer.from('--');
const EMPTY = Buffer.alloc(0);
const HEADERS_END = Buffer.from('\r\n\r\n');

type Disposition = { name: string; filename: string | null };

const DISPOSITION_LINE = /^content-disposition\s*:(.*)$/im;
const PARAM = { name: /;\s*name=(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/i, filename: /;\s*filename=(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/i };

function parseDisposition(headers: string): Disposition | null {
  const line = DISPOSITION_LINE.exec(headers)?.[1];
  if (line === undefined) return null;
  const param = (key: keyof typeof PARAM) => {
    const m = PARAM[key].exec(line);
    if (!m) return null;
    return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? '');
  };
  const name = param('name');
  if (name === null) return null;
  return { name, filename: param('filename') };
}

export function readMultipart(body: Readable, boundary: string, limits: MultipartLimits): MultipartBody {
  // Every part but the first starts after CRLF; the first delimiter may open the body without it.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const opening = delimiter.subarray(2);
  const dlen = delimiter.length;

  let resolveFields!: (f: Record<string, string>) => void;
  let rejectFields!: (e: unknown) => void;
  const fields = new Promise<Record<string, string>>((res, rej) => { resolveFields = res; rejectFields = rej; });
  let resolveFile!: (f: MultipartFile) => void;
  let rejectFile!: (e: unknown) => void;
  const file = new Promise<MultipartFile>((res, rej) => { resolveFile = res; rejectFile = rej; });
  // Either may be left unawaited by a caller that gave up on the other.
  fields.catch(() => {});
  file.catch(() => {});

  const values: Record<string, string> = {};
  let fieldCount = 0;
  let fileSeen = false;
  let discarded = false;
  let done = false;

  /** Where the reader is: before the first delimiter, in a part's headers, in a field, in a file, after the end. */
  let state: 'preamble' | 'after-delimiter' | 'headers' | 'field' | 'file' | 'epilogue' = 'preamble';
  /** Bytes of the current non-file state not yet understood (small: bounded by headBytes). */
  let pending: Buffer = EMPTY;
  let fieldName = '';
  /** The last bytes of file data, which may be the start of a delimiter split across buffers. */
  let carry: Buffer = EMPTY;
  const out: MultipartFile = { filename: '', pieces: [], bytes: 0, truncated: false };
  /** File bytes up to here are taken as they come (see expect). */
  let takeUntil = 0;
  let took = false;

  const fail = (err: MultipartError | Error) => {
    if (done) return;
    done = true;
    body.off('data', onData);
    rejectFields(err);
    rejectFile(err);
    // What is left of the body is read and dropped, so that the answer can still be sent.
    body.resume();
  };

  const emitFile = (b: Buffer) => {
    if (b.length === 0) return;
    out.bytes += b.length;
    if (out.truncated || discarded) return;
    if (out.bytes > limits.fileBytes) {
      out.truncated = true;
      out.pieces = [];
      return;
    }
    out.pieces.push(b);
  };

  /** File bytes: answers the bytes after its delimiter, or null while it goes on. */
  const feedFile = (buf: Buffer): Buffer | null => {
    const consumed = out.bytes + carry.length;
    if (consumed < takeUntil) {
      // The delimiter is expected at takeUntil, so what comes before it is file.
      took = true;
      emitFile(carry);
      carry = EMPTY;
      const take = Math.min(buf.length, takeUntil - consumed);
      emitFile(buf.subarray(0, take));
      buf = buf.subarray(take);
      if (buf.length === 0) return null;
    }
    if (carry.length > 0) {
      if (buf.length < dlen) {
        // A short buffer: join it to the carry and look again (small copies, rare).
        buf = Buffer.concat([carry, buf]);
        carry = EMPTY;
      } else {
        // A delimiter that starts in the carry ends within the first dlen-1 bytes of buf.
        const probe = Buffer.concat([carry, buf.subarray(0, dlen - 1)]);
        const i = probe.indexOf(delimiter);
        if (i >= 0) {
          emitFile(i <= carry.length ? carry.subarray(0, i) : carry);
          if (i > carry.length) emitFile(buf.subarray(0, i - carry.length));
          const after = buf.subarray(i + dlen - carry.length);
          carry = EMPTY;
          return after;
        }
        emitFile(carry);
        carry = EMPTY;
      }
    }
    const j = buf.indexOf(delimiter);
    if (j >= 0) {
      emitFile(buf.subarray(0, j));
      return buf.subarray(j + dlen);
    }
    const keep = Math.min(buf.length, dlen - 1);
    emitFile(buf.subarray(0, buf.length - keep));
    carry = buf.subarray(buf.length - keep);
    return null;
  };

  const tooLong = () => pending.length > limits.headBytes;

  function onData(chunk: Buffer) {
    try {
      let buf: Buffer | null = chunk;
      while (buf && buf.length > 0 && !done) {
        if (state === 'file') {
          const after = feedFile(buf);
          if (after === null) return;
          state = 'after-delimiter';
          buf = after;
          continue;
        }
        if (state === 'epilogue') return;
        pending = pending.length ? Buffer.concat([pending, buf]) : buf;
        buf = null;
        if (state === 'preamble') {
          const at = pending.subarray(0, opening.length).equals(opening) ? 0 : pending.indexOf(delimiter);
          if (at < 0) {
            if (tooLong()) throw new MultipartError('malformed', 'multipart boundary not found');
            return;
          }
          pending = pending.subarray(at === 0 && pending[0] === 0x2d ? opening.length : at + dlen);
          state = 'after-delimiter';
        }
        if (state === 'after-delimiter') {
          if (pending.length < 2) return;
          if (pending.subarray(0, 2).equals(DASHES)) {
            state = 'epilogue';
            pending = EMPTY;
            return finish();
          }
          const eol = pending.indexOf(CRLF);
          if (eol < 0) {
            if (pending.length > 256) throw new MultipartError('malformed', 'malformed multipart delimiter');
            return;
          }
          pending = pending.subarray(eol + 2);
          state = 'headers';
        }
        if (state === 'headers') {
          // A part with no headers at all starts with the blank line itself.
          const end = pending.subarray(0, 2).equals(CRLF) ? -2 : pending.indexOf(HEADERS_END);
          if (end === -1) {
            if (tooLong()) throw new MultipartError('limit', 'multipart part headers too long');
            return;
          }
          const disposition = parseDisposition(pending.subarray(0, Math.max(end, 0)).toString('utf8'));
          const rest = pending.subarray(end + 4);
          pending = EMPTY;
          if (!disposition) throw new MultipartError('malformed', 'multipart part without content-disposition');
          if (disposition.filename !== null) {
            if (fileSeen) {
              throw new MultipartError('limit', 'more than one file part');
            } else {
              fileSeen = true;
              state = 'file';
              out.filename = disposition.filename;
              resolveFields({ ...values });
            }
          } else {
            state = 'field';
            fieldName = disposition.name;
          }
          buf = rest;
          continue;
        }
        if (state === 'field') {
          const end = pending.indexOf(delimiter);
          if (end < 0) {
            if (pending.length > limits.fieldBytes + dlen) throw new MultipartError('limit', `multipart field ${fieldName.slice(0, 40)} too long`);
            return;
          }
          if (end > limits.fieldBytes) throw new MultipartError('limit', `multipart field ${fieldName.slice(0, 40)} too long`);
          if (!fileSeen) {
            if (++fieldCount > limits.fields) throw new MultipartError('limit', 'too many multipart fields');
            values[fieldName] = pending.subarray(0, end).toString('utf8');
          }
          buf = pending.subarray(end + dlen);
          pending = EMPTY;
          state = 'after-delimiter';
          continue;
        }
      }
    } catch (err) {
      fail(err instanceof Error ? err : new Error(String(err)));
    }
  }

  function finish() {
    if (done) return;
    if (state !== 'epilogue') return fail(new MultipartError('malformed', 'unexpected end of multipart body'));
    if (!fileSeen) return fail(new MultipartError('no-file', 'multipart body without a file'));
    done = true;
    body.off('data', onData);
    body.resume();
    resolveFile(out);
  }

  body.on('data', onData);
  body.once('end', () => {
    if (state === 'epilogue') return;
    if (state === 'file' && took && !out.truncated && !discarded && endsEarly()) return;
    fail(new MultipartError('malformed', 'unexpected end of multipart body'));
  });

  /** The body ended inside bytes taken as file: its end may lie among them after all (a short file). */
  function endsEarly(): boolean {
    const joined = Buffer.concat([...out.pieces, carry]);
    const at = joined.indexOf(delimiter);
    if (at < 0 || !joined.subarray(at + dlen, at + dlen + 2).equals(DASHES)) return false;
    out.pieces = [joined.subarray(0, at)];
    out.bytes = at;
    state = 'epilogue';
    done = true;
    resolveFile(out);
    return true;
  }
  body.once('error', (err) => fail(Object.assign(err, { code: (err as { code?: string }).code ?? 'ECONNRESET' })));
  body.once('close', () => {
    if (!done) fail(Object.assign(new Error('the request was closed before its body ended'), { code: 'ECONNRESET' }));
  });

  return {
    fields,
    file,
    discard() {
      discarded = true;
      out.pieces = [];
    },
    expect(fileBytes) {
      if (fileBytes <= limits.fileBytes) takeUntil = fileBytes;
    },
  };
}
