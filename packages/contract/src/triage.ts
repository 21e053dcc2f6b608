/**
 * 文件问题汇总 (issue #20 item 1): every failing or warned file of a batch, grouped by cause and by the
 * size of the miss. A pure function over the file check's rows (../shared/spec/decisions.md §5), shared by
 * the page and its tests; docs/decisions.md "#20 item 1" records the bands.
 */
import { allowedDeviation, fileLabels, fitsSize } from './rules.ts';

/** The causes, in the order the triage lists them (labels fixed by issue #20). */
export const TRIAGE_CAUSES = ['尺寸偏小', '尺寸偏大', '方向不符', '分辨率不足', '页数不符', '未匹配组件', '文件破损'] as const;
export type TriageCause = (typeof TRIAGE_CAUSES)[number];

/**
 * Bands of a size miss: how far the worst side is from the standard, in mm (the tolerance included:
 * a side 3 mm short with ±1 mm allowed is in 2–5 mm). Lower bound inclusive.
 */
export const SIZE_BANDS = [
  { from: 0, to: 2, label: '<2 mm' },
  { from: 2, to: 5, label: '2–5 mm' },
  { from: 5, to: 10, label: '5–10 mm' },
  { from: 10, to: Infinity, label: '≥10 mm' },
] as const;

/** Bands of a resolution below the threshold, by the file's own dpi. Lower bound inclusive. */
export const DPI_BANDS = [
  { from: 200, to: Infinity, label: '≥200 dpi' },
  { from: 150, to: 200, label: '150–199 dpi' },
  { from: 100, to: 150, label: '100–149 dpi' },
  { from: 0, to: 100, label: '<100 dpi' },
] as const;

/** The reasons of domain/check.ts that name a cause without a component (table-tested there over checkWork). */
const NO_COMPONENT_REASON = '没有与此文件尺寸匹配的部件';
const PDF_SPLIT_REASON = 'PDF共';

/** What the triage reads of a file check row (FileCheckRow of api.ts; previews absent in the server's own rows). */
export interface TriageRowInput {
  filename: string;
  itemPath: string;
  type: 'image' | 'pdf';
  page: number | null;
  width: number;
  height: number;
  component: { width: number; height: number; error: number; errorType: 'mm' | 'percent'; autoOrientationDetection: boolean } | null;
  resolutionDetect: number | null;
  resolutionThreshold: number;
  resolutionWarning: boolean;
  pass: boolean;
  reason: string | null;
  /** Its resolution warning was accepted (批量确认使用), also in a work that fails for another file. */
  resolutionAccepted?: true;
  previewUrl?: string;
}

/** A checked work as the triage reads it: the check answer's message (either shape) or none yet. */
export interface TriageWorkInput {
  uuid: string;
  checkResult?:
    | { fileCheckResult: readonly TriageRowInput[]; resolutionAccepted?: boolean }
    | { message: { fileCheckResult: readonly TriageRowInput[]; pageCountWarning: boolean } }
    | null;
}

export interface FileIssue {
  cause: TriageCause;
  /** The band's label ('2–5 mm', '<100 dpi'), or null for causes without bands. */
  band: string | null;
  /** The miss: mm for sizes, dpi for resolution; null otherwise. */
  miss: number | null;
}

const bandOf = <B extends { from: number; to: number; label: string }>(bands: readonly B[], value: number) =>
  (bands.find((b) => value >= b.from && value < b.to) ?? bands[bands.length - 1]!).label;

/** The worst side's deviation (mm, signed: negative is short) of `size` against `standard`. */
function worstSide(size: { width: number; height: number }, standard: { width: number; height: number }, tol: { error: number; errorType: 'mm' | 'percent' }) {
  const sides = [
    { d: size.width - standard.width, over: Math.abs(size.width - standard.width) - allowedDeviation(standard.width, tol) },
    { d: size.height - standard.height, over: Math.abs(size.height - standard.height) - allowedDeviation(standard.height, tol) },
  ];
  // The side furthest beyond its tolerance decides.
  return sides[0]!.over >= sides[1]!.over ? sides[0]!.d : sides[1]!.d;
}

const isPortrait = (s: { width: number; height: number }) => s.height > s.width;

/**
 * The issues of one file check row: none for a passing row without a resolution warning. A size that
 * does not fit is 方向不符 when the other orientation would fit, or the file stands the other way round
 * than the standard and automatic orientation is off; else 尺寸偏小 or 尺寸偏大 by its worst side
 * (in the orientation the check would accept).
 */
