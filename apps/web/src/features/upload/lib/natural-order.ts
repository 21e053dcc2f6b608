/**
 * Natural order, the server's (docs/decisions.md, Parsing): the zh-CN collation with numeric
 * ordering, so p2 comes before p10 and Chinese names sort by pinyin; paths compare segment by
 * segment. The page orders what the customer picked the way the server orders a work's files.
 */
const collator = new Intl.Collator('zh-CN', { numeric: true, sensitivity: 'base' });

export function naturalCompare(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const c = collator.compare(sa[i] as string, sb[i] as string);
    if (c !== 0) return c;
  }
  return sa.length - sb.length;
}
