/**
 * Pure rules of the production zip: entry names that open on Windows 10+, macOS and Linux, unique within the zip,
 * and the manifest as CSV that Excel opens (UTF-8 with BOM).
 */

/**
 * Characters no name in the zip keeps: what Windows refuses, control characters (C0 and C1), and the invisible ones that
 * make a name read as another: bidirectional overrides (`\u202egpj.exe.jpg` shows as `gpj.exe.jpg` turned), zero-width
 * characters, line and paragraph separators (API probe, 2026-11-30).
 */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;
/** Device names Windows will not create as a file or folder, with any extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/** Longest name of each kind, in characters: `<SO>_<work>/<component>/<file>` stays within Windows' 260. */
export const NAME_LIMITS = { work: 80, component: 40, file: 100 } as const;

/**
 * Longest name in the zip, in bytes of UTF-8, whatever its kind: ext4, XFS and btrfs take 255 bytes a name and unzip
 * failed on more (100 Chinese characters are 292 bytes: File name too long, operator walk); NTFS takes 255 UTF-16
 * units, never more than a name's bytes. The rest up to 255 is for what a file manager adds when the operator copies
 * a file beside itself (` - 副本` on Chinese Windows, ` (2)`); the zip's own ` (2)` for names that meet fits within.
 */
export const NAME_MAX_BYTES = 240;

/** A UTF-16 surrogate without its pair: no character, and UTF-8 cannot write it (it became U+FFFD). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const utf8Bytes = (ch: string) => {
  const c = ch.codePointAt(0)!;
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
};
const bytesOf = (s: string) => Array.from(s).reduce((n, ch) => n + utf8Bytes(ch), 0);

const graphemes = new Intl.Segmenter('zh', { granularity: 'grapheme' });

/**
 * The longest start of `s` within `maxChars` characters (code points) and `maxBytes` bytes of UTF-8, cut between what
 * a reader sees as one character (a flag, a skin tone, a letter and its accents stay whole or go together).
 */
function cut(s: string, maxChars: number, maxBytes: number): string {
  let end = 0;
  let chars = 0;
  let bytes = 0;
  for (const { segment, index } of graphemes.segment(s)) {
    for (const ch of segment) {
      chars++;
      bytes += utf8Bytes(ch);
    }
    if (chars > maxChars || bytes > maxBytes) break;
    end = index + segment.length;
  }
  return s.slice(0, end);
}

/** A name's stem and extension: the last dot's part when short (`.jpg`, `.jpeg`), so a dot far from the end starts none. */
function splitExt(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  return dot > 0 && name.length - dot <= 10 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
}

/**
 * One name of a path, safe on Windows, macOS and Linux: forbidden characters and lone surrogates become _,
 * trailing dots and spaces go (Windows drops them, so two names would meet), a device name gets a leading _, and
 * a long name is cut to `max` characters and NAME_MAX_BYTES bytes (between characters), keeping a file's extension.
 */
export function safeName(raw: string, max: number): string {
  let s = raw.replace(LONE_SURROGATE, '_').normalize('NFC').replace(FORBIDDEN, '_').trim().replace(/[. ]+$/, '');
  if (!s || s === '.' || s === '..') s = '_';
  if (RESERVED.test(s)) s = `_${s}`;
  if (Array.from(s).length <= max && bytesOf(s) <= NAME_MAX_BYTES) return s;
  const [stem, ext] = splitExt(s);
  return (cut(stem, max - Array.from(ext).length, NAME_MAX_BYTES - bytesOf(ext)).replace(/[. ]+$/, '') || '_') + ext;
}

/**
 * Hands out unique paths: a path already taken (ignoring case, as Windows and macOS do) gets ` (2)`, ` (3)`…
 * before its extension, its stem cut so the name stays within NAME_MAX_BYTES (two long names that differ only past
 * the cut meet).
 */
