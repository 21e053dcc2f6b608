import type { Goal, Measurement } from './types.ts';

/** Figures of the runs, whole, one space apart (a row's `extra`). */
export const perRun = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(' ');

/** Three significant figures, without exponent notation. */
export function num(v: number): string {
  if (!Number.isFinite(v) || Number.isInteger(v)) return String(v);
  const abs = Math.abs(v);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return v.toFixed(digits);
}

export function goalText(goal: Goal, unit: string): string {
  const parts: string[] = [];
  if (goal.ratioMin !== undefined) parts.push(`ratio >= ${goal.ratioMin}`);
  if (goal.ratioMax !== undefined) parts.push(`ratio <= ${goal.ratioMax}`);
  if (goal.valueMin !== undefined) parts.push(`>= ${goal.valueMin} ${unit}`);
  if (goal.valueMax !== undefined) parts.push(`<= ${goal.valueMax} ${unit}`);
  return parts.join(', ') || '(none)';
}

/** True when every bound the goal states holds. */
export function held(goal: Goal, m: Measurement): boolean {
  if (goal.ratioMin !== undefined && !(m.ratio >= goal.ratioMin)) return false;
  if (goal.ratioMax !== undefined && !(m.ratio <= goal.ratioMax)) return false;
  if (goal.valueMin !== undefined && !(m.figure.value >= goal.valueMin)) return false;
  if (goal.valueMax !== undefined && !(m.figure.value <= goal.valueMax)) return false;
  return true;
}

/** Plain-text columns, left-aligned, two spaces apart, with a rule under the header. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
