/** Chunk numbers as ranges (`1-40,42`): a 2,000-chunk file's list stays a few bytes in the draft. */
export function rangesOf(numbers: Iterable<number>): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as number) === (sorted[j] as number) + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The numbers of `rangesOf`'s text; anything unreadable is left out. */
export function numbersOf(ranges: string | undefined): number[] {
  if (!ranges) return [];
  const out: number[] = [];
  for (const part of ranges.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) continue;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    for (let n = from; n <= to && out.length < 1_000_000; n++) out.push(n);
  }
  return out;
}
