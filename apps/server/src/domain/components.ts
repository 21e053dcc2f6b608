/**
 * Items in the catalogue's order of their components (正面 before 背面), stable within a component; items of a
 * component the catalogue no longer lists, or of none, come last. The order a work's files were picked in
 * (背面/ sorts before 正面/) is not the press's.
 */
export function inComponentOrder<T>(items: readonly T[], componentOf: (item: T) => string | null, catalogueNames: readonly string[]): T[] {
  const rank = (item: T) => {
    const i = catalogueNames.indexOf(componentOf(item) ?? '');
    return i === -1 ? catalogueNames.length : i;
  };
  return items.map((item, i) => ({ item, i, r: rank(item) })).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.item);
}