export function fileIssues(row: TriageRowInput): FileIssue[] {
  const issues: FileIssue[] = [];
  const c = row.component;
  if (!row.pass) {
    if (!c) {
      const reason = row.reason ?? '';
      if (reason.startsWith(NO_COMPONENT_REASON)) issues.push({ cause: '未匹配组件', band: null, miss: null });
      else if (reason.startsWith(PDF_SPLIT_REASON)) issues.push({ cause: '页数不符', band: null, miss: null });
      else issues.push({ cause: '文件破损', band: null, miss: null });
      return issues;
    }
    const size = { width: row.width, height: row.height };
    const swapped = { width: row.height, height: row.width };
    if (!fitsSize(size, c, c)) {
      const squareStandard = c.width === c.height;
      const swappedFits = fitsSize(swapped, c, c);
      if (!c.autoOrientationDetection && (swappedFits || (!squareStandard && row.width !== row.height && isPortrait(size) !== isPortrait(c)))) {
        issues.push({ cause: '方向不符', band: null, miss: null });
      } else {
        const turn = c.autoOrientationDetection && !squareStandard && isPortrait(size) !== isPortrait(c);
        const d = worstSide(turn ? swapped : size, c, c);
        const miss = Math.round(Math.abs(d) * 10) / 10;
        issues.push({ cause: d < 0 ? '尺寸偏小' : '尺寸偏大', band: bandOf(SIZE_BANDS, miss), miss });
      }
    }
  }
  if (row.resolutionWarning && row.resolutionDetect !== null && row.resolutionThreshold > 0 && row.resolutionDetect < row.resolutionThreshold) {
    issues.push({ cause: '分辨率不足', band: bandOf(DPI_BANDS, row.resolutionDetect), miss: row.resolutionDetect });
  }
  return issues;
}

export interface TriageFile {
  workUuid: string;
  row: TriageRowInput;
  issue: FileIssue;
  /** The file's name, or its path within the work where another file of the work has the same name (rules.ts fileLabels). */
  label: string;
}

export interface TriageGroup {
  /** cause + band: stable while the batch changes, so a chosen group stays chosen. */
  key: string;
  cause: TriageCause;
  band: string | null;
  /** '尺寸偏小 2–5 mm' */
  title: string;
  /** '尺寸偏小 2–5 mm · 共37个文件 · 12个作品' */
  label: string;
  files: TriageFile[];
  /** The works of the files, in the batch's order. */
  workUuids: string[];
}

const rowsOf = (r: NonNullable<TriageWorkInput['checkResult']>) => ('fileCheckResult' in r ? r.fileCheckResult : r.message.fileCheckResult);

const cache = new WeakMap<object, { uuid: string; files: TriageFile[] }>();

/** The issues of one work's last check, one entry per file and issue (remembered per answer object). */
export function workIssues(work: TriageWorkInput): TriageFile[] {
  const result = work.checkResult;
  if (!result) return [];
  const hit = cache.get(result);
  if (hit && hit.uuid === work.uuid) return hit.files;
  const out: TriageFile[] = [];
  const rows = rowsOf(result);
  // Warnings the customer accepted (批量确认使用, 确认使用) are no longer problems of the batch.
  const accepted = 'fileCheckResult' in result && result.resolutionAccepted === true;
  const labels = fileLabels(rows.map((r) => r.itemPath));
  const labelOf = (row: TriageRowInput) => labels.get(row.itemPath) ?? row.filename;
  for (const row of rows) {
    const rowAccepted = accepted || row.resolutionAccepted === true;
    for (const issue of fileIssues(row)) if (!(rowAccepted && issue.cause === '分辨率不足')) out.push({ workUuid: work.uuid, row, issue, label: labelOf(row) });
  }
  // A page count outside the limits is the work's: every file of it is in the group.
  if ('message' in result && result.message.pageCountWarning && !out.some((f) => f.issue.cause === '页数不符')) {
    for (const row of rows) out.push({ workUuid: work.uuid, row, issue: { cause: '页数不符', band: null, miss: null }, label: labelOf(row) });
  }
  cache.set(result, { uuid: work.uuid, files: out });
  return out;
}

const bandRank = (cause: TriageCause, band: string | null) => {
  if (band === null) return 0;
  const bands: ReadonlyArray<{ label: string }> = cause === '分辨率不足' ? DPI_BANDS : SIZE_BANDS;
  return bands.findIndex((b) => b.label === band);
};

/** The triage of a batch: its groups in the order of TRIAGE_CAUSES, then of the bands; empty groups left out. */
export function triage(works: readonly TriageWorkInput[]): TriageGroup[] {
  const groups = new Map<string, TriageGroup & { seen: Set<string> }>();
  for (const work of works) {
    for (const file of workIssues(work)) {
      const { cause, band } = file.issue;
      const key = band ? `${cause} ${band}` : cause;
      let g = groups.get(key);
      if (!g) {
        g = { key, cause, band, title: key, label: '', files: [], workUuids: [], seen: new Set() };
        groups.set(key, g);
      }
      g.files.push(file);
      if (!g.seen.has(file.workUuid)) {
        g.seen.add(file.workUuid);
        g.workUuids.push(file.workUuid);
      }
    }
  }
  return [...groups.values()]
    .sort((a, b) => TRIAGE_CAUSES.indexOf(a.cause) - TRIAGE_CAUSES.indexOf(b.cause) || bandRank(a.cause, a.band) - bandRank(b.cause, b.band))
    .map(({ seen: _seen, ...g }) => ({ ...g, label: `${g.title} · 共${g.files.length}个文件 · ${g.workUuids.length}个作品` }));
}