export function uniquePaths() {
  const taken = new Set<string>();
  return (p: string): string => {
    const slash = p.lastIndexOf('/');
    const dir = p.slice(0, slash + 1);
    const [stem, ext] = splitExt(p.slice(slash + 1));
    let candidate = p;
    for (let i = 2; taken.has(candidate.toLowerCase()); i++) {
      const suffix = ` (${i})${ext}`;
      candidate = `${dir}${cut(stem, Infinity, NAME_MAX_BYTES - bytesOf(suffix))}${suffix}`;
    }
    taken.add(candidate.toLowerCase());
    return candidate;
  };
}

/** The folder of one order: `<SO>_<作品名>`. */
export const orderFolder = (salesOrderNumber: string, articleName: string) =>
  safeName(`${salesOrderNumber}_${articleName}`, NAME_LIMITS.work);

/**
 * One CSV cell: quoted when it holds a comma, quote, line break or edge space; a cell that Excel would run
 * as a formula (= + - @ at its start) is prefixed with ' so a work name cannot become a formula.
 */
export function csvCell(v: string | number): string {
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** A whole CSV file as Excel on Windows opens it right: a UTF-8 BOM, CRLF line ends. */
export function csvText(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** The shop's zone: China Standard Time, UTC+8, no daylight saving. */
const SHOP_UTC_OFFSET_MINUTES = 8 * 60;

/** `at` as the shop's clock reads it (UTC+8), whatever the server's zone: YYYY-MM-DDTHH:mm:ss.sss. */
export const shopClock = (at: Date): string => new Date(at.getTime() + SHOP_UTC_OFFSET_MINUTES * 60_000).toISOString().slice(0, 23);

/**
 * A zip entry's time for `at` as the shop's clock reads it (UTC+8). A zip stores a wall-clock time without
 * a zone, and the zip writer takes the server's own zone: on a server in UTC an order placed at 17:09 in the
 * shop was filed at 09:09 (operator check from another PC).
 */
export function zipTimeOf(at: Date): Date {
  const serverOffsetMinutes = -at.getTimezoneOffset();
  return new Date(at.getTime() + (SHOP_UTC_OFFSET_MINUTES - serverOffsetMinutes) * 60_000);
}


/** The start and end (exclusive) of a shop's day, YYYY-MM-DD in China Standard Time (UTC+8, no daylight saving). */
export function shopDay(day: string): { from: Date; to: Date } | null {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  // 2026-02-31 may parse as March: refuse a date that is not itself.
  if (Number.isNaN(midnightUtc) || new Date(midnightUtc).toISOString().slice(0, 10) !== day) return null;
  const from = new Date(midnightUtc - SHOP_UTC_OFFSET_MINUTES * 60_000);
  return { from, to: new Date(from.getTime() + 24 * 3600_000) };
}

/**
 * The paper (or board) a component of an order is printed on, as the job ticket names it, from the SKU's
 * text (`内页纸张:157g铜版纸;装订方式:骑马钉`) and the papers the component may be made of:
 * the SKU's choice that names the component (内页纸张:…), else its choice that is one of the component's
 * papers (板材:3mm PVC板), else its choices of a 纸 that name no component (相纸:光面), else every paper the
 * component may be made of (a brochure's SKU may choose only the inner pages' paper). Choices by their value.
 */
export function componentPaper(name: string, componentNames: readonly string[], sku: string, papers: readonly string[]): string {
  const choices = sku.split(/[;；]/).map((s) => s.trim()).filter(Boolean).map((text) => {
    const at = Math.max(text.indexOf(':'), text.indexOf('：'));
    return { text, value: text.slice(at + 1).trim() };
  });
  const named = choices.filter((c) => c.text.startsWith(name) && c.text.includes('纸'));
  const ofComponent = choices.filter((c) => papers.includes(c.value));
  const general = choices.filter((c) => c.text.includes('纸') && !componentNames.some((n) => c.text.startsWith(n)));
  const chosen = [named, ofComponent, general].find((list) => list.length > 0);
  return (chosen ? chosen.map((c) => c.value) : papers).join('、');
}
